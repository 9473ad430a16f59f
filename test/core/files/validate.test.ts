import assert from 'node:assert/strict';
import { fileKindOf, validateText, type FileKind, type Problem } from '../../../src/core/files/validate';

const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const PACKAGE_ID = 'd7ae2f7e656d31bc3522c3cba720cea474575c3ac67250c3aeb080ba602f0353';
const CONTRACT_ID = '003dcb6c7e23ef4de336838ac96953d9a552c197e7cf27507e249a9e2bfb330490ca1012';

const create = (templateId = '#model-tests:Iou:Iou') => ({ CreateCommand: { templateId, createArguments: { owner: ALICE } } });
const jsCommands = (extra: Record<string, unknown> = {}) => ({ commandId: 'c-1', actAs: [ALICE], commands: [create()], ...extra });
const vetting = (extra: Record<string, unknown> = {}) => ({
  changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'model-tests' }] } } } }],
  ...extra,
});

function problemsOf(kind: FileKind, textOrValue: string | object): Problem[] {
  const text = typeof textOrValue === 'string' ? textOrValue : JSON.stringify(textOrValue, null, 2);
  return validateText(kind, text).problems;
}

/** The text a problem's range covers. */
function covered(text: string, problem: Problem): string {
  return text.slice(problem.offset, problem.offset + problem.length);
}

function only(problems: Problem[]): Problem {
  assert.equal(problems.length, 1, `expected exactly one problem, got ${JSON.stringify(problems, null, 2)}`);
  return problems[0];
}

describe('schema: fileKindOf', () => {
  it('recognises the two file kinds by suffix, with or without a directory', () => {
    assert.equal(fileKindOf('transfer.commands.json'), 'commands');
    assert.equal(fileKindOf('/home/me/ledger/vet-v2.vetting.json'), 'vetting');
    assert.equal(fileKindOf('C:\\work\\Create.Commands.JSON'), 'commands');
  });

  it('ignores other files, including ones that only look similar', () => {
    for (const name of ['package.json', 'commands.json', 'x.commands.jsonc', 'x.vetting.json.bak', 'x.commands.expected.json']) {
      assert.equal(fileKindOf(name), undefined, name);
    }
  });
});

describe('schema: validateText', () => {
  describe('JSON syntax', () => {
    it('reports a trailing comma at the comma, with 1-based positions', () => {
      const text = '{\n  "commandId": "x",\n}';
      const result = validateText('commands', text);
      const problem = only(result.problems);
      assert.equal(result.value, undefined);
      assert.deepEqual(
        { code: problem.code, severity: problem.severity, line: problem.line, column: problem.column, endLine: problem.endLine, endColumn: problem.endColumn },
        { code: 'json-syntax', severity: 'error', line: 2, column: 19, endLine: 2, endColumn: 20 },
      );
      assert.equal(covered(text, problem), ',');
      assert.match(problem.message, /Trailing comma/);
    });

    it('rejects comments, since Canton reads strict JSON', () => {
      const text = '{\n  /* why */ "changes": [] // not allowed\n}';
      const problems = problemsOf('vetting', text);
      assert.deepEqual(
        problems.map((p) => [p.code, covered(text, p)]),
        [
          ['json-syntax', '/* why */'],
          ['json-syntax', '// not allowed'],
        ],
      );
    });

    it('points at the last character, not past the end, when the input ends early', () => {
      const text = '{"changes": [\n';
      const problem = problemsOf('vetting', text)[0];
      assert.equal(problem.code, 'json-syntax');
      assert.equal(problem.length, 1);
      assert.equal(covered(text, problem), '[');
    });

    it('reports an empty file', () => {
      const problem = only(problemsOf('commands', '  \n'));
      assert.equal(problem.code, 'json-syntax');
      assert.match(problem.message, /empty/);
    });

    it('counts lines correctly with CRLF line endings', () => {
      const text = '{\r\n  "changes": [],\r\n  "dryRun": "no"\r\n}';
      const problems = problemsOf('vetting', text);
      const dryRun = problems.find((p) => p.path === '/dryRun');
      assert.ok(dryRun);
      assert.deepEqual([dryRun.line, dryRun.column], [3, 13]);
      assert.equal(covered(text, dryRun), '"no"');
    });
  });

  describe('schema errors', () => {
    it('returns the parsed value even when it violates the schema', () => {
      const value = jsCommands({ commandId: '' });
      assert.deepEqual(validateText('commands', JSON.stringify(value)).value, value);
    });

    it('points a type error at the value', () => {
      const text = JSON.stringify(jsCommands({ deduplicationPeriod: { DeduplicationOffset: { value: '17' } } }), null, 2);
      const problem = only(problemsOf('commands', text));
      assert.equal(problem.code, 'schema');
      assert.equal(problem.path, '/deduplicationPeriod/DeduplicationOffset/value');
      assert.equal(covered(text, problem), '"17"');
      assert.match(problem.message, /JSON numbers/);
    });

    it('points a missing field at the key of the object that lacks it', () => {
      const text = JSON.stringify(jsCommands({ commands: [{ ExerciseCommand: { templateId: '#m:M:T', choice: 'Archive' } }] }), null, 2);
      const problem = only(problemsOf('commands', text));
      assert.equal(problem.code, 'missing-field');
      assert.equal(covered(text, problem), '"ExerciseCommand"');
      assert.deepEqual(problem.data, { properties: ['contractId', 'choiceArgument'] });
    });

    it('points a missing field of an array element at its opening brace', () => {
      const text = JSON.stringify(vetting({ changes: [{}] }), null, 2);
      const problem = only(problemsOf('vetting', text));
      assert.equal(problem.path, '/changes/0');
      assert.equal(covered(text, problem), '{');
    });

    it('uses the schema\'s own message for formats (patternErrorMessage)', () => {
      const problem = only(problemsOf('commands', jsCommands({ minLedgerTimeAbs: '2025-01-27 15:30' })));
      assert.match(problem.message, /ending in Z/);
    });

    it('explains an enum\'s _UNSPECIFIED value', () => {
      const problem = only(problemsOf('vetting', vetting({ updateVettedPackagesForceFlags: ['UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED'] })));
      assert.equal(problem.path, '/updateVettedPackagesForceFlags/0');
      assert.match(problem.message, /unset/);
    });

    it('points an invalid map key (a party in filtersByParty) at the key', () => {
      const text = JSON.stringify(
        {
          commands: jsCommands(),
          transactionFormat: { eventFormat: { filtersByParty: { alice: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
        },
        null,
        2,
      );
      const problem = only(problemsOf('commands', text));
      assert.equal(covered(text, problem), '"alice"');
      assert.equal(problem.path, '/transactionFormat/eventFormat/filtersByParty/alice');
    });

    it('reports "at least one of" once instead of one error per alternative', () => {
      const problem = only(problemsOf('vetting', vetting({ changes: [{ operation: { Unvet: { value: { packages: [{ packageVersion: '1.0.0' }] } } } }] })));
      assert.equal(problem.code, 'missing-field');
      assert.deepEqual(problem.data, { oneOf: ['packageId', 'packageName'] });
    });

    it('reports minLedgerTimeAbs together with minLedgerTimeRel at the second one', () => {
      const text = JSON.stringify(jsCommands({ minLedgerTimeAbs: '2025-01-27T15:30:00Z', minLedgerTimeRel: { seconds: 5, nanos: 0 } }), null, 2);
      const problem = only(problemsOf('commands', text));
      assert.equal(problem.code, 'conflicting-fields');
      assert.equal(covered(text, problem), '"minLedgerTimeRel"');
    });

    it('treats a full request (commands is an object) differently from bare JsCommands', () => {
      assert.deepEqual(problemsOf('commands', { commands: jsCommands() }), []);
      const problem = only(problemsOf('commands', { commands: jsCommands(), transactionFormat: { eventFormat: { verbose: true } } }).filter((p) => p.path === '/transactionFormat'));
      assert.deepEqual(problem.data, { properties: ['transactionShape'] });
    });
  });

  describe('variants', () => {
    it('gives one message for an empty command, naming every kind', () => {
      const problem = only(problemsOf('commands', jsCommands({ commands: [{}] })));
      assert.equal(problem.path, '/commands/0');
      assert.equal(problem.message, 'Expected one of CreateCommand, ExerciseCommand, CreateAndExerciseCommand, ExerciseByKeyCommand.');
    });

    it('points at the whole value when a variant is not even an object', () => {
      const text = JSON.stringify(jsCommands({ commands: ['CreateCommand'] }));
      const problem = only(problemsOf('commands', text));
      assert.equal(covered(text, problem), '"CreateCommand"');
      assert.match(problem.message, /^Expected one of CreateCommand/);
    });

    it('suggests the closest case for a misspelt one', () => {
      const text = JSON.stringify(jsCommands({ commands: [{ ExerciseComand: {} }] }), null, 2);
      const problem = only(problemsOf('commands', text));
      assert.equal(problem.code, 'unknown-variant');
      assert.equal(covered(text, problem), '"ExerciseComand"');
      assert.equal(problem.data?.suggestion, 'ExerciseCommand');
    });

    it('rejects the Empty case with its own explanation', () => {
      const problem = only(problemsOf('vetting', vetting({ expectedTopologySerial: { serial: { Empty: {} } } })));
      assert.equal(problem.code, 'unknown-variant');
      assert.match(problem.message, /"Empty" is the API's "unset" case.*Prior, NoPrior/);
    });

    it('spots a command wrapped in "value" (commands have no wrapper)', () => {
      const problem = only(problemsOf('commands', jsCommands({ commands: [{ value: create() }] })));
      assert.match(problem.message, /No "value" wrapper here: write \{"CreateCommand": …\} directly/);
    });

    it('reports fields written without their case key once, at the object', () => {
      const problem = only(problemsOf('commands', jsCommands({ commands: [create().CreateCommand] })));
      assert.equal(problem.path, '/commands/0');
      assert.match(problem.message, /wrap the fields in the case key/);
    });

    it('reports two cases in one object', () => {
      const problem = only(problemsOf('vetting', vetting({ expectedTopologySerial: { serial: { Prior: { value: 2 }, NoPrior: {} } } })));
      assert.equal(problem.path, '/expectedTopologySerial/serial/NoPrior');
      assert.match(problem.message, /Only one of Prior, NoPrior/);
    });
  });

  describe('checks beyond the schema', () => {
    it('missing-command-id: for a missing and for an empty commandId', () => {
      const { commandId: _omitted, ...withoutId } = jsCommands();
      const missing = only(problemsOf('commands', withoutId));
      assert.deepEqual([missing.code, missing.severity, missing.path], ['missing-command-id', 'error', '']);
      const empty = only(problemsOf('commands', jsCommands({ commandId: '' })));
      assert.deepEqual([empty.code, empty.path], ['missing-command-id', '/commandId']);
    });

    it('empty-act-as and empty-changes', () => {
      assert.equal(only(problemsOf('commands', jsCommands({ actAs: [] }))).code, 'empty-act-as');
      assert.equal(only(problemsOf('vetting', { changes: [] })).code, 'empty-changes');
      assert.equal(only(problemsOf('vetting', { dryRun: true })).code, 'empty-changes');
    });

    it('deprecated-field: old names that Canton 3 silently drops, once each', () => {
      const text = JSON.stringify(jsCommands({ applicationId: 'app' }), null, 2);
      const problem = only(problemsOf('commands', text));
      assert.deepEqual([problem.code, problem.severity, covered(text, problem)], ['deprecated-field', 'warning', '"applicationId"']);
      assert.deepEqual(problem.data, { field: 'applicationId', suggestion: 'userId' });

      const domain = only(problemsOf('vetting', vetting({ domainId: 'da::1220ab' })));
      assert.deepEqual(domain.data, { field: 'domainId', suggestion: 'synchronizerId' });
    });

    it('unknown-field: suggests a known name for case slips and typos, and nothing for unrelated names', () => {
      const suggestions = (extra: Record<string, unknown>) =>
        problemsOf('commands', jsCommands(extra)).map((p) => [p.code, p.severity, p.data?.field, p.data?.suggestion]);
      assert.deepEqual(suggestions({ workflowID: 'w' }), [['unknown-field', 'warning', 'workflowID', 'workflowId']]);
      assert.deepEqual(suggestions({ sumbissionId: 's' }), [['unknown-field', 'warning', 'sumbissionId', 'submissionId']]);
      assert.deepEqual(suggestions({ priority: 'high' }), [['unknown-field', 'warning', 'priority', undefined]]);
    });

    it('unknown-field: does not suggest a field that is already set', () => {
      const problem = only(problemsOf('commands', jsCommands({ CommandId: 'again' })));
      assert.equal(problem.data?.suggestion, undefined);
    });

    it('leaves Daml payloads alone: their fields are the template\'s business', () => {
      assert.deepEqual(
        problemsOf('commands', jsCommands({ commands: [{ CreateCommand: { templateId: '#m:M:T', createArguments: { applicationId: 1, anyField: { nested: [] } } } }] })),
        [],
      );
    });

    it('package-id-template: a warning in commands, an error in transaction filters', () => {
      const packageIdForm = `${PACKAGE_ID}:Iou:Iou`;
      const text = JSON.stringify(
        {
          commands: jsCommands({
            commands: [create(packageIdForm)],
            // Disclosed contracts carry the package-id form on purpose: not reported.
            disclosedContracts: [{ createdEventBlob: 'CgM=', templateId: packageIdForm, contractId: CONTRACT_ID }],
          }),
          transactionFormat: {
            eventFormat: {
              filtersForAnyParty: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: `${PACKAGE_ID}:Iou:IIou` } } } }] },
            },
            transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
          },
        },
        null,
        2,
      );
      const problems = problemsOf('commands', text);
      assert.deepEqual(
        problems.map((p) => [p.code, p.severity, p.path]),
        [
          ['package-id-template', 'warning', '/commands/commands/0/CreateCommand/templateId'],
          ['package-id-template', 'error', '/transactionFormat/eventFormat/filtersForAnyParty/cumulative/0/identifierFilter/InterfaceFilter/value/interfaceId'],
        ],
      );
      assert.equal(covered(text, problems[0]), JSON.stringify(packageIdForm));
      assert.deepEqual(problems[0].data, { packageId: PACKAGE_ID, qualifiedName: 'Iou:Iou' });
    });

    it('package-id-template: not reported on top of a schema error for the same id', () => {
      const problem = only(problemsOf('commands', jsCommands({ commands: [create(`${PACKAGE_ID}:Iou:Iou:Extra`)] })));
      assert.equal(problem.code, 'schema');
    });

    it('duplicate-key: in our fields and inside payloads', () => {
      const text = `{"commandId": "a", "actAs": ["${ALICE}"], "commandId": "b",
        "commands": [{"CreateCommand": {"templateId": "#m:M:T", "createArguments": {"x": 1, "x": 2}}}]}`;
      const problems = problemsOf('commands', text);
      assert.deepEqual(
        problems.map((p) => [p.code, p.path, p.line]),
        [
          ['duplicate-key', '/commandId', 1],
          ['duplicate-key', '/commands/0/CreateCommand/createArguments/x', 2],
        ],
      );
    });
  });

  it('never reports the same problem twice', () => {
    const text = JSON.stringify({
      comandId: 'x',
      applicationId: 'a',
      actAs: [],
      commands: [{}, { CreateComand: {} }, { CreateCommand: { templateId: 'bad' } }],
      deduplicationPeriod: { Empty: {} },
    });
    const problems = problemsOf('commands', text);
    const keys = problems.map((p) => `${p.offset}:${p.length}:${p.code}:${p.message}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.ok(problems.length >= 7, JSON.stringify(problems, null, 2));
  });

  // How fast is measured by `npm run bench` (a ratio against a baseline), not by a timed test.
  it('validates a 100 KB commands file of many commands without a problem', () => {
    const command = (i: number) => ({
      CreateCommand: { templateId: '#model-tests:Iou:Iou', createArguments: { issuer: ALICE, owner: ALICE, amount: `${i}.00`, observers: [] } },
    });
    const build = (count: number) => JSON.stringify(jsCommands({ commands: Array.from({ length: count }, (_, i) => command(i)) }), null, 2);
    const text = build(Math.ceil(100_000 / (build(2).length - build(1).length)));
    assert.ok(text.length >= 100_000, `only ${text.length} characters`);
    assert.deepEqual(validateText('commands', text).problems, []);
  });
});
