// The Packages view's rows and the commands "New Commands File" writes for a template or choice,
// from real packages (the shared DARs).
import assert from 'node:assert/strict';
import { packageRows } from '../../../src/core/daml/packageRows';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import type { LedgerRow } from '../../../src/core/rows';
import { commandFor, commandsFileTemplate, PLACEHOLDER, templateText } from '../../../src/core/files/templates';
import { validateText } from '../../../src/core/files/validate';
import { DARS, requireDar } from '../../support/dars';

const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';

function find(rows: LedgerRow[], pred: (r: LedgerRow) => boolean): LedgerRow | undefined {
  for (const r of rows) {
    if (pred(r)) return r;
    const inner = r.children && find(r.children(), pred);
    if (inner) return inner;
  }
  return undefined;
}

describe('core: the Packages view rows and commands for a template', () => {
  let index: PackageIndex;
  before(function () {
    index = new PackageIndex(requireDar(this, DARS.ping).packages);
  });

  it('lists the application packages first, the standard library in a group, each package with id and vetting', () => {
    const pkgId = index.resolvePackageName('canton-builtin-admin-workflow-ping')!;
    const rows = packageRows(index, { vetted: new Set([pkgId]) });
    const ping = rows.find((r) => r.label.startsWith('canton-builtin-admin-workflow-ping '))!;
    assert.ok(ping, rows.map((r) => r.label).join(', '));
    assert.match(ping.description!, /vetted/);
    assert.doesNotMatch(ping.description!, /not vetted/);
    assert.equal(ping.packageId, pkgId);
    const library = rows.find((r) => r.kind === 'group')!;
    assert.equal(library.label, 'Daml standard library');
    assert.ok(library.children!().every((r) => /^(daml-|ghc-)/.test(r.label)));
    assert.ok(library.children!().every((r) => /not vetted/.test(r.description!)));
    assert.equal(rows.indexOf(library), rows.length - 1);
  });

  it('shows a template with its fields and choices (with signatures), carrying its id for the context actions', () => {
    const rows = packageRows(index);
    const template = find(rows, (r) => r.kind === 'template' && r.templateId === PING)!;
    assert.ok(template);
    const children = template.children!();
    assert.deepEqual(children.filter((r) => r.kind === 'detail').map((r) => `${r.label}: ${r.description}`), ['id: Text', 'initiator: Party', 'responder: Party']);
    const abort = children.find((r) => r.kind === 'choice' && r.label === 'AbortPing')!;
    assert.equal(abort.choice, 'AbortPing');
    assert.equal(abort.templateId, PING);
    assert.match(abort.description!, /^AbortPing → \(\)/);
  });

  it('writes a complete CreateCommand (parties filled in) whose other values are placeholders flagged until replaced', () => {
    const command = commandFor(index, PING, undefined, ALICE)!;
    assert.deepEqual(command, { CreateCommand: { templateId: PING, createArguments: { id: '<Text>', initiator: ALICE, responder: ALICE } } });
    const text = templateText(commandsFileTemplate({ command, rights: { actAs: [ALICE], readAs: [], admin: false, identityProviderAdmin: false, readAsAnyParty: false } as never, userId: 'u' }));
    const problems = validateText('commands', text, { packages: { packages: index, source: 'x' } }).problems;
    assert.deepEqual(problems.map((p) => [p.code, p.path, p.severity]), [['placeholder', '/commands/0/CreateCommand/createArguments/id', 'error']]);
    assert.deepEqual(validateText('commands', text.replace('"<Text>"', '"ping-1"'), { packages: { packages: index, source: 'x' } }).problems, [], 'checks clean once filled in');
  });

  it('writes an ExerciseCommand of a choice whose contract id is a placeholder the checks flag until replaced', () => {
    const command = commandFor(index, PING, 'AbortPing', ALICE)!;
    assert.deepEqual(command, { ExerciseCommand: { templateId: PING, contractId: PLACEHOLDER.contractId, choice: 'AbortPing', choiceArgument: { anyone: ALICE } } });
    const text = templateText(commandsFileTemplate({ command, userId: 'u', rights: { actAs: [ALICE] } as never }));
    const problems = validateText('commands', text, { packages: { packages: index, source: 'x' } }).problems;
    assert.ok(problems.some((p) => p.severity === 'error' && p.path.endsWith('/contractId')), JSON.stringify(problems));
    assert.equal(commandFor(index, PING, 'NoSuchChoice', ALICE), undefined);
  });
});
