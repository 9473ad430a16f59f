// Ledger scripts in the core: the checks with positions (step kinds, ${name}, aliases, fields), the
// values and command ids, and runs against the demo participant: each expectation kind passing and
// failing, captures, refusals before anything is sent, cancellation and unknown outcomes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LedgerClient } from '../../../src/core/api/client';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { startValidation, validateText, type Problem } from '../../../src/core/files/validate';
import { LedgerConnection } from '../../../src/core/ledger/connection';
import { PackageStore } from '../../../src/core/ledger/packages';
import { runScript, fieldsMatch, type ScriptRun, type ScriptRunOptions } from '../../../src/core/scripts/run';
import { newScriptText } from '../../../src/core/scripts/newScript';
import { aliasOfPartyRef, interpolate, referencesIn, replaceKnown, scriptCommandId, scriptStepOfCommandId, UnboundNameError } from '../../../src/core/scripts/script';
import { ExactNumber } from '../../../src/core/json';
import { TEMPLATE_ID_PLACEHOLDER } from '../../../src/core/files/placeholders';
import type { DemoParticipant } from '../../../src/participant';
import { DARS, requireDarBytes } from '../../support/dars';
import { startFaultProxy } from '../../support/faultProxy';
import { REPO_ROOT } from '../../support/spec';
import { start } from '../../participant/helpers';

const IOU = '#demo-iou:Iou:Iou';
const EXAMPLES = join(REPO_ROOT, 'examples/demo-workspace/scripts');
export const EXAMPLE_SCRIPTS = ['iou-lifecycle.ledger.json', 'holding-transfer.ledger.json', 'wrong-party-transfer.ledger.json'];

const text = (script: unknown) => JSON.stringify(script, null, 2);
const errors = (problems: Problem[]) => problems.filter((p) => p.severity === 'error');

function issue(owner = '${Alice}', observers: string[] = [], amount = '100.00') {
  return { actAs: ['${Bank}'], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: '${Bank}', owner, currency: 'USD', amount, observers } } }] };
}
function transfer(actAs: string, contractId: string, newOwner: string) {
  return { actAs: [actAs], commands: [{ ExerciseCommand: { templateId: IOU, contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner } } }] };
}
const PARTIES = { Bank: {}, Alice: {}, Bob: {}, Charlie: {} };

describe('ledger scripts: checks while typing', () => {
  it('an unknown step kind is an error at the step, with the closest kind', () => {
    const t = text({ parties: PARTIES, steps: [{ name: 'x', submitt: issue() }] });
    const found = errors(validateText('script', t).problems);
    const kind = found.find((p) => p.code === 'unknown-step-kind');
    assert.ok(kind, JSON.stringify(found));
    assert.match(kind.message, /Step 1 does nothing.*did you mean submit\?/);
    assert.equal(kind.line, 9, 'at the step (its first character)');
    const twoKinds = errors(validateText('script', text({ steps: [{ submit: issue(), preview: issue() }] })).problems).find((p) => p.code === 'unknown-step-kind');
    assert.match(twoKinds!.message, /2 kinds \(submit, preview\)/);
  });

  it('a field a script does not know is an error (a misspelt expect would check nothing), with the closest name', () => {
    const t = text({ parties: PARTIES, steps: [{ submit: issue(), expct: { created: [] } }] });
    const [p] = validateText('script', t).problems;
    assert.deepEqual([p.path, p.severity, p.code, p.message], ['/steps/0/expct', 'error', 'unknown-field', 'Unknown field "expct": a ledger script has no such field; did you mean "expect"?']);
  });

  it('a ${name} used before it is captured says which step captures it; a misspelt one gets the closest name', () => {
    const t = text({
      parties: PARTIES,
      steps: [
        { submit: transfer('${Alice}', '${iou}', '${Bob}') },
        { submit: issue(), capture: { iou: { contractId: IOU } } },
        { submit: transfer('${Alice}', '${iuo}', '${Bbo}') },
      ],
    });
    const names = errors(validateText('script', t).problems).filter((p) => p.code === 'unknown-name');
    assert.deepEqual(
      names.map((p) => [p.path, p.message]),
      [
        ['/steps/0/submit/commands/0/ExerciseCommand/contractId', '${iou} is used before it is captured: step 2 captures it.'],
        ['/steps/2/submit/commands/0/ExerciseCommand/contractId', '${iuo} is not a party alias or an earlier capture: did you mean ${iou}?'],
        ['/steps/2/submit/commands/0/ExerciseCommand/choiceArgument/newOwner', '${Bbo} is not a party alias or an earlier capture: did you mean ${Bob}?'],
      ],
    );
    assert.ok(names.every((p) => p.line > 1));
  });

  it('the same names are found unbound when the party ids are known (the commands then get them as values)', () => {
    const script = {
      parties: PARTIES,
      steps: [
        { submit: transfer('${Alice}', '${iou}', '${Bob}') },
        { submit: issue(), capture: { iou: { contractId: IOU }, Bob: 'updateId' } },
        { submit: transfer('${Alice}', '${iuo}', '${Bbo}') },
        // A captured name hides the alias of that name from the step that captures it on.
        { submit: { ...transfer('${Alice}', '${iou}', 'x'), commands: [{ CreateCommand: { templateId: IOU, createArguments: { '${Charly}': '${Bob}' } } }] } },
      ],
    };
    const ids = ['Bank::1220aa', 'Alice::1220aa', 'Bob::1220aa', 'Charlie::1220aa'];
    const names = errors(validateText('script', text(script), { parties: { ids, source: 'on Demo' } }).problems).filter((p) => p.code === 'unknown-name');
    assert.deepEqual(
      names.map((p) => [p.path, p.message]),
      [
        ['/steps/0/submit/commands/0/ExerciseCommand/contractId', '${iou} is used before it is captured: step 2 captures it.'],
        ['/steps/2/submit/commands/0/ExerciseCommand/contractId', '${iuo} is not a party alias or an earlier capture: did you mean ${iou}?'],
        ['/steps/2/submit/commands/0/ExerciseCommand/choiceArgument/newOwner', '${Bbo} is not a party alias or an earlier capture: did you mean ${Bob}?'],
        ['/steps/3/submit/commands/0/CreateCommand/createArguments/${Charly}', '${Charly} is not a party alias or an earlier capture: did you mean ${Charlie}?'],
      ],
    );
  });

  it("a step's own captures are not bound for its own commands", () => {
    const t = text({ parties: PARTIES, steps: [{ submit: transfer('${Alice}', '${iou}', '${Bob}'), capture: { iou: { contractId: IOU } } }] });
    const [p] = errors(validateText('script', t).problems);
    assert.match(p.message, /used before it is captured: step 1 captures it \(a step's captures are bound after it ran\)/);
  });

  it('a party in an expectation or a read must be a declared alias', () => {
    const t = text({ parties: PARTIES, steps: [{ submit: issue(), expect: { notVisibleTo: ['Charly'] } }, { activeContracts: { party: 'Dave', template: IOU } }] });
    const parties = errors(validateText('script', t).problems).filter((p) => p.code === 'unknown-party');
    assert.deepEqual(
      parties.map((p) => [p.path, p.message]),
      [
        ['/steps/0/expect/notVisibleTo/0', '"Charly" is not a party alias of this script: did you mean "Charlie"?'],
        ['/steps/1/activeContracts/party', '"Dave" is not a party alias of this script (its aliases: Bank, Alice, Bob, Charlie).'],
      ],
    );
  });

  it('an alias that matches no party, or several, is an error at the alias when the parties are known', () => {
    const t = text({ parties: { Alice: {}, Ali: { hint: 'Al' }, Zed: {}, Fresh: { allocate: true } }, steps: [{ updates: { party: 'Alice' } }] });
    const ids = ['Alice::1220aa', 'Al::1220aa', 'Al::1220bb', 'Bob::1220aa'];
    const found = errors(validateText('script', t, { parties: { ids, source: 'on Demo' } }).problems);
    assert.deepEqual(
      found.map((p) => [p.path, p.code, p.message]),
      [
        ['/parties/Ali', 'unknown-party', '2 parties on Demo have ids starting with "Al::" (Al::1220aa, Al::1220bb): which one is meant is not clear; give the alias a "hint" that only one matches.'],
        ['/parties/Zed', 'unknown-party', 'No party on Demo has an id starting with "Zed::" (or allocate one per run: {"allocate": true}).'],
      ],
    );
    assert.equal(errors(validateText('script', t).problems).length, 0, 'without the parties, not checked');
  });

  it('inline commands get the commands file checks at their place in the script; values with ${…} wait for the run', () => {
    const bad = issue();
    const create = bad.commands[0].CreateCommand as Record<string, unknown>;
    create.templateID = create.templateId;
    delete create.templateId;
    const t = text({ parties: PARTIES, steps: [{ submit: bad }] });
    const found = validateText('script', t).problems;
    assert.deepEqual(
      found.map((p) => [p.path, p.code, p.severity, p.line]),
      [
        ['/steps/0/submit/commands/0/CreateCommand', 'missing-field', 'error', 16],
        ['/steps/0/submit/commands/0/CreateCommand/templateID', 'unknown-field', 'warning', 24],
      ],
    );
    assert.equal(errors(validateText('script', text({ parties: PARTIES, steps: [{ submit: issue() }] })).problems).length, 0);
  });

  it('the checks hand a run the inline commands whose every ${…} is an alias found on the participant, with the party ids in place', () => {
    const ids = ['Bank::1220aa', 'Alice::1220bb', 'Bob::1220cc'];
    const keyed = { actAs: ['${Bank}'], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: '${Bank}', owner: '${Alice}', currency: 'USD', amount: '1.00', observers: [], '${Bob}': 'x' } } }] };
    const t = text({
      parties: { Bank: {}, Alice: {}, Bob: {}, Fresh: { allocate: true } },
      users: { admin: { id: 'demo-admin' } },
      steps: [
        { submit: issue(), capture: { iou: { contractId: IOU } } },
        { preview: transfer('${Alice}', '${iou}', '${Bob}') },
        { submit: issue('${Fresh}') },
        { submit: { ...issue(), userId: '${admin}' } },
        { submit: keyed },
        { preview: issue('${Bob}') },
      ],
    });
    const checkedCommands = new Map<string, unknown>();
    validateText('script', t, { parties: { ids, source: 'on Demo' }, checkedCommands });
    // A capture, a party allocated per run, a user and a name in a key have their values only in the run.
    assert.deepEqual([...checkedCommands.keys()], ['/steps/0/submit', '/steps/5/preview']);
    assert.deepEqual(checkedCommands.get('/steps/5/preview'), { actAs: ['Bank::1220aa'], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: 'Bank::1220aa', owner: 'Bob::1220cc', currency: 'USD', amount: '100.00', observers: [] } } }] });
    checkedCommands.clear();
    validateText('script', t, { checkedCommands });
    assert.equal(checkedCommands.size, 0, 'without the participant\'s parties, no alias has its value yet');
  });

  it('in two halves (the text while the parties are read, the rest with them) the checks give what one check gives', () => {
    const ids = ['Bank::1220aa', 'Alice::1220bb'];
    const bad = issue('${Bob}');
    (bad.commands[0].CreateCommand as Record<string, unknown>).templateID = IOU;
    const texts = [
      text({ parties: { Bank: {}, Alice: {}, Bob: {} }, steps: [{ submit: bad, expct: {} }, { sbmit: issue() }, { submit: issue(), expect: { visibleTo: ['Carol'] } }] }),
      text({ parties: PARTIES, steps: [{ submit: issue() }] }).replace('"USD"', '"USD",'),
      readFileSync(join(EXAMPLES, EXAMPLE_SCRIPTS[0]), 'utf8'),
    ];
    for (const t of texts) {
      const options = { parties: { ids, source: 'on Demo' } };
      const pending = startValidation('script', t);
      const whole = validateText('script', t, options);
      assert.ok(whole.problems.length > 0 || t === texts[2], 'the cases have problems to compare');
      assert.deepEqual(pending.finish(options), whole);
      assert.deepEqual(pending.finish(options), whole, 'finished again: the same, nothing counted twice');
      assert.deepEqual(pending.finish(), validateText('script', t), 'other options, other result');
    }
  });

  it('the example scripts have no problem', () => {
    for (const name of EXAMPLE_SCRIPTS) assert.deepEqual(validateText('script', readFileSync(join(EXAMPLES, name), 'utf8')).problems, [], name);
  });
});

describe('ledger scripts: a new script', () => {
  it('names the participant\'s parties by alias and starts with a step to fill in that checks clean', () => {
    const text = newScriptText({ partyIds: ['Bank::1220ab', 'Carol::1220ab', 'Alice::1220ab', 'Alice::1220cd', 'weird party::1'], actingParty: 'Carol::1220ab' });
    const value = JSON.parse(text);
    // Alice would match two parties; the acting party's alias comes first.
    assert.deepEqual(Object.keys(value.parties), ['Carol', 'Bank']);
    assert.deepEqual(value.steps[0].submit.actAs, ['${Carol}']);
    assert.deepEqual(validateText('script', text).problems.filter((p) => p.severity === 'error').map((p) => p.code), ['placeholder']);
  });
});

describe('ledger scripts: values and command ids', () => {
  it('a whole-string ${name} keeps its type; inside a longer string it is written as text', () => {
    const scope = new Map<string, unknown>([['offset', 12], ['party', 'Alice::1220']]);
    assert.deepEqual(interpolate({ a: '${offset}', b: 'at ${offset} by ${party}', c: ['${party}'] }, scope), { a: 12, b: 'at 12 by Alice::1220', c: ['Alice::1220'] });
    assert.throws(() => interpolate('${nope}', scope), UnboundNameError);
  });

  it('a ${name} in a key is replaced too by a run; the checks\' known names replace values only', () => {
    const scope = new Map<string, unknown>([['party', 'Alice::1220']]);
    assert.deepEqual(interpolate({ '${party}': { owner: '${party}' }, fixed: 1 }, scope), { 'Alice::1220': { owner: 'Alice::1220' }, fixed: 1 });
    const known = new Map([['party', 'Alice::1220']]);
    assert.deepEqual(replaceKnown({ '${party}': ['${party}', 'by ${party} and ${other}'] }, known), { '${party}': ['Alice::1220', 'by Alice::1220 and ${other}'] });
    const untouched = { a: ['${other}'] };
    assert.equal(replaceKnown(untouched, known), untouched, 'nothing known in it: the same object');
    // What keeps a ${…} is told: a value with an unknown name, and a key (keys keep theirs).
    const kept = (value: unknown) => {
      let n = 0;
      replaceKnown(value, known, () => n++);
      return n;
    };
    assert.deepEqual([kept({ a: '${party}' }), kept({ a: '${other}' }), kept({ '${party}': 'x' }), kept([{ b: { '${party}': '${party}' } }])], [0, 1, 1, 1]);
  });

  it('names are read out of strings as the pattern ${[^}]*} reads them, also in odd strings', () => {
    // The runner scans with indexOf; a seeded random sweep of strings made of the pattern's pieces.
    const REFERENCE = /\$\{([^}]*)\}/g;
    const pieces = ['$', '{', '}', 'a', 'B', ' ', '::', '${', '}}', '${a}'];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const known = new Map([['a', 'A::1'], ['B', 'B::1']]);
    for (let i = 0; i < 20_000; i++) {
      let t = '';
      for (let n = Math.floor(random() * 8); n > 0; n--) t += pieces[Math.floor(random() * pieces.length)];
      const names = [...t.matchAll(REFERENCE)].map((m) => m[1]);
      assert.deepEqual(referencesIn(t, '', () => true).map((r) => r.name), t.includes('${') ? names : [], t);
      const whole = /^\$\{([^}]*)\}$/.exec(t)?.[1];
      assert.equal(aliasOfPartyRef(t), whole ?? (t.includes('::') ? undefined : t), t);
      const replaced = t.includes('${') ? t.replace(REFERENCE, (reference, name: string) => known.get(name) ?? reference) : t;
      assert.equal(replaceKnown(t, known), whole !== undefined ? (known.get(whole) ?? t) : replaced, t);
    }
  });

  it('what holds no ${name} is kept as it is: the same object, and an exact number stays one', () => {
    const scope = new Map<string, unknown>([['party', 'Alice::1220']]);
    const fixed = { amount: new ExactNumber('12345678901234567890.5'), list: ['x'] };
    const value = { fixed, changed: ['${party}'] } as Record<string, unknown>;
    const out = interpolate(value, scope) as Record<string, unknown>;
    assert.equal(out.fixed, fixed, 'not copied');
    assert.ok((out.fixed as typeof fixed).amount instanceof ExactNumber);
    assert.deepEqual(out.changed, ['Alice::1220']);
    assert.equal(interpolate(fixed, scope), fixed);
  });

  it('every step of a run has its own command id, from which the run and step are read back', () => {
    const id = scriptCommandId('ab12cd34', 2);
    assert.equal(id, 'ledger-script-ab12cd34-step-3');
    assert.deepEqual(scriptStepOfCommandId(id), { runId: 'ab12cd34', stepIndex: 2 });
    assert.equal(scriptStepOfCommandId('demo-iou-create-0001'), undefined);
  });

  it('fields match by value: decimals in any scale, records by the fields named', () => {
    assert.ok(fieldsMatch({ amount: '100', owner: 'A' }, { amount: '100.0000000000', owner: 'A', currency: 'USD' }));
    assert.ok(!fieldsMatch({ amount: '100.5' }, { amount: '100.0000000000' }));
    assert.ok(!fieldsMatch({ owner: 'B' }, { owner: 'A' }));
    assert.ok(!fieldsMatch({ missing: 1 }, {}));
  });
});

describe('ledger scripts: runs against the demo participant', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  let c: LedgerConnection;
  before(async () => {
    p = await start();
    c = new LedgerConnection({
      profile: { id: 'scripts', name: 'Demo', url: p.url, auth: 'none', userId: 'demo-admin', source: 'user' },
      client: new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 }),
      packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })),
    });
  });
  after(async () => {
    c.dispose();
    await p.close();
  });
  afterEach(() => (p.faults.submit = undefined));

  const run = (script: unknown, o: Partial<ScriptRunOptions> = {}): Promise<ScriptRun> =>
    runScript(c, typeof script === 'string' ? script : text(script), { readFile: (f) => readFile(join(EXAMPLES, f)), readDar, ...o });
  const statuses = (r: ScriptRun) => r.steps.map((s) => s.status);

  for (const name of EXAMPLE_SCRIPTS) {
    it(`the example ${name} runs green`, async () => {
      const r = await run(readFileSync(join(EXAMPLES, name), 'utf8'));
      assert.equal(r.status, 'passed', JSON.stringify(r.steps.map((s) => s.failures)));
      assert.ok(r.steps.every((s) => s.status === 'passed'));
    });
  }

  it('a broken copy of the lifecycle fails at the right step with the right message, and the rest is not run', async () => {
    const broken = readFileSync(join(EXAMPLES, 'iou-lifecycle.ledger.json'), 'utf8').replace('"notVisibleTo": ["Charlie", "Alice"]', '"notVisibleTo": ["Charlie", "Bank"]');
    const r = await run(broken);
    assert.equal(r.status, 'failed');
    assert.deepEqual(statuses(r), ['passed', 'passed', 'failed', 'not-run', 'not-run']);
    const [f] = r.steps[2].failures;
    assert.equal(f.pointer, '/steps/2/expect/notVisibleTo/1');
    assert.match(f.message, /^Bank sees transaction \S+ \(a privacy leak\)\.$/);
    assert.deepEqual([f.expected, f.actual], ['Bank does not see it', 'Bank sees it']);
    assert.equal(r.steps[3].notRunBecause, 'earlier-step');
  });

  it('captures bind the contract id, a field, the update id and the offset; every submit has the run command id', async () => {
    const r = await run({
      parties: PARTIES,
      steps: [{ submit: issue(), capture: { iou: { contractId: IOU }, owner: { contractId: IOU, field: 'owner' }, tx: 'updateId', at: 'offset' } }],
    }, { runId: 'cafe0001' });
    const [s] = r.steps;
    assert.equal(s.status, 'passed', JSON.stringify(s.failures));
    assert.equal(s.commandId, 'ledger-script-cafe0001-step-1');
    assert.equal(s.transaction!.commandId, s.commandId);
    assert.deepEqual(s.captured, { iou: s.transaction!.events[0].contractId, owner: p.parties.alice, tx: s.transaction!.updateId, at: s.transaction!.offset });
  });

  it('a capture that matches several contracts fails with the step and what it looked for', async () => {
    const split = { actAs: ['${Alice}'], commands: [{ ExerciseCommand: { templateId: IOU, contractId: '${iou}', choice: 'Iou_Split', choiceArgument: { splitAmount: '10' } } }] };
    const r = await run({ parties: PARTIES, steps: [{ submit: issue(), capture: { iou: { contractId: IOU } } }, { name: 'split', submit: split, capture: { half: { contractId: IOU } } }] });
    assert.deepEqual(statuses(r), ['passed', 'failed']);
    const [f] = r.steps[1].failures;
    assert.equal(f.pointer, '/steps/1/capture/half');
    assert.match(f.message, /^Step 2 \(split\): capture "half" looked for one created #demo-iou:Iou:Iou and found 2 \(/);
  });

  it('created and archived: counts and fields pass and fail with expected and actual', async () => {
    const ok = await run({ parties: PARTIES, steps: [{ submit: issue(), expect: { created: [{ template: IOU, count: 1, fields: { owner: '${Alice}', amount: '100' } }], archived: [{ template: IOU, count: 0 }] } }] });
    assert.equal(ok.status, 'passed', JSON.stringify(ok.steps[0].failures));
    const bad = await run({ parties: PARTIES, steps: [{ submit: issue(), expect: { created: [{ template: IOU, count: 2 }, { template: IOU, fields: { amount: '99' } }], archived: [{ template: IOU, count: 1 }] } }] });
    assert.deepEqual(
      bad.steps[0].failures.map((f) => [f.pointer, f.expected]),
      [
        ['/steps/0/expect/created/0', `2 created ${IOU}`],
        ['/steps/0/expect/created/1', `at least 1 created ${IOU} with {"amount":"99"}`],
        ['/steps/0/expect/archived/0', `1 archived ${IOU}`],
      ],
    );
    assert.match(bad.steps[0].failures[0].actual!, /^1 created #demo-iou:Iou:Iou \(1 Iou:Iou\)$/);
    assert.match(bad.steps[0].failures[1].actual!, /^0 with those fields, of 1: .*"amount":"100\.0000000000"/);
  });

  it('visibility: a party that sees the transaction, and one that does not', async () => {
    const ok = await run({ parties: PARTIES, steps: [{ submit: issue('${Alice}', ['${Bob}']), expect: { visibleTo: ['Alice', 'Bob'], notVisibleTo: ['Charlie'] } }] });
    assert.equal(ok.status, 'passed', JSON.stringify(ok.steps[0].failures));
    const bad = await run({ parties: PARTIES, steps: [{ submit: issue(), expect: { visibleTo: ['Charlie'], notVisibleTo: ['Alice'] } }] });
    assert.deepEqual(bad.steps[0].failures.map((f) => f.actual), ['Charlie does not see it', 'Alice sees it']);
  });

  it('the active contracts of a party after a step, and read steps with counts', async () => {
    const alloc = { Fresh: { allocate: true }, Bank: {} };
    const r = await run({
      parties: alloc,
      steps: [
        { submit: issue('${Fresh}'), capture: { iou: { contractId: IOU } }, expect: { activeContracts: [{ party: 'Fresh', template: IOU, count: 1 }] } },
        { activeContracts: { party: 'Fresh', template: IOU }, expect: { count: 1 }, capture: { same: { contractId: IOU } } },
        { contractEvents: { party: 'Fresh', contractId: '${same}' }, expect: { count: 1, archivedContract: false } },
        { updates: { party: 'Fresh' }, expect: { count: 1 } },
      ],
    });
    assert.equal(r.status, 'passed', JSON.stringify(r.steps.map((s) => s.failures)));
    assert.match(r.parties.Fresh, new RegExp(`^Fresh-${r.runId}::`), 'allocated with a hint unique to the run');
    assert.equal(r.steps[1].captured.same, r.steps[0].captured.iou);
    const bad = await run({ parties: alloc, steps: [{ submit: issue('${Fresh}'), expect: { activeContracts: [{ party: 'Fresh', template: IOU, count: 2 }] } }, { updates: { party: 'Fresh' } }] });
    assert.deepEqual(bad.steps[0].failures.map((f) => [f.pointer, f.expected, f.actual]), [['/steps/0/expect/activeContracts/0', '2', '1']]);
    assert.deepEqual(statuses(bad), ['failed', 'not-run']);
  });

  it('an updates step counts the updates since the run began, not those before it', async () => {
    // Bank sees the demo's seeded history and the other tests' transactions: only the run's two count.
    const r = await run({ parties: PARTIES, steps: [{ submit: issue() }, { submit: issue('${Bob}') }, { updates: { party: 'Bank' }, expect: { count: 2 } }] });
    assert.equal(r.status, 'passed', JSON.stringify(r.steps.map((s) => s.failures)));
    assert.match(r.steps[2].summary ?? '', /^2 updates as Bank since offset [1-9]\d*$/);
  });

  it('an expected failure: the code must match, and so must the message pattern; success where failure was expected fails', async () => {
    const wrongParty = (failed: unknown) => ({ parties: PARTIES, steps: [{ submit: issue('${Alice}', ['${Bob}']), capture: { iou: { contractId: IOU } } }, { submit: transfer('${Bob}', '${iou}', '${Bob}'), expect: { failed } }] });
    assert.equal((await run(wrongParty({ code: 'DAML_AUTHORIZATION_ERROR' }))).status, 'passed');
    const otherCode = await run(wrongParty({ code: 'CONTRACT_NOT_FOUND' }));
    assert.equal(otherCode.steps[1].failures[0].message, 'Failed with DAML_AUTHORIZATION_ERROR, not CONTRACT_NOT_FOUND.');
    const otherMessage = await run(wrongParty({ code: 'DAML_AUTHORIZATION_ERROR', message: '^no such words$' }));
    assert.match(otherMessage.steps[1].failures[0].message, /but the message does not match/);
    const succeeded = await run({ parties: PARTIES, steps: [{ submit: issue(), expect: { failed: { code: 'DAML_AUTHORIZATION_ERROR' } } }] });
    assert.match(succeeded.steps[0].failures[0].message, /^Expected to fail with DAML_AUTHORIZATION_ERROR, but it succeeded/);
    const unexpected = await run({ parties: PARTIES, steps: [{ submit: issue('${Alice}', ['${Bob}']), capture: { iou: { contractId: IOU } } }, { submit: transfer('${Bob}', '${iou}', '${Bob}') }] });
    assert.deepEqual([unexpected.steps[1].failures[0].expected, unexpected.steps[1].failures[0].actual], ['succeeded', 'failed: DAML_AUTHORIZATION_ERROR']);
  });

  it('preview, vet and DAR upload steps go through the same paths as the editor', async function () {
    const dar = requireDarBytes(this, DARS.holding);
    const r = await run(
      {
        parties: PARTIES,
        steps: [
          { preview: issue() },
          { vet: 'vet-iou-v2.vetting.json' },
          { uploadDar: 'holding.dar' },
        ],
      },
      { readFile: async (f) => (f === 'holding.dar' ? dar : readFile(join(EXAMPLES, '..', f))) },
    );
    assert.equal(r.status, 'passed', JSON.stringify(r.steps.map((s) => s.failures)));
    assert.deepEqual(r.steps.map((s) => s.summary?.split(':')[0]), ['Prepared (nothing was submitted)', 'Vetting of vet-iou-v2.vetting.json applied', 'Uploaded holding.dar']);
  });

  it('a DAR upload whose answer is lost passes when the look-up after it finds the DAR on the participant, and says so', async function () {
    const dar = requireDarBytes(this, DARS.holding);
    const proxy = await startFaultProxy(p.url);
    const lossy = new LedgerConnection({
      profile: { id: 'scripts-lossy', name: 'Demo', url: proxy.url, auth: 'none', userId: 'demo-admin', source: 'user' },
      client: new LedgerClient({ baseUrl: proxy.url, timeoutMs: 10_000 }),
      packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })),
    });
    try {
      // The participant stores the DAR; its answer never comes back.
      proxy.add({ method: 'POST', path: /^\/v2\/(dars|packages)$/, fault: { kind: 'drop' } });
      const r = await runScript(lossy, text({ parties: PARTIES, steps: [{ uploadDar: 'holding.dar' }] }), { readFile: async () => dar, readDar });
      assert.equal(proxy.fired.drop, 1, 'the answer was lost');
      assert.deepEqual(statuses(r), ['passed'], JSON.stringify(r.steps[0].failures));
      assert.match(r.steps[0].summary!, /^Uploaded holding\.dar: the answer was lost; Its main package [0-9a-f]{64} is on the participant/);
    } finally {
      lossy.dispose();
      await proxy.close();
    }
  });

  it("with the participant's packages: fields of expectations and captures must be the template's, and inline arguments are checked", async () => {
    const state = await c.readPackages();
    assert.equal(state.state, 'ready');
    const packages = state.state === 'ready' ? state.context : undefined;
    const badArgs = issue();
    (badArgs.commands[0].CreateCommand.createArguments as Record<string, unknown>).amount = 'ten';
    const t = text({
      parties: PARTIES,
      steps: [{ submit: badArgs, capture: { who: { contractId: IOU, field: 'ownr' } }, expect: { created: [{ template: IOU, fields: { curency: 'USD' } }] } }],
    });
    const found = errors(validateText('script', t, { packages }).problems);
    assert.deepEqual(
      found.map((p) => [p.path, p.code]),
      [
        ['/steps/0/submit/commands/0/CreateCommand/createArguments/amount', 'bad-numeric'],
        ['/steps/0/capture/who/field', 'unknown-field'],
        ['/steps/0/expect/created/0/fields/curency', 'unknown-field'],
      ],
    );
    assert.match(found.find((p) => p.path.endsWith('curency'))!.message, /^Iou:Iou has no field "curency": did you mean "currency"\?/);
  });

  it('users by alias: an existing user submits as ${alias}; one that does not exist refuses the run at its alias', async () => {
    const asAdmin = { ...issue(), userId: '${Admin}' };
    const ok = await run({ parties: PARTIES, users: { Admin: { id: 'demo-admin' } }, steps: [{ submit: asAdmin }] });
    assert.equal(ok.status, 'passed', JSON.stringify(ok.steps[0].failures));
    const end = await c.client.ledgerEnd();
    const t = text({ parties: PARTIES, users: { Ghost: {} }, steps: [{ submit: { ...issue(), userId: '${Ghost}' } }] });
    const bad = await run(t);
    assert.equal(bad.status, 'refused');
    assert.deepEqual(bad.problems.map((p) => [p.path, p.message, p.line]), [['/users/Ghost', 'No user "Ghost" on Demo.', 9]]);
    assert.equal(await c.client.ledgerEnd(), end, 'nothing written');
  });

  it('a substituted value of the wrong Daml type is refused at its step, with its path; nothing of that step is sent', async () => {
    // An offset is a number: no Party.
    const r = await run({ parties: PARTIES, steps: [{ submit: issue(), capture: { at: 'offset' } }, { submit: issue() }, { submit: issue('${at}') }, { submit: issue() }] });
    assert.deepEqual(statuses(r), ['passed', 'passed', 'failed', 'not-run']);
    const [f] = r.steps[2].failures;
    assert.equal(f.pointer, '/steps/2/submit');
    assert.match(f.message, /^The commands, with every \$\{…\} replaced, has an error, so nothing was sent: \/commands\/0\/CreateCommand\/createArguments\/owner: Expected Party, got the number \d+\.$/);
    const sent = p.state.entries.filter((e) => e.kind === 'transaction' && e.commandId === r.steps[2].commandId);
    assert.equal(sent.length, 0);
  });

  it("a captured value that is a new file's template-id placeholder is refused where it is put in, before sending", async () => {
    const create = issue();
    create.commands[0].CreateCommand.createArguments.currency = TEMPLATE_ID_PLACEHOLDER;
    const r = await run({
      parties: PARTIES,
      steps: [
        { submit: create, capture: { text: { contractId: IOU, field: 'currency' } } },
        { submit: { ...issue(), commands: [{ CreateCommand: { templateId: '${text}', createArguments: {} } }] } },
      ],
    });
    assert.deepEqual(statuses(r), ['passed', 'failed']);
    assert.match(r.steps[1].failures[0].message, /nothing was sent: \/commands\/0\/CreateCommand\/templateId: Replace the placeholder/);
    assert.equal(p.state.entries.filter((e) => e.kind === 'transaction' && e.commandId === r.steps[1].commandId).length, 0);
  });

  it("a step's commands are not checked again when the checks before the run saw them whole (no ${…}, or only aliases of the participant's parties); with a capture, once", async () => {
    const literal = { actAs: [p.parties.bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '1.00', observers: [] } } }] };
    const seen = await run({ parties: PARTIES, steps: [{ submit: literal }, { submit: issue() }, { submit: issue('${Bob}') }] });
    assert.equal(seen.status, 'passed', JSON.stringify(seen.steps.map((s) => s.failures)));
    assert.deepEqual(seen.steps.map((s) => s.commandsCheck), Array(3).fill({ how: 'before-run', damlArguments: 0 }), 'not checked again');
    const captured = await run({ parties: PARTIES, steps: [{ submit: issue(), capture: { iou: { contractId: IOU } } }, { submit: transfer('${Alice}', '${iou}', '${Bob}') }] });
    assert.equal(captured.status, 'passed', JSON.stringify(captured.steps.map((s) => s.failures)));
    assert.deepEqual(captured.steps.map((s) => s.commandsCheck), [{ how: 'before-run', damlArguments: 0 }, { how: 'as-value', damlArguments: 1 }], 'the one with a captured value');
  });

  it('a commands file named by a step is sent as written, with the run\'s command id (a ${…} in it is text); one with an error stops its step before sending', async () => {
    const file = { commandId: 'from-the-file', actAs: [p.parties.bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: '${not a name}', amount: '3.00', observers: [] } } }] };
    const files: Record<string, unknown> = { 'issue.commands.json': file, 'bad.commands.json': { ...file, actAs: ['Bank'] } };
    const readFile = async (f: string) => new TextEncoder().encode(JSON.stringify(files[f]));
    const r = await run({ parties: PARTIES, steps: [{ submit: { file: 'issue.commands.json' } }] }, { readFile, runId: 'f11e0001' });
    assert.equal(r.status, 'passed', JSON.stringify(r.steps.map((s) => s.failures)));
    const [created] = r.steps[0].transaction!.events;
    assert.equal(created.kind === 'created' && (created.createArgument as Record<string, unknown>).currency, '${not a name}');
    assert.equal(r.steps[0].transaction!.commandId, 'ledger-script-f11e0001-step-1');
    assert.deepEqual(r.steps[0].commandsCheck, { how: 'as-text', damlArguments: 1 });
    const end = await c.client.ledgerEnd();
    const bad = await run({ parties: PARTIES, steps: [{ submit: { file: 'bad.commands.json' } }] }, { readFile });
    assert.equal(bad.status, 'failed');
    assert.equal(bad.steps[0].failures[0].pointer, '/steps/0/submit/file');
    assert.match(bad.steps[0].failures[0].message, /^bad\.commands\.json has an error, so nothing was sent: \/actAs\/0: /);
    assert.equal(await c.client.ledgerEnd(), end, 'nothing written');
  });

  it('a name captured again takes the newer value for the steps after it', async () => {
    const r = await run({
      parties: PARTIES,
      steps: [
        { submit: issue(), capture: { iou: { contractId: IOU } } },
        { submit: issue('${Alice}', [], '7.00'), capture: { iou: { contractId: IOU } } },
        { submit: transfer('${Alice}', '${iou}', '${Bob}'), expect: { archived: [{ template: IOU, count: 1 }] } },
      ],
    });
    assert.equal(r.status, 'passed', JSON.stringify(r.steps.map((s) => s.failures)));
    assert.notEqual(r.steps[0].captured.iou, r.steps[1].captured.iou);
    const exercised = r.steps[2].transaction!.events.find((e) => e.kind === 'exercised');
    assert.equal(exercised?.contractId, r.steps[1].captured.iou, "step 2's contract, not step 1's");
  });

  it('after a vet step every command is checked again, as a whole (a package name may stand for another version now)', async () => {
    const literal = { actAs: [p.parties.bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '1.00', observers: [] } } }] };
    const r = await run({ parties: PARTIES, steps: [{ submit: literal }, { vet: 'vet-iou-v2.vetting.json' }, { submit: literal }, { submit: issue() }] }, { readFile: (f) => readFile(join(EXAMPLES, '..', f)) });
    assert.equal(r.status, 'passed', JSON.stringify(r.steps.map((s) => s.failures)));
    assert.deepEqual(
      r.steps.map((s) => s.commandsCheck),
      [{ how: 'before-run', damlArguments: 0 }, undefined, { how: 'as-value', damlArguments: 1 }, { how: 'as-value', damlArguments: 1 }],
      'the two submits after the vet step, each whole',
    );
  });

  it('an alias put where its party id does not fit refuses the run before anything is sent, at its place', async () => {
    const end = await c.client.ledgerEnd();
    const r = await run({ parties: PARTIES, steps: [{ submit: issue() }, { submit: issue('${Alice}', [], '${Alice}') }] });
    assert.equal(r.status, 'refused');
    assert.deepEqual(r.problems.map((x) => [x.path, x.code]), [['/steps/1/submit/commands/0/CreateCommand/createArguments/amount', 'bad-numeric']]);
    assert.match(r.problems[0].message, /Alice::/);
    assert.equal(await c.client.ledgerEnd(), end, 'nothing written');
  });

  it('a template id left as the placeholder refuses the run before anything is sent, in a step without ${…} too', async () => {
    const end = await c.client.ledgerEnd();
    const placeholder = { actAs: [p.parties.bank], commands: [{ CreateCommand: { templateId: TEMPLATE_ID_PLACEHOLDER, createArguments: {} } }] };
    const r = await run({ parties: PARTIES, steps: [{ submit: issue() }, { submit: placeholder }] });
    assert.equal(r.status, 'refused');
    assert.deepEqual(r.problems.map((x) => [x.path, x.code]), [['/steps/1/submit/commands/0/CreateCommand/templateId', 'placeholder']]);
    assert.equal(await c.client.ledgerEnd(), end, 'nothing written');
  });

  it('a Daml value left as its placeholder ("<Text>", which a participant would store as text) refuses the run before anything is sent', async () => {
    const end = await c.client.ledgerEnd();
    const r = await run({ parties: PARTIES, steps: [{ submit: issue() }, { submit: issue('${Alice}', [], '<Numeric 10>') }] });
    assert.equal(r.status, 'refused');
    assert.deepEqual(r.problems.map((x) => [x.path, x.code]), [['/steps/1/submit/commands/0/CreateCommand/createArguments/amount', 'placeholder']]);
    assert.equal(await c.client.ledgerEnd(), end, 'nothing written');
  });

  it('a script with an error is refused before anything is sent', async () => {
    const end = await c.client.ledgerEnd();
    const r = await run({ parties: { ...PARTIES, Nobody: {} }, steps: [{ submit: issue() }, { submit: transfer('${Alice}', '${nope}', '${Bob}') }] });
    assert.equal(r.status, 'refused');
    assert.deepEqual(r.problems.map((x) => x.path), ['/parties/Nobody', '/steps/1/submit/commands/0/ExerciseCommand/contractId']);
    assert.deepEqual(statuses(r), ['not-run', 'not-run']);
    assert.equal(await c.client.ledgerEnd(), end, 'nothing written');
  });

  it('a cancel stops the run: the steps that ran, the one stopped, the ones not run', async () => {
    const cancel = new AbortController();
    const r = await run(
      { parties: PARTIES, steps: [{ submit: issue() }, { submit: issue() }, { submit: issue() }] },
      { signal: cancel.signal, onStepFinished: (s) => s.index === 0 && cancel.abort() },
    );
    assert.equal(r.status, 'interrupted');
    assert.deepEqual(statuses(r), ['passed', 'not-run', 'not-run']);
    assert.deepEqual(r.steps.slice(1).map((s) => s.notRunBecause), ['cancelled', 'cancelled']);
  });

  it('an unknown outcome stops the run with the command id to look up; nothing is re-sent', async () => {
    p.faults.submit = { dropResponse: true, times: 1 };
    const r = await run({ parties: PARTIES, steps: [{ submit: issue() }, { submit: issue() }] }, { runId: 'feed0002' });
    assert.equal(r.status, 'unknown');
    assert.deepEqual(statuses(r), ['unknown', 'not-run']);
    assert.equal(r.steps[0].commandId, 'ledger-script-feed0002-step-1');
    assert.match(r.steps[0].failures[0].message, /The outcome is unknown .* Look up command id "ledger-script-feed0002-step-1".*nothing was re-sent/);
    const sent = p.state.entries.filter((e) => e.kind === 'transaction' && e.commandId === 'ledger-script-feed0002-step-1');
    assert.equal(sent.length, 1, 'executed once (the answer was lost), never sent again');
  });
});
