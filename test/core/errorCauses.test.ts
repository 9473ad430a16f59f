import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failureFromError, failureFromStatus, failureHint, type CantonFailure } from '../../src/core/cantonFailure';
import { explainFailure } from '../../src/core/failureExplanation';
import { CODES_WITHOUT_FILE_CAUSE, ERROR_CAUSES, locateCause, undecidedCatalogCodes } from '../../src/core/errorCauses';
import { KNOWN_ERROR_CODES } from '../../src/core/errorCatalog';
import { CantonApiError } from '../../src/core/errors';
import type { JsCantonError } from '../../src/core/models/wire';
import { SPEC_DIR, requireSpec } from '../support/spec';

const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';
const CID = `00${'ab'.repeat(33)}`;
const OTHER_CID = `00${'cd'.repeat(33)}`;

/** A submit request with every part a cause can point at, one per line, so positions are easy to state. */
const FILE = [
  '{',
  '  "commands": {',
  '    "commands": [',
  '      { "CreateCommand": { "templateId": "#demo-iou:Iou:Iou", "createArguments": { "issuer": "Alice::1220aa", "amount": "10.0" } } },',
  `      { "ExerciseCommand": { "templateId": "#demo-iou:Iou:Iou", "contractId": "${CID}", "choice": "Iou_Transfer", "choiceArgument": { "newOwner": "Bob::1220bb" } } },`,
  '      { "ExerciseByKeyCommand": { "templateId": "#demo-iou:Account:Account", "contractKey": { "owner": "Alice::1220aa" }, "choice": "Close", "choiceArgument": {} } }',
  '    ],',
  '    "commandId": "cmd-1",',
  `    "actAs": ["${ALICE}", "${BOB}"],`,
  '    "readAs": ["Carol::1220cc"],',
  '    "deduplicationPeriod": { "DeduplicationDuration": { "value": { "seconds": 30, "nanos": 0 } } },',
  '    "minLedgerTimeAbs": "2030-01-01T00:00:00Z"',
  '  }',
  '}',
].join('\n');

function failure(code: string | undefined, cause = '', extra: Partial<CantonFailure> = {}): CantonFailure {
  return { code, cause, metadata: {}, resources: [], ...extra };
}

/** The line and the text marked there. */
function marked(f: CantonFailure, text = FILE): { line: number; text: string; match: string } {
  const at = locateCause(f, text);
  assert.ok(at, 'a location');
  return { line: at.line, text: text.slice(at.offset, at.offset + at.length), match: at.match };
}

describe('error causes: where in a commands file a rejection points', () => {
  it('every catalogued code is decided: it names a place in a commands file, or is listed as naming none', () => {
    assert.deepEqual(undecidedCatalogCodes(), []);
    for (const code of Object.keys(ERROR_CAUSES)) assert.ok(code in KNOWN_ERROR_CODES, `${code} is in the cause table but not in the catalog`);
    for (const code of CODES_WITHOUT_FILE_CAUSE) assert.ok(!(code in ERROR_CAUSES), `${code} is in both lists`);
  });

  // One expected mark per code of the table, from the failure Canton sends for it.
  const cases: Record<string, { failure: CantonFailure; line: number; text: string; match: string }> = {
    CONTRACT_NOT_FOUND: { failure: failure('CONTRACT_NOT_FOUND', `Contract could not be found with id ${CID}`, { resources: [['CID', CID]] }), line: 5, text: `"${CID}"`, match: 'value' },
    CONTRACT_NOT_ACTIVE: { failure: failure('CONTRACT_NOT_ACTIVE', 'Update failed due to fetch of an inactive contract', { resources: [['TEMPLATE_ID', 'pkg:Iou:Iou'], ['CONTRACT_ID', CID]] }), line: 5, text: `"${CID}"`, match: 'value' },
    WRONGLY_TYPED_CONTRACT: { failure: failure('WRONGLY_TYPED_CONTRACT', `Contract ${CID} was expected to be of another type`), line: 5, text: `"${CID}"`, match: 'value' },
    CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE: { failure: failure('CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE', 'x', { resources: [['CONTRACT_ID', CID]] }), line: 5, text: `"${CID}"`, match: 'value' },
    CONTRACT_KEY_NOT_FOUND: { failure: failure('CONTRACT_KEY_NOT_FOUND', 'couldn\'t find key', { resources: [['TEMPLATE_ID', 'pkg:Account:Account']] }), line: 6, text: '{ "owner": "Alice::1220aa" }', match: 'field' },
    DUPLICATE_CONTRACT_KEY: { failure: failure('DUPLICATE_CONTRACT_KEY', 'duplicate key'), line: 6, text: '{ "owner": "Alice::1220aa" }', match: 'field' },
    INCONSISTENT_CONTRACT_KEY: { failure: failure('INCONSISTENT_CONTRACT_KEY', 'key changed'), line: 6, text: '{ "owner": "Alice::1220aa" }', match: 'field' },
    DAML_AUTHORIZATION_ERROR: { failure: failure('DAML_AUTHORIZATION_ERROR', `Interpretation error: Error: node NodeId(0) requires authorizers Carol::1220cc, but only ${ALICE}, ${BOB} were given`), line: 10, text: '"Carol::1220cc"', match: 'value' },
    NA: { failure: failure('NA', 'A security-sensitive error has been received'), line: 9, text: `["${ALICE}", "${BOB}"]`, match: 'field' },
    NO_SYNCHRONIZER_FOR_SUBMISSION: { failure: failure('NO_SYNCHRONIZER_FOR_SUBMISSION', 'No valid synchronizer', { metadata: { PARTIES: BOB } }), line: 9, text: `"${BOB}"`, match: 'value' },
    TEMPLATES_OR_INTERFACES_NOT_FOUND: { failure: failure('TEMPLATES_OR_INTERFACES_NOT_FOUND', 'Templates do not exist: [#demo-iou:Account:Account]'), line: 6, text: '"#demo-iou:Account:Account"', match: 'value' },
    PACKAGE_NAMES_NOT_FOUND: { failure: failure('PACKAGE_NAMES_NOT_FOUND', 'unknown package names', { resources: [['PACKAGE_NAME', 'demo-iou']] }), line: 4, text: '"#demo-iou:Iou:Iou"', match: 'value' },
    PACKAGE_SELECTION_FAILED: {
      failure: failure('PACKAGE_SELECTION_FAILED', `No synchronizers satisfy the topology requirements for the submitted command: Discarded synchronizers: \n\tglobal::1220: Failed to select package-id for package-name 'demo-iou' appearing in a command root node due to: No package with package-name 'demo-iou' is consistently vetted by all hosting participants of party ${BOB}.`),
      line: 4,
      text: '"#demo-iou:Iou:Iou"',
      match: 'field',
    },
    PACKAGE_NOT_FOUND: { failure: failure('PACKAGE_NOT_FOUND', 'Couldn\'t find package 1220'), line: 4, text: '"#demo-iou:Iou:Iou"', match: 'field' },
    NOT_VALID_UPGRADE_PACKAGE: { failure: failure('NOT_VALID_UPGRADE_PACKAGE', 'not valid', { resources: [['TEMPLATE_ID', 'ab12:Account:Account']] }), line: 6, text: '"#demo-iou:Account:Account"', match: 'value' },
    UNSUPPORTED_BY_DEMO_PARTICIPANT: { failure: failure('UNSUPPORTED_BY_DEMO_PARTICIPANT', 'the choice Close is not simulated'), line: 6, text: '"Close"', match: 'value' },
    DAML_INTERPRETATION_ERROR: { failure: failure('DAML_INTERPRETATION_ERROR', 'Interpretation error: Error: User abort: Iou_Transfer: newOwner must differ'), line: 5, text: '"Iou_Transfer"', match: 'value' },
    INTERPRETATION_USER_ERROR: { failure: failure('INTERPRETATION_USER_ERROR', 'User failure', { resources: [['EXCEPTION_TEXT', 'no']] }), line: 5, text: '"Iou_Transfer"', match: 'field' },
    UNHANDLED_EXCEPTION: { failure: failure('UNHANDLED_EXCEPTION', 'Unhandled Daml exception in choice Close'), line: 6, text: '"Close"', match: 'value' },
    COMMAND_PREPROCESSING_FAILED: { failure: failure('COMMAND_PREPROCESSING_FAILED', 'Missing non-optional field "amount"'), line: 4, text: '"amount"', match: 'value' },
    TEMPLATE_PRECONDITION_VIOLATED: { failure: failure('TEMPLATE_PRECONDITION_VIOLATED', 'Template precondition violated'), line: 4, text: '{ "issuer": "Alice::1220aa", "amount": "10.0" }', match: 'field' },
    DAML_INTERPRETER_INVALID_ARGUMENT: { failure: failure('DAML_INTERPRETER_INVALID_ARGUMENT', 'Unexpected fields: newOwner'), line: 5, text: '"newOwner"', match: 'value' },
    DUPLICATE_COMMAND: { failure: failure('DUPLICATE_COMMAND', 'A command with the given command id has already been successfully processed', { metadata: { completion_offset: '12' } }), line: 8, text: '"cmd-1"', match: 'field' },
    INVALID_DEDUPLICATION_PERIOD: { failure: failure('INVALID_DEDUPLICATION_PERIOD', 'The submitted command had an invalid deduplication period'), line: 11, text: '{ "DeduplicationDuration": { "value": { "seconds": 30, "nanos": 0 } } }', match: 'field' },
    INVALID_FIELD: { failure: failure('INVALID_FIELD', 'The submitted command has a field with invalid value: Invalid field min_ledger_time_abs: too late'), line: 12, text: '"2030-01-01T00:00:00Z"', match: 'value' },
    MISSING_FIELD: { failure: failure('MISSING_FIELD', 'The submitted command is missing a mandatory field: read_as'), line: 10, text: '["Carol::1220cc"]', match: 'value' },
    INVALID_ARGUMENT: { failure: failure('INVALID_ARGUMENT', 'The submitted request has invalid arguments: Invalid field deduplication_period: negative'), line: 11, text: '{ "DeduplicationDuration": { "value": { "seconds": 30, "nanos": 0 } } }', match: 'value' },
  };

  it('has an expected mark for every code of the table', () => {
    assert.deepEqual(Object.keys(cases).sort(), Object.keys(ERROR_CAUSES).sort());
  });

  for (const [code, c] of Object.entries(cases)) {
    it(`${code}: marks ${c.match === 'value' ? 'the value named' : 'the field'} on line ${c.line}`, () => {
      assert.deepEqual(marked(c.failure), { line: c.line, text: c.text, match: c.match });
    });
  }

  it('a missing authorizer the file does not name: the actAs list is marked, not a party that was given', () => {
    const f = failure('DAML_AUTHORIZATION_ERROR', `Interpretation error: Error: node NodeId(0) requires authorizers Dave::1220dd, but only ${ALICE} were given`);
    assert.deepEqual(marked(f), { line: 9, text: `["${ALICE}", "${BOB}"]`, match: 'field' });
  });

  it('a file changed since: the contract id is no longer in it, so the contractId field is marked', () => {
    assert.deepEqual(marked(failure('CONTRACT_NOT_FOUND', `not found ${OTHER_CID}`, { resources: [['CONTRACT_ID', OTHER_CID]] })), { line: 5, text: `"${CID}"`, match: 'field' });
  });

  it('a file without the field the code names: the command id is marked', () => {
    const bare = '{\n  "commands": [{ "CreateCommand": { "templateId": "#a:B:C", "createArguments": {} } }],\n  "commandId": "x",\n  "actAs": ["A::1"]\n}';
    assert.deepEqual(marked(failure('CONTRACT_NOT_FOUND', 'nope'), bare), { line: 3, text: '"x"', match: 'command' });
  });

  it('an unknown code: the command id is marked, and the hint says the code is not catalogued (no crash)', () => {
    const f = failure('SOMETHING_NEW_IN_3_7', 'a cause');
    assert.deepEqual(marked(f), { line: 8, text: '"cmd-1"', match: 'command' });
    assert.match(failureHint(f), /SOMETHING_NEW_IN_3_7 is not in this extension's catalog/);
  });

  it('text that is not a JSON object: nothing to mark', () => {
    assert.equal(locateCause(failure('CONTRACT_NOT_FOUND'), '[1,2]'), undefined);
    assert.equal(locateCause(failure('CONTRACT_NOT_FOUND'), ''), undefined);
  });

  it("Canton's real CONTRACT_NOT_FOUND body (cn-quickstart LocalNet): the contract id of its ErrorResource(CID) is marked", function () {
    requireSpec(this);
    const body = JSON.parse(readFileSync(join(SPEC_DIR, 'examples/errors/err-02-contract-not-found-cn-quickstart.json'), 'utf8')) as JsCantonError;
    const cid = body.resources![0][1];
    const text = `{\n  "commands": [\n    { "ExerciseCommand": { "templateId": "#q:License:License", "contractId": "${cid}", "choice": "Renew", "choiceArgument": {} } }\n  ],\n  "commandId": "license-1",\n  "actAs": ["p::1"]\n}`;
    const f = failureFromError(new CantonApiError(404, body));
    assert.deepEqual(marked(f, text), { line: 3, text: `"${cid}"`, match: 'value' });
  });

  it("Canton's real INVALID_ARGUMENT body (Canton docs): names no request field of a commands file, so the command id is marked", function () {
    requireSpec(this);
    const body = JSON.parse(readFileSync(join(SPEC_DIR, 'examples/errors/err-01-invalid-argument-canton-docs.json'), 'utf8')) as JsCantonError;
    assert.deepEqual(marked(failureFromError(new CantonApiError(400, body))), { line: 8, text: '"cmd-1"', match: 'command' });
  });
});

describe('a completion status as a failure', () => {
  // The bytes and the decoded form of Canton's GrpcStatusEncoderSpec (digital-asset/canton,
  // community/ledger/ledger-json-api, "encode Status with all error details").
  const ERROR_INFO_BYTES = 'CgpTT01FX0VSUk9SGggKAmNrEgJjdhoYCg9kZWZpbml0ZV9hbnN3ZXISBWZhbHNlGg4KCGNhdGVnb3J5EgIxMg==';
  const RESOURCE_INFO_BYTES = 'Cg5ERVZfRVJST1JfVFlQRRINc29tZS9yZXNvdXJjZQ==';
  const REQUEST_INFO_BYTES = 'CgZjb3JySWQ=';
  const expected: CantonFailure = {
    code: 'SOME_ERROR',
    category: 12,
    grpcCode: 11,
    cause: 'This is a sample error',
    correlationId: 'corrId',
    metadata: { ck: 'cv', definite_answer: 'false', category: '12' },
    resources: [['DEV_ERROR_TYPE', 'some/resource']],
  };

  it('reads the decoded details the JSON API sends (valueDecoded)', () => {
    const status = {
      code: 11,
      message: 'SOME_ERROR(12,corrId): This is a sample error',
      details: [
        { typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo', value: ERROR_INFO_BYTES, valueDecoded: { reason: 'SOME_ERROR', domain: '', metadata: { ck: 'cv', definite_answer: 'false', category: '12' } } },
        { typeUrl: 'type.googleapis.com/google.rpc.RetryInfo', value: 'CgIIAQ==', valueDecoded: { retryDelay: { seconds: 1, nanos: 0 } } },
        { typeUrl: 'type.googleapis.com/google.rpc.RequestInfo', value: REQUEST_INFO_BYTES, valueDecoded: { requestId: 'corrId', servingData: '' } },
        { typeUrl: 'type.googleapis.com/google.rpc.ResourceInfo', value: RESOURCE_INFO_BYTES, valueDecoded: { resourceType: 'DEV_ERROR_TYPE', resourceName: 'some/resource', owner: '', description: '' } },
      ],
    };
    assert.deepEqual(failureFromStatus(status), expected);
  });

  it('reads the protobuf bytes when a release sends no valueDecoded', () => {
    const status = {
      code: 11,
      message: 'SOME_ERROR(12,corrId): This is a sample error',
      details: [
        { typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo', value: ERROR_INFO_BYTES },
        { typeUrl: 'type.googleapis.com/google.rpc.RequestInfo', value: REQUEST_INFO_BYTES },
        { typeUrl: 'type.googleapis.com/google.rpc.ResourceInfo', value: RESOURCE_INFO_BYTES },
      ],
    };
    assert.deepEqual(failureFromStatus(status), expected);
  });

  it('a status without details: the code and category from the message; a success is no failure; garbage is shown raw', () => {
    assert.deepEqual(failureFromStatus({ code: 5, message: 'CONTRACT_NOT_FOUND(11,abc): gone' }), { code: 'CONTRACT_NOT_FOUND', category: 11, grpcCode: 5, cause: 'gone', correlationId: 'abc', metadata: {}, resources: [] });
    assert.equal(failureFromStatus({ code: 0, message: '' }), undefined);
    assert.equal(failureFromStatus(undefined), undefined);
    const odd = failureFromStatus({ code: 13, message: 'something broke', details: [{ typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo', value: '%%%' }, 7, null] });
    assert.deepEqual(odd, { code: undefined, category: undefined, grpcCode: 13, cause: 'something broke', correlationId: undefined, metadata: {}, resources: [] });
  });
});

describe('the explanation of a failed command', () => {
  it('says what the code means, what to do, where the cause is and what the participant sent', () => {
    const f = failure('CONTRACT_NOT_FOUND', `Contract could not be found with id ${CID}`, { category: 11, grpcCode: 5, resources: [['CID', CID]], metadata: { definite_answer: 'false', participant: "'p1'" } });
    const text = explainFailure(f, { commandId: 'cmd-1', submissionId: 'sub-1', userId: 'alice', actAs: [ALICE], offset: 42, causeAt: { place: 'iou.commands.json:5:80', what: `contract id ${CID}`, match: 'value' } });
    assert.match(text, /^# CONTRACT_NOT_FOUND — command cmd-1$/m);
    assert.match(text, /Category: InvalidGivenCurrentSystemStateResourceMissing \(11\), gRPC status 5\. Something the command uses does not exist/);
    assert.ok(text.includes(KNOWN_ERROR_CODES.CONTRACT_NOT_FOUND.hint), 'the catalog hint');
    assert.ok(text.includes(`iou.commands.json:5:80: the contract id ${CID} the error names.`));
    assert.match(text, /\| Act as \| Alice::1220aa \|/);
    assert.match(text, /\| Offset \| 42 \|/);
    assert.ok(text.includes(`| CID (resource) | ${CID} |`));
    assert.match(text, /\| definite_answer \| false \|/);
  });

  it('an unknown code and no category: shown raw, with its category said to be unknown', () => {
    const text = explainFailure(failure('SOMETHING_NEW', 'odd | thing'));
    assert.match(text, /^# SOMETHING_NEW$/m);
    assert.match(text, /\*\*odd \\\| thing\*\*/);
    assert.match(text, /Category: unknown category\./);
    assert.match(text, /SOMETHING_NEW is not in this extension's catalog/);
    assert.doesNotMatch(text, /## Where/);
  });
});
