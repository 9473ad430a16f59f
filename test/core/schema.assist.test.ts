// Completions and hovers from the ledger's own packages (the shared DARs), at cursor positions in
// commands files written the way people type them (incomplete, with the cursor marked by ‸).
import assert from 'node:assert/strict';
import { PackageIndex } from '../../src/core/daml/packageIndex';
import type { ArgumentContext } from '../../src/core/files/argumentChecks';
import { completionsAt, hoverAt } from '../../src/core/files/damlAssist';
import { validateText } from '../../src/core/files/validate';
import { DARS, requireDar } from '../support/dars';

const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';
const FOO = '#DamlDefinitionsServiceDep:ExternalDep:TemplateFoo';

/** The text without the cursor mark, and the cursor's offset. */
function at(marked: string): [string, number] {
  const offset = marked.indexOf('‸');
  return [marked.replace('‸', ''), offset];
}

function commands(command: string): string {
  return `{"commandId": "c", "actAs": ["${ALICE}"], "commands": [{${command}}]}`;
}

/** Applies an item's insert text (snippet placeholders reduced to their defaults) at the cursor or its range. */
function apply(text: string, offset: number, item: { insertText: string; replace?: { offset: number; length: number } }): string {
  const plain = item.insertText.replace(/\$\{\d+:((?:[^}\\]|\\.)*)\}/g, (_m, d: string) => d.replace(/\\(.)/g, '$1'));
  const { offset: start, length } = item.replace ?? { offset, length: 0 };
  return text.slice(0, start) + plain + text.slice(start + length);
}

describe('core: Daml completions and hovers', () => {
  let ping: ArgumentContext;
  let definitions: ArgumentContext;
  before(function () {
    ping = { packages: new PackageIndex(requireDar(this, DARS.ping).packages), source: 'in the ping DAR' };
    definitions = { packages: new PackageIndex(requireDar(this, DARS.definitions).packages), source: 'in the definitions DAR' };
  });

  it('offers the template ids of the packages in the templateId string, in package-name form', () => {
    const [text, offset] = at(commands('"CreateCommand": {"templateId": "#can‸", "createArguments": {}}'));
    const items = completionsAt(text, offset, ping);
    const item = items.find((i) => i.label === PING);
    assert.ok(item, items.map((i) => i.label).join(', '));
    assert.equal(item.kind, 'template');
    assert.match(item.documentation!, /initiator : Party/);
    assert.match(apply(text, offset, item), new RegExp(`"templateId": "${PING.replace(/[.$]/g, '\\$&')}", "createArguments"`));
  });

  it('offers the fields still missing with their Daml types, and one snippet that fills them all, valid once inserted but for the parties to fill in', () => {
    const [text, offset] = at(commands(`"CreateCommand": {"templateId": "${PING}", "createArguments": {"id": "x", ‸}}`));
    const items = completionsAt(text, offset, ping);
    assert.deepEqual(items.map((i) => i.label), ['All 2 fields of Ping', 'initiator', 'responder']);
    assert.equal(items[1].detail, 'Party');
    const filled = apply(text, offset, items[0]);
    const problems = validateText('commands', filled, { packages: ping }).problems;
    // Canton refuses an empty party: the placeholders of both stay flagged until the user types them.
    assert.deepEqual(problems.map((p) => [p.code, p.path.split('/').at(-1)]), [['bad-party', 'initiator'], ['bad-party', 'responder']], filled);
  });

  it('offers the choices of the template with their signatures, and checks nothing else there', () => {
    const [text, offset] = at(commands(`"ExerciseCommand": {"templateId": "${PING}", "contractId": "00", "choice": "‸", "choiceArgument": {}}`));
    const items = completionsAt(text, offset, ping);
    assert.deepEqual(items.map((i) => i.label).sort(), ['AbortPing', 'Archive', 'Respond']);
    assert.match(items.find((i) => i.label === 'AbortPing')!.detail!, /^consuming choice AbortPing : AbortPing -> \(\)$/);
  });

  it('offers the variant constructors of a field as complete {"tag", "value"} values, and the tags inside one', () => {
    const [text, offset] = at(commands(`"CreateCommand": {"templateId": "${FOO}", "createArguments": {"someRecordField": ‸}}`));
    const items = completionsAt(text, offset, definitions);
    assert.deepEqual(items.map((i) => i.label), ['SomeVariant', 'SomeEnum']);
    assert.match(apply(text, offset, items[1]), /"someRecordField": \{"tag": "SomeEnum", "value": \{\}\}/);

    const [inTag, tagOffset] = at(commands(`"CreateCommand": {"templateId": "${FOO}", "createArguments": {"someRecordField": {"tag": "‸"}}}`));
    assert.deepEqual(completionsAt(inTag, tagOffset, definitions).map((i) => i.label), ['SomeVariant', 'SomeEnum']);
  });

  it('hovers a field with its Daml type and record, the template id with its signature, a choice with its types', () => {
    const text = commands(`"ExerciseCommand": {"templateId": "${PING}", "contractId": "00", "choice": "AbortPing", "choiceArgument": {"anyone": "${ALICE}"}}`);
    const field = hoverAt(text, text.indexOf('"anyone"') + 2, ping);
    assert.ok(field);
    assert.match(field.markdown, /anyone : Party/);
    assert.match(field.markdown, /\n```\n\nA field of the record `AbortPing`$/);
    assert.match(hoverAt(text, text.indexOf(PING) + 3, ping)!.markdown, /template Ping[\s\S]*responder : Party[\s\S]*choice Respond/);
    assert.match(hoverAt(text, text.indexOf('"AbortPing"') + 3, ping)!.markdown, /consuming choice AbortPing : AbortPing -> \(\)/);
    assert.equal(hoverAt(text, text.indexOf('"commandId"') + 2, ping), undefined, 'the envelope is the schema\'s to explain');
  });
});
