// A fresh commandId for a commands file: found in both shapes the request builder reads, replaced as one
// edit of the id's string, everything else kept byte for byte.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandIdSite, newCommandIdEdit } from '../../../src/core/files/commandId';
import { applyEdits } from '../../../src/core/files/fixes';
import { validateText } from '../../../src/core/files/validate';
import { submissionOf, type CommandsFileValue } from '../../../src/core/submit/submission';

const EXAMPLE = join(__dirname, '..', '..', '..', 'examples', 'demo-workspace', 'iou-create.commands.json');

/** The text with a new commandId, and what the request builder reads from it. */
function renewed(text: string, id: string): { text: string; requestCommandId: string } {
  const result = newCommandIdEdit(text, id);
  assert.ok(result, 'the file has a commandId to replace');
  const next = applyEdits(text, [result.edit]);
  return { text: next, requestCommandId: submissionOf(JSON.parse(next) as CommandsFileValue).request.commands.commandId };
}

describe('a fresh commandId in a commands file', () => {
  it('a bare JsCommands (the example file): only the id changes, byte for byte, and the request carries it', () => {
    const text = readFileSync(EXAMPLE, 'utf8');
    const old = commandIdSite(text)!.commandId;
    const { text: next, requestCommandId } = renewed(text, 'fresh-1');
    assert.equal(requestCommandId, 'fresh-1');
    assert.equal(next, text.replace(JSON.stringify(old), '"fresh-1"'), 'nothing else moved');
    assert.deepEqual(validateText('commands', next).problems.filter((p) => p.severity === 'error'), []);
  });

  it('a whole submit request: the commandId inside "commands", not a look-alike elsewhere', () => {
    const text = '{\r\n\t"commands": {"commandId":"old" , "actAs": ["p"], "commands": [{"CreateCommand": {"templateId": "#p:M:T", "createArguments": {}}}], "workflowId": "commandId"},\r\n\t"transactionFormat": {"eventFormat": {"filtersByParty": {}}, "transactionShape": "TRANSACTION_SHAPE_ACS_DELTA"}\r\n}';
    const { text: next, requestCommandId } = renewed(text, 'new-id');
    assert.equal(requestCommandId, 'new-id');
    assert.equal(next, text.replace('"commandId":"old"', '"commandId":"new-id"'));
  });

  it('the default id is a random UUID, a new one each time', () => {
    const text = '{"commandId": "x", "actAs": ["p"], "commands": []}';
    const a = newCommandIdEdit(text)!.commandId;
    const b = newCommandIdEdit(text)!.commandId;
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(a, b);
  });

  it('an escaped id is replaced whole (the site covers the JSON string, quotes and escapes)', () => {
    const text = '{"commandId": "a\\"b\\u0063", "actAs": ["p"]}';
    assert.equal(commandIdSite(text)!.commandId, 'a"bc');
    assert.equal(renewedText(text, 'z'), '{"commandId": "z", "actAs": ["p"]}');
  });

  it('no commandId to replace: none, a number, or not an object: undefined (the checks say what is missing)', () => {
    for (const text of ['{"actAs": ["p"], "commands": []}', '{"commandId": 7}', '[]', '', '{"commands": {"actAs": []}}']) {
      assert.equal(newCommandIdEdit(text, 'x'), undefined, text);
    }
  });
});

function renewedText(text: string, id: string): string {
  return applyEdits(text, [newCommandIdEdit(text, id)!.edit]);
}
