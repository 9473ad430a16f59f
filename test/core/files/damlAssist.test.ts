// Completions and hovers from the ledger's own packages (the shared DARs), at cursor positions in
// commands files written the way people type them (incomplete, with the cursor marked by ‸).
import assert from 'node:assert/strict';
import type { DamlPackage } from '../../../src/core/daml/model';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import type { ArgumentContext } from '../../../src/core/files/argumentChecks';
import { completionsAt, hoverAt, templatePackageNameAt, type AssistItem, type VersionLookup } from '../../../src/core/files/damlAssist';
import type { VersionWords } from '../../../src/core/network/preferredVersions';
import { validateText } from '../../../src/core/files/validate';
import { DARS, requireDar } from '../../support/dars';

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

/** Applies an item's insert text (snippet placeholders reduced to their defaults) at the cursor or its range, and its other edits. */
function apply(text: string, offset: number, item: AssistItem): string {
  const plain = item.snippet ? item.insertText.replace(/\$\{\d+:((?:[^}\\]|\\.)*)\}|\$\d+/g, (_m, d: string | undefined) => (d ?? '').replace(/\\(.)/g, '$1')) : item.insertText;
  const { offset: start, length } = item.replace ?? { offset, length: 0 };
  // From the end backwards, so that earlier offsets stay true.
  const edits = [{ offset: start, length, text: plain }, ...(item.additionalEdits ?? [])].sort((a, b) => b.offset - a.offset);
  return edits.reduce((t, e) => t.slice(0, e.offset) + e.text + t.slice(e.offset + e.length), text);
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
    // The generated values are marked placeholders, flagged until the user types over them.
    assert.deepEqual(problems.map((p) => [p.code, p.path.split('/').at(-1)]), [['placeholder', 'initiator'], ['placeholder', 'responder']], filled);
  });

  it('names the version a package name resolves to in the template completion and the hover alike (the highest vetted)', () => {
    const version = (id: string, v: string): DamlPackage => ({
      id, name: 'demo-iou', version: v, lfVersion: '2.1', dependencies: [],
      modules: [{ name: 'Iou', dataTypes: [{ kind: 'record', name: 'Iou', params: [], serializable: true, fields: [] }], synonyms: [], templates: [{ name: 'Iou', choices: [], implements: [] }], interfaces: [] }],
    });
    const [v1, v2] = ['1'.repeat(64), '2'.repeat(64)];
    // Listed newest first, the upgrade not vetted: a command with #demo-iou runs 1.0.0.
    let vetted = new Set([v1]);
    const context = { packages: new PackageIndex([version(v2, '2.0.0'), version(v1, '1.0.0')], { vettedPackageIds: () => vetted }), source: 'x' };
    const [text, offset] = at(commands('"CreateCommand": {"templateId": "#demo‸", "createArguments": {}}'));
    const items = completionsAt(text, offset, context).filter((i) => i.label === '#demo-iou:Iou:Iou');
    assert.deepEqual(items.map((i) => i.detail), ['template Iou (demo-iou 1.0.0)']);
    const chosen = apply(text, offset, items[0]);
    const hover = hoverAt(chosen, chosen.indexOf('#demo-iou') + 2, context);
    assert.match(hover!.markdown, /demo-iou 1\.0\.0/);
    assert.doesNotMatch(hover!.markdown, /2\.0\.0/);
    // The upgrade vetted later, in the same context: the name now stands for 2.0.0 (nothing pins 1.0.0).
    vetted = new Set([v1, v2]);
    assert.match(hoverAt(chosen, chosen.indexOf('#demo-iou') + 2, context)!.markdown, /demo-iou 2\.0\.0/);
  });

  it('with the version Canton will use for the file\'s parties: the completion and the hover name it, show its template, and say why the highest known here is not it', () => {
    const version = (id: string, v: string, fields: string[]): DamlPackage => ({
      id, name: 'demo-iou', version: v, lfVersion: '2.1', dependencies: [],
      modules: [{ name: 'Iou', dataTypes: [{ kind: 'record', name: 'Iou', params: [], serializable: true, fields: fields.map((name) => ({ name, type: { kind: 'builtin', builtin: 'Party', args: [] } })) }], synonyms: [], templates: [{ name: 'Iou', choices: [], implements: [] }], interfaces: [] }],
    });
    const [v1, v2] = ['1'.repeat(64), '2'.repeat(64)];
    // Both vetted here, so the name resolves to 2.0.0 here; Canton picks 1.0.0 for Alice (another host of hers lacks 2.0.0).
    const context = { packages: new PackageIndex([version(v2, '2.0.0', ['issuer', 'regulator']), version(v1, '1.0.0', ['issuer'])], { vettedPackageIds: () => new Set([v1, v2]) }), source: 'x' };
    const canton: VersionWords = { verdict: 'ok', chosen: { packageId: v1, packageName: 'demo-iou', packageVersion: '1.0.0' }, headline: 'Canton will use demo-iou 1.0.0 for Alice', why: ['Canton\'s answer.'] };
    const lookup: VersionLookup = (name) => (name === 'demo-iou' ? canton : undefined);
    const [text, offset] = at(commands('"CreateCommand": {"templateId": "#demo‸", "createArguments": {}}'));
    const [item] = completionsAt(text, offset, context, lookup).filter((i) => i.label === '#demo-iou:Iou:Iou');
    assert.deepEqual([item.detail, item.preferred], ['template Iou · Canton will use demo-iou 1.0.0 for Alice', true]);
    assert.match(item.documentation!, /^\*\*Canton will use demo-iou 1\.0\.0 for Alice\.\*\*\n\n- Canton's answer\.\n\ndemo-iou 2\.0\.0, the highest version known here, is not vetted by every participant hosting these parties/);
    assert.match(item.documentation!, /demo-iou 1\.0\.0\n {2}with\n {4}issuer : Party\n```/, 'the fields of the version Canton will use');

    const chosen = apply(text, offset, item);
    const on = chosen.indexOf('#demo-iou') + 2;
    assert.equal(templatePackageNameAt(chosen, on), 'demo-iou');
    assert.equal(templatePackageNameAt(chosen, chosen.indexOf('"actAs"') + 2), undefined, 'only on a command\'s templateId');
    const hover = hoverAt(chosen, on, context, lookup)!.markdown;
    assert.match(hover, /^\*\*Canton will use demo-iou 1\.0\.0 for Alice\.\*\*[\s\S]*---[\s\S]*template Iou {2}-- Iou, demo-iou 1\.0\.0/);
    assert.doesNotMatch(hover, /regulator/);
    assert.match(hoverAt(chosen, on, context, () => 'asking')!.markdown, /^_Which version Canton will use for the file's parties is being asked: hover again in a moment\._\n\n---\n\n```daml\ntemplate Iou {2}-- Iou, demo-iou 2\.0\.0/);
    const none: VersionWords = { verdict: 'fails', headline: 'No version of demo-iou is vetted by every participant hosting Alice: commands using it will fail', why: ['Alice is hosted on app-provider, which has not vetted any version of demo-iou.'] };
    const [failing] = completionsAt(text, offset, context, () => none).filter((i) => i.label === '#demo-iou:Iou:Iou');
    assert.deepEqual([failing.detail, failing.preferred], [`template Iou · ✗ ${none.headline}`, undefined]);
  });

  describe('a field completion leaves valid JSON wherever it is accepted', () => {
    const create = (args: string) => commands(`"CreateCommand": {"templateId": "${PING}", "createArguments": ${args}}`);
    const positions: Record<string, string> = {
      'the empty object': '{‸}',
      'the empty object, on a line of its own': '{\n  ‸\n}',
      'before the first field': '{\n  ‸\n  "id": "x"\n}',
      'before the first field, on its line': '{‸ "id": "x"}',
      'between fields, after the comma': '{\n  "id": "x",\n  ‸\n  "responder": "r"\n}',
      'between fields, with the comma still to type': '{\n  "id": "x"\n  ‸\n  "responder": "r"\n}',
      'after the last field and its comma': '{"id": "x", ‸}',
      'after the last field, no comma typed': '{\n  "id": "x"\n  ‸\n}',
      'in a key typed after the last field': '{\n  "id": "x"\n  "‸"\n}',
      'in a key typed before a field': '{\n  "‸"\n  "id": "x"\n}',
      'in a key typed between fields': '{"id": "x", "‸" "responder": "r"}',
    };
    for (const [where, args] of Object.entries(positions)) {
      it(where, () => {
        const [text, offset] = at(create(args));
        const items = completionsAt(text, offset, ping);
        const fields = items.filter((i) => i.kind === 'field');
        assert.ok(fields.some((i) => i.label === 'initiator'), items.map((i) => i.label).join(', '));
        for (const item of fields) {
          const result = apply(text, offset, item);
          let value: { commands: Array<{ CreateCommand: { createArguments: Record<string, unknown> } }> };
          try {
            value = JSON.parse(result);
          } catch (e) {
            assert.fail(`${item.label}: ${(e as Error).message} in\n${result}`);
          }
          const keys = Object.keys(value.commands[0].CreateCommand.createArguments);
          for (const [, key] of args.matchAll(/"(\w+)":/g)) assert.ok(keys.includes(key), `${item.label} keeps ${key}: ${result}`);
          const added = item.label.startsWith('All ') ? item.detail!.split(', ') : [item.label];
          for (const key of added) assert.ok(keys.includes(key), `${item.label} adds ${key}: ${result}`);
          assert.doesNotMatch(result, /,\s*,/, `no double comma: ${result}`);
        }
      });
    }

    it('names only the key when a value follows the key typed over', () => {
      const [text, offset] = at(create('{"id": "x", "resp‸": "r"}'));
      const item = completionsAt(text, offset, ping).find((i) => i.label === 'responder')!;
      assert.equal(apply(text, offset, item), create('{"id": "x", "responder": "r"}'));
    });

    it('adds the comma to the field before at that field, not on the new line', () => {
      const [text, offset] = at(create('{\n  "id": "x"\n  ‸\n}'));
      const item = completionsAt(text, offset, ping).find((i) => i.label === 'initiator')!;
      assert.equal(apply(text, offset, item), create('{\n  "id": "x",\n  "initiator": "<Party>"\n}'));
    });
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
