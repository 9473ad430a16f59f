/** Quick fixes (core): each fix applied to a real problem of validateText makes that problem go away. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeRights } from '../../../src/core/models/users';
import { applyEdits, fixesFor, type Fix, type FixContext } from '../../../src/core/files/fixes';
import { commandsFileTemplate, templateText, vettingFileTemplate, PLACEHOLDER } from '../../../src/core/files/templates';
import { validateText, type FileKind, type Problem } from '../../../src/core/files/validate';
import { CORPUS_DIR } from '../../fixtures/files/corpus';

const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const PACKAGE_ID = 'd7ae2f7e656d31bc3522c3cba720cea474575c3ac67250c3aeb080ba602f0353';

const corpusText = (name: string) => readFileSync(join(CORPUS_DIR, 'invalid', name), 'utf8');

function problemsOf(kind: FileKind, text: string, code?: string): Problem[] {
  return validateText(kind, text).problems.filter((p) => !code || p.code === code);
}

/** Applies `fix` and returns the new text. */
function applied(text: string, fix: Fix): string {
  return applyEdits(text, fix.edits);
}

describe('schema: quick fixes', () => {
  it('inserts a fresh commandId where it is missing, and the file then has no missing-command-id', () => {
    const text = corpusText('missing-command-id.commands.json');
    const [problem] = problemsOf('commands', text, 'missing-command-id');
    const [fix] = fixesFor(text, problem, { newCommandId: () => 'fixed-command-id-1' });
    assert.ok(fix.preferred);
    const after = applied(text, fix);
    assert.equal((JSON.parse(after) as { commandId: string }).commandId, 'fixed-command-id-1');
    assert.deepEqual(problemsOf('commands', after, 'missing-command-id'), []);
  });

  it('replaces an empty commandId with a UUID, and fills an empty actAs from the user\'s one act-as party', () => {
    const text = corpusText('empty-act-as-and-command-id.commands.json');
    const idProblem = problemsOf('commands', text, 'missing-command-id')[0];
    const idFix = fixesFor(text, idProblem)[0];
    const withId = applied(text, idFix);
    assert.match((JSON.parse(withId) as { commandId: string }).commandId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const actAsProblem = problemsOf('commands', withId, 'empty-act-as')[0];
    assert.ok(actAsProblem);
    assert.deepEqual(fixesFor(withId, actAsProblem, {}), [], 'no parties known: no fix');
    const [actAsFix] = fixesFor(withId, actAsProblem, { actAsParties: [ALICE] });
    assert.ok(actAsFix.preferred);
    const after = applied(withId, actAsFix);
    assert.deepEqual((JSON.parse(after) as { actAs: string[] }).actAs, [ALICE]);
    assert.deepEqual(problemsOf('commands', after), []);
  });

  it('offers one non-preferred actAs fix per party when the user may act as several', () => {
    const text = '{"commands": [{"CreateCommand": {"templateId": "#p:M:T", "createArguments": {}}}], "commandId": "x"}';
    const [problem] = problemsOf('commands', text, 'empty-act-as');
    const fixes = fixesFor(text, problem, { actAsParties: [ALICE, 'Bob::1220ab'] });
    assert.deepEqual(fixes.map((f) => f.preferred), [false, false]);
    assert.deepEqual((JSON.parse(applied(text, fixes[1])) as { actAs: string[] }).actAs, ['Bob::1220ab']);
  });

  it('renames deprecated and misspelt fields to their suggestion, leaving only the unfixable unknown fields', () => {
    let text = corpusText('renamed-and-misspelt-fields.commands.json');
    // Apply the preferred fix of one renaming problem at a time, as a user would.
    for (let round = 0; round < 10; round++) {
      const next = problemsOf('commands', text).flatMap((p) => fixesFor(text, p)).find((f) => f.preferred && f.code !== 'missing-command-id');
      if (!next) break;
      text = applied(text, next);
    }
    const value = JSON.parse(text) as Record<string, unknown>;
    assert.equal(value.commandId, 'typo-1', 'comandId → commandId');
    assert.equal(value.userId, 'my-app', 'applicationId → userId');
    assert.match(String(value.synchronizerId), /^global-domain::/, 'domainId → synchronizerId');
    assert.equal(value.workflowId, 'wf-1', 'workflowID → workflowId');
    assert.deepEqual(value.readAs, [], 'ReadAs → readAs');
    const left = problemsOf('commands', text).map((p) => `${p.code}:${String(p.data?.field)}`);
    assert.deepEqual(left.sort(), ['unknown-field:observers', 'unknown-field:priority']);
    // What is left has a (non-preferred) removal.
    const priority = problemsOf('commands', text).find((p) => p.data?.field === 'priority')!;
    const [remove] = fixesFor(text, priority);
    assert.equal(remove.preferred, false);
    assert.equal('priority' in (JSON.parse(applied(text, remove)) as object), false);
  });

  it('removes a deprecated field whose replacement is already set', () => {
    const text = '{\n  "commands": [{"CreateCommand": {"templateId": "#p:M:T", "createArguments": {}}}],\n  "commandId": "c",\n  "actAs": ["' + ALICE + '"],\n  "userId": "u",\n  "applicationId": "old"\n}\n';
    const [problem] = problemsOf('commands', text, 'deprecated-field');
    const [fix] = fixesFor(text, problem);
    assert.match(fix.title, /Remove "applicationId"/);
    const after = applied(text, fix);
    assert.deepEqual(problemsOf('commands', after), []);
    assert.equal((JSON.parse(after) as { userId: string }).userId, 'u');
  });

  it('replaces package-id template ids with the package-name form when the package is known, and only then', () => {
    const text = corpusText('package-id-templates.commands.json');
    const problems = problemsOf('commands', text, 'package-id-template');
    assert.equal(problems.length, 3);
    assert.deepEqual(fixesFor(text, problems[0]), [], 'unknown package: no fix');
    const context: FixContext = { packageNames: new Map([[PACKAGE_ID, 'model-tests']]) };
    let fixed = text;
    // Apply from the last to the first, so that earlier offsets stay valid.
    for (const problem of [...problems].reverse()) fixed = applied(fixed, fixesFor(fixed, problem, context)[0]);
    assert.deepEqual(problemsOf('commands', fixed, 'package-id-template'), []);
    assert.match(fixed, /"templateId": "#model-tests:Iou:Iou"/);
    assert.match(fixed, /"interfaceId": "#model-tests:Iou:IIou"/);
    assert.match(fixed, /"createdEventBlob": "CgMyLjE=", "templateId": "d7ae2f7e/, 'disclosed contracts keep the package id');
  });

  it('removes a duplicate key (not preferred) and a trailing comma (preferred)', () => {
    const dup = '{"commandId": "a", "actAs": ["' + ALICE + '"], "commandId": "b", "commands": [{"CreateCommand": {"templateId": "#p:M:T", "createArguments": {}}}]}';
    const [problem] = problemsOf('commands', dup, 'duplicate-key');
    const [fix] = fixesFor(dup, problem);
    assert.equal(fix.preferred, false);
    const after = applied(dup, fix);
    assert.deepEqual(problemsOf('commands', after), []);
    assert.equal((JSON.parse(after) as { commandId: string }).commandId, 'a');

    const trailing = corpusText('syntax-trailing-comma.commands.json');
    const commaFixes = problemsOf('commands', trailing, 'json-syntax').flatMap((p) => fixesFor(trailing, p));
    assert.ok(commaFixes.length >= 1);
    const fixedAll = applyEdits(trailing, commaFixes.flatMap((f) => f.edits));
    assert.deepEqual(problemsOf('commands', fixedAll, 'json-syntax'), []);
  });

  it('renames a misspelt command kind', () => {
    const text = '{"commandId": "c", "actAs": ["' + ALICE + '"], "commands": [{"CreateComand": {"templateId": "#p:M:T", "createArguments": {}}}]}';
    const [problem] = problemsOf('commands', text, 'unknown-variant');
    const [fix] = fixesFor(text, problem);
    assert.equal(fix.title, 'Rename "CreateComand" to "CreateCommand"');
    assert.deepEqual(problemsOf('commands', applied(text, fix)), []);
  });

  it('wraps the fields of a variant case in {"value": …} and writes numeric strings as numbers', () => {
    const text = '{\n  "changes": [{"operation": {"Vet": {"packages": [{"packageName": "model-tests"}]}}}],\n  "expectedTopologySerial": {"serial": {"Prior": {"value": "3"}}}\n}\n';
    const wrapProblem = problemsOf('vetting', text, 'missing-field')[0];
    const [wrap] = fixesFor(text, wrapProblem);
    assert.ok(wrap.preferred);
    const wrapped = applied(text, wrap);
    assert.deepEqual((JSON.parse(wrapped) as { changes: unknown[] }).changes[0], { operation: { Vet: { value: { packages: [{ packageName: 'model-tests' }] } } } });
    assert.deepEqual(problemsOf('vetting', wrapped, 'unknown-field'), [], 'the field is known inside "value"');

    const [typeProblem] = problemsOf('vetting', wrapped, 'schema');
    assert.equal(typeProblem.data?.expectedType, 'integer');
    const [number] = fixesFor(wrapped, typeProblem);
    assert.equal(number.title, 'Write 3 as a number');
    const after = applied(wrapped, number);
    assert.deepEqual(problemsOf('vetting', after), []);
    assert.deepEqual((JSON.parse(after) as { expectedTopologySerial: unknown }).expectedTopologySerial, { serial: { Prior: { value: 3 } } });
    // Not every missing field or type error has a fix.
    const other = '{"changes": [{"operation": {"Vet": {"value": {}}}}], "dryRun": "yes"}';
    assert.deepEqual(problemsOf('vetting', other).flatMap((p) => fixesFor(other, p)), []);
  });

  it('drops a needless variant wrapper and removes a key next to the command kind', () => {
    const text = corpusText('command-variants.commands.json');
    const problems = problemsOf('commands', text, 'unknown-variant');
    const fixesOf = (line: number) => problems.filter((p) => p.line === line).flatMap((p) => fixesFor(text, p));
    const [unwrap] = fixesOf(11);
    assert.equal(unwrap.title, 'Remove the "value" wrapper');
    assert.ok(unwrap.preferred);
    assert.match(applied(text, unwrap).split('\n')[10], /^ {4}\{"CreateCommand": \{"templateId": "#model-tests:Iou:Iou", "createArguments": \{\}\}\}$/);
    const [extra] = fixesOf(8);
    assert.equal(extra.title, 'Remove "note"');
    assert.equal(extra.preferred, false);
    const after = applied(text, extra);
    assert.equal(problemsOf('commands', after).filter((p) => p.line === 8).length, 0);
    assert.deepEqual(fixesOf(10), [], 'two kinds in one object: the user has to split it');
  });

  it('offers to remove either of two conflicting fields', () => {
    const text = corpusText('min-ledger-time-both.commands.json');
    const [problem] = problemsOf('commands', text, 'conflicting-fields');
    const [fix] = fixesFor(text, problem);
    assert.deepEqual(problemsOf('commands', applied(text, fix), 'conflicting-fields'), []);
  });
});

describe('schema: new file templates', () => {
  const rights = decodeRights([{ kind: { CanActAs: { value: { party: 'Bank::1220aa' } } } }, { kind: { CanActAs: { value: { party: ALICE } } } }]);

  it('fills a commands file from the connection: only its placeholder template id is left to replace', () => {
    const value = commandsFileTemplate({ userId: 'demo-admin', rights, primaryParty: ALICE, synchronizerId: 'sync::1220bb' }) as Record<string, unknown>;
    assert.equal(value.userId, 'demo-admin');
    assert.deepEqual(value.actAs, [ALICE], 'the primary party first');
    assert.equal(value.synchronizerId, 'sync::1220bb');
    assert.match(String(value.commandId), /^[0-9a-f-]{36}$/);
    assert.notEqual(commandsFileTemplate({}).commandId, commandsFileTemplate({}).commandId, 'a fresh commandId each time');
    assert.deepEqual(problemsOf('commands', templateText(value)).map((p) => [p.code, p.path, p.severity]), [['placeholder', '/commands/0/CreateCommand/templateId', 'error']]);
  });

  it('marks what the connection did not say with placeholders the validator flags', () => {
    const text = templateText(commandsFileTemplate({}));
    assert.ok(text.includes(PLACEHOLDER.userId) && text.includes(PLACEHOLDER.party));
    assert.deepEqual(problemsOf('commands', text).map((p) => p.path).sort(), ['/actAs/0', '/commands/0/CreateCommand/templateId', '/userId']);
  });

  it('writes the vetting serial guard as Prior, NoPrior, or not at all', () => {
    const prior = vettingFileTemplate({ synchronizerId: 'sync::1220bb', topologySerial: 4 });
    assert.deepEqual(prior.expectedTopologySerial, { serial: { Prior: { value: 4 } } });
    assert.deepEqual(vettingFileTemplate({ topologySerial: null }).expectedTopologySerial, { serial: { NoPrior: {} } });
    assert.equal('expectedTopologySerial' in vettingFileTemplate({}), false);
    for (const v of [prior, vettingFileTemplate({})]) {
      assert.deepEqual(problemsOf('vetting', templateText(v)).map((p) => [p.code, p.path]), [['placeholder', '/changes/0/operation/Vet/value/packages/0/packageName']], 'only the package to vet is left to fill in');
    }
  });
});
