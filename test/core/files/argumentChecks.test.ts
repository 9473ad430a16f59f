// Daml arguments of commands files checked against real packages (the shared DARs): the problems,
// their positions and codes, and that the same file without packages only gets the note.
import assert from 'node:assert/strict';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import type { ArgumentContext } from '../../../src/core/files/argumentChecks';
import { applyEdits, fixesFor } from '../../../src/core/files/fixes';
import { validateText, type Problem } from '../../../src/core/files/validate';
import { DARS, requireDar } from '../../support/dars';

const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';

function file(commands: unknown[]): string {
  return JSON.stringify({ commandId: 'args-1', actAs: [ALICE], commands }, null, 2);
}

function summary(text: string, problems: Problem[]) {
  return problems.map((p) => ({ code: p.code, severity: p.severity, at: text.slice(p.offset, p.offset + p.length) }));
}

describe('core: validate, Daml arguments against the packages', () => {
  let context: ArgumentContext;
  before(function () {
    context = { packages: new PackageIndex(requireDar(this, DARS.ping).packages), source: 'in the ping DAR' };
  });

  it('accepts a create of Ping with every field right, and its choices with their arguments', () => {
    const text = file([
      { CreateCommand: { templateId: PING, createArguments: { id: 'p-1', initiator: ALICE, responder: ALICE } } },
      { ExerciseCommand: { templateId: PING, contractId: '00ab', choice: 'AbortPing', choiceArgument: { anyone: ALICE } } },
      { ExerciseCommand: { templateId: PING, contractId: '00ab', choice: 'Respond', choiceArgument: {} } },
    ]);
    assert.deepEqual(validateText('commands', text, { packages: context }).problems, []);
  });

  it('reports a misspelt field (with the closest name), a missing one and a wrong kind, each where it is', () => {
    const text = file([{ CreateCommand: { templateId: PING, createArguments: { id: 7, initator: ALICE } } }]);
    const { problems } = validateText('commands', text, { packages: context });
    assert.deepEqual(summary(text, problems), [
      { code: 'missing-field', severity: 'error', at: '"createArguments"' },
      { code: 'missing-field', severity: 'error', at: '"createArguments"' },
      { code: 'wrong-kind', severity: 'error', at: '7' },
      { code: 'unknown-field', severity: 'error', at: '"initator"' },
    ]);
    const unknown = problems.find((p) => p.code === 'unknown-field')!;
    assert.equal(unknown.data?.suggestion, 'initiator');
    // Each names the Daml type.
    assert.match(problems.find((p) => p.code === 'wrong-kind')!.message, /Text/);
    assert.ok(problems.filter((p) => p.code === 'missing-field').some((p) => /Party/.test(p.message)));
  });

  it('reports an unknown template (with the closest one), an unknown package, and an unknown choice with the choices there are', () => {
    const text = file([
      { CreateCommand: { templateId: '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Pong', createArguments: {} } },
      { CreateCommand: { templateId: '#no-such-package:A:B', createArguments: {} } },
      { ExerciseCommand: { templateId: PING, contractId: '00ab', choice: 'Respnd', choiceArgument: {} } },
    ]);
    const { problems } = validateText('commands', text, { packages: context });
    assert.deepEqual(summary(text, problems).map((p) => p.code), ['unknown-template', 'unknown-template', 'unknown-choice']);
    assert.match(problems[1].message, /No package named "no-such-package" is known in the ping DAR/);
    const choice = problems[2];
    assert.equal(choice.data?.suggestion, 'Respond');
    assert.match(choice.message, /its choices: .*AbortPing/);
  });

  it('quick fixes: rename a misspelt field, quote a number written for Text, take the closest choice; the result is clean', () => {
    let text = file([
      { CreateCommand: { templateId: PING, createArguments: { id: 7, initator: ALICE, responder: ALICE } } },
      { ExerciseCommand: { templateId: PING, contractId: '00ab', choice: 'Respnd', choiceArgument: {} } },
    ]);
    for (let round = 0; round < 5; round++) {
      const { problems } = validateText('commands', text, { packages: context });
      if (problems.length === 0) break;
      // The first fix of the missing field is the rename of the misspelt one.
      const fix = problems.map((p) => fixesFor(text, p)[0]).find(Boolean);
      assert.ok(fix, `a fix among ${problems.map((p) => p.code).join(', ')}`);
      text = applyEdits(text, fix.edits);
    }
    assert.deepEqual(validateText('commands', text, { packages: context }).problems, []);
    const value = JSON.parse(text);
    assert.deepEqual(value.commands[0].CreateCommand.createArguments, { id: '7', initiator: ALICE, responder: ALICE });
    assert.equal(value.commands[1].ExerciseCommand.choice, 'Respond');
  });

  it('quick fixes of a farther misspelling: the closest fields by name and by type, from the unknown field and from the missing one', () => {
    // "responderParty" is too far from "responder" for "did you mean", yet holds it, and its value is a Party.
    const text = file([{ CreateCommand: { templateId: PING, createArguments: { id: 'p-1', initiator: ALICE, responderParty: ALICE } } }]);
    const { problems } = validateText('commands', text, { packages: context });
    const unknown = problems.find((p) => p.code === 'unknown-field')!;
    const missing = problems.find((p) => p.code === 'missing-field')!;
    assert.equal(unknown.data?.suggestion, undefined, 'too far for "did you mean"');
    assert.deepEqual(fixesFor(text, unknown).map((f) => [f.title, f.preferred]), [['Rename "responderParty" to "responder"', false], ['Remove "responderParty"', false]]);
    assert.deepEqual(fixesFor(text, missing).map((f) => f.title), ['Rename "responderParty" to "responder"', 'Add "responder"']);
    for (const fix of [fixesFor(text, unknown)[0], fixesFor(text, missing)[0]]) {
      assert.deepEqual(validateText('commands', applyEdits(text, fix.edits), { packages: context }).problems, []);
    }
  });

  it('by type: a value is offered the fields it fits first; "Add missing fields" adds each with a value of its type, flagged until filled', function () {
    const definitions: ArgumentContext = { packages: new PackageIndex(requireDar(this, DARS.definitions).packages), source: 'in the definitions DAR' };
    const TEMPLATE = '#DamlDefinitionsServiceMain:MainApp:AllBuiltinTypesTemplate';
    const text = file([{ CreateCommand: { templateId: TEMPLATE, createArguments: { someParty: ALICE, flag: true } } }]);
    const { problems } = validateText('commands', text, { packages: definitions });
    const unknown = problems.find((p) => p.code === 'unknown-field')!;
    assert.equal(fixesFor(text, unknown)[0].title, 'Rename "flag" to "someBool"', 'the one Bool field first');
    const missing = problems.filter((p) => p.code === 'missing-field');
    assert.ok(missing.length > 2);
    const addAll = fixesFor(text, missing[0]).find((f) => f.title === 'Add missing fields')!;
    const filled = applyEdits(text, addAll.edits);
    const after = validateText('commands', filled, { packages: definitions }).problems;
    assert.deepEqual(after.filter((p) => p.code === 'missing-field'), [], 'every field is there');
    assert.ok(after.some((p) => p.code === 'placeholder'), 'the values to fill in are flagged');
    assert.deepEqual(JSON.parse(filled).commands[0].CreateCommand.createArguments.someParty, ALICE, 'what was written stays');
  });

  it('without packages: the envelope only, and one note that says what was not checked', () => {
    const text = file([{ CreateCommand: { templateId: PING, createArguments: { id: 7 } } }]);
    const offline = validateText('commands', text, { packages: 'unavailable' });
    assert.deepEqual(summary(text, offline.problems), [{ code: 'arguments-unchecked', severity: 'info', at: '"templateId"' }]);
    assert.deepEqual(validateText('commands', text).problems, []);
  });

  it('checks interface choices of a template by the interface id (splice Amulet implements Holding)', function () {
    const amulet = new PackageIndex(requireDar(this, DARS.amulet).packages);
    const ctx = { packages: amulet, source: 'in splice-amulet' };
    const holding = '#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding';
    const choices = amulet.interface(holding)!.choices.map((c) => c.name);
    assert.ok(choices.length > 0);
    const text = file([{ ExerciseCommand: { templateId: holding, contractId: '00ab', choice: 'NoSuchChoice', choiceArgument: {} } }]);
    const { problems } = validateText('commands', text, { packages: ctx });
    assert.deepEqual(problems.map((p) => p.code), ['unknown-choice']);
    for (const c of choices) assert.ok(problems[0].message.includes(c), `${c} listed`);
  });
});

describe('core: validate, Daml values by Canton\'s rules', () => {
  const TEMPLATE = '#DamlDefinitionsServiceMain:MainApp:AllBuiltinTypesTemplate';
  let context: ArgumentContext;
  before(function () {
    context = { packages: new PackageIndex(requireDar(this, DARS.definitions).packages), source: 'in the definitions DAR' };
  });

  const builtins = (fields: Record<string, unknown>) =>
    file([{
      CreateCommand: {
        templateId: TEMPLATE,
        createArguments: {
          someParty: ALICE, someInt: '1', someDecimal: '1.5', someNumeric7: '0.5', someText: '', someBool: true,
          someDate: '2025-01-31', someTime: '2025-01-31T12:00:00Z', relTime: { microseconds: '0' }, ...fields,
        },
      },
    }]);

  it('refuses an empty party and one with a character Canton does not take, naming the rule', () => {
    for (const party of ['', 'Alice@bank']) {
      const text = builtins({ someParty: party });
      const { problems } = validateText('commands', text, { packages: context });
      assert.deepEqual(summary(text, problems), [{ code: 'bad-party', severity: 'error', at: JSON.stringify(party) }]);
      assert.match(problems[0].message, /1 to 255 characters: letters, digits, space and : - _/);
    }
  });

  it('warns about nanoseconds Canton drops, and takes the forms Java\'s ISO parser takes', () => {
    const text = builtins({ someTime: '2025-01-31T12:00:00.123456789Z' });
    const { problems } = validateText('commands', text, { packages: context });
    assert.deepEqual(summary(text, problems), [{ code: 'truncated-timestamp', severity: 'warning', at: '"2025-01-31T12:00:00.123456789Z"' }]);
    assert.match(problems[0].message, /read as "2025-01-31T12:00:00\.123456Z"/);
    for (const time of ['2025-01-31t12:00z', '2025-01-31T12:00:00+01:00:30', '2025-01-31T12:00:00Z[UTC]']) {
      assert.deepEqual(validateText('commands', builtins({ someTime: time }), { packages: context }).problems, [], time);
    }
  });

  it('Numeric as a JSON number: refused where Java prints an exponent, a warning elsewhere; the fixes write the digits as a string', () => {
    const text = builtins({ someDecimal: 12345678, someNumeric7: 0.5 });
    const { problems } = validateText('commands', text, { packages: context });
    assert.deepEqual(summary(text, problems), [
      { code: 'bad-numeric', severity: 'error', at: '12345678' },
      { code: 'numeric-as-number', severity: 'warning', at: '0.5' },
    ]);
    assert.match(problems[0].message, /through a Double/);
    assert.match(problems[1].message, /digits can be lost/);
    let fixed = text;
    for (const problem of problems.reverse()) {
      const [fix] = fixesFor(text, problem);
      assert.ok(fix?.preferred, problem.code);
      fixed = applyEdits(fixed, fix.edits);
    }
    assert.deepEqual(validateText('commands', fixed, { packages: context }).problems, []);
    const args = JSON.parse(fixed).commands[0].CreateCommand.createArguments;
    assert.deepEqual([args.someDecimal, args.someNumeric7], ['12345678', '0.5']);
  });

  it('the fix of a Numeric written with an exponent writes it out in plain digits', () => {
    const text = builtins({ someDecimal: 'X' }).replace('"X"', '1.5e-7');
    const [problem] = validateText('commands', text, { packages: context }).problems;
    assert.equal(problem.code, 'bad-numeric');
    const [fix] = fixesFor(text, problem);
    assert.equal(JSON.parse(applyEdits(text, fix.edits)).commands[0].CreateCommand.createArguments.someDecimal, '0.00000015');
  });
});
