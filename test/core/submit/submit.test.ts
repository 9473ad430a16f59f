// Core of sending files: the transaction format chosen for a submission, the outcome texts, finding a
// transaction by commandId (against the demo participant), the history list and the vetting helpers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { applyEdits } from 'jsonc-parser';
import { LedgerClient } from '../../../src/core/api/client';
import { CancelledError, CantonApiError, RequestValidationError } from '../../../src/core/errors';
import { decodeTransaction } from '../../../src/core/models/updates';
import { diffVettedPackages, type VettedPackagesState } from '../../../src/core/models/vetting';
import type * as wire from '../../../src/core/models/wire';
import { HISTORY_LIMIT, KEPT_RESULT_CHARS, outcomeLabel, recordSubmission, type SubmissionRecord } from '../../../src/core/submit/history';
import {
  duplicateLookupRange,
  emptyTransactionExplanation,
  findTransactionByCommandId,
  isDuplicateCommand,
  touchedContracts,
  transactionSummary,
} from '../../../src/core/submit/outcome';
import { commandsOf, leavesOutEffects, lookUpSubmission, prepareRequestOf, submissionOf, submit, submittingParties, type SubmissionOutcome } from '../../../src/core/submit/submission';
import {
  ALLOW_UNVETTED_DEPENDENCIES_FLAG,
  diffLines,
  diffSummary,
  expectedSerialValue,
  namePackages,
  setJsonValueEdits,
  unvettedPackageIds,
  vettingDiffMarkdown,
  vettingFailureOf,
  vettingRequestOf,
  withForceFlag,
} from '../../../src/core/submit/vetting';
import { type DemoParticipant } from '../../../src/participant';
import { deadUrl } from '../../support/deadPort';
import { startCheckedParticipant } from '../../support/specCheck';

const IOU = '#demo-iou:Iou:Iou';
const WILDCARD = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };

function jsCommands(actAs: string[], readAs: string[] = []): wire.JsCommands {
  return { commands: [], commandId: 'c-1', actAs, readAs };
}

function cantonError(code: string, context: Record<string, string> = {}): CantonApiError {
  return new CantonApiError(409, { code, cause: 'x', errorCategory: 9, context, resources: [] } as unknown as wire.JsCantonError);
}

describe('submit: the request built from a commands file', () => {
  const create = { CreateCommand: { templateId: IOU, createArguments: {} } };
  const withCommand = (c: wire.JsCommands): wire.JsCommands => ({ ...c, commands: [create] });

  it('defaults to the ledger-effects tree (the exercise and its consequences), a verbose wildcard for actAs and readAs (each once)', () => {
    const { request, formatSource } = submissionOf(withCommand(jsCommands(['Alice::1', 'Bob::1'], ['Bob::1', 'Carol::1'])));
    assert.equal(formatSource, 'default');
    assert.equal(leavesOutEffects(request.transactionFormat), false);
    assert.deepEqual(request.transactionFormat, {
      transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      eventFormat: { verbose: true, filtersByParty: { 'Alice::1': WILDCARD, 'Bob::1': WILDCARD, 'Carol::1': WILDCARD } },
    });
    assert.deepEqual(submittingParties(request.commands), ['Alice::1', 'Bob::1', 'Carol::1']);
  });

  it('gives the same parties one default format, which no caller can change for the next submission', () => {
    const first = submissionOf(withCommand(jsCommands(['Alice::1']))).request.transactionFormat!;
    const again = submissionOf(withCommand(jsCommands(['Alice::1']))).request.transactionFormat!;
    const other = submissionOf(withCommand(jsCommands(['Bob::1']))).request.transactionFormat!;
    assert.equal(again, first);
    assert.deepEqual(Object.keys(other.eventFormat!.filtersByParty!), ['Bob::1']);
    assert.throws(() => {
      (first.eventFormat!.filtersByParty as Record<string, unknown>)['Mallory::1'] = WILDCARD;
    }, TypeError);
    assert.deepEqual(Object.keys(again.eventFormat!.filtersByParty!), ['Alice::1']);
  });

  it("keeps the file's own transactionFormat, and says when it leaves the exercise out", () => {
    const own: wire.TransactionFormat = { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: { filtersByParty: { 'Alice::1': {} }, verbose: false } };
    const file = { commands: withCommand(jsCommands(['Alice::1'])), transactionFormat: own };
    const { request, formatSource } = submissionOf(file);
    assert.equal(formatSource, 'file');
    assert.equal(request, file, 'the full request is sent as the file has it');
    assert.equal(leavesOutEffects(request.transactionFormat), true);
  });

  it('wraps a bare JsCommands without changing it', () => {
    const bare = withCommand(jsCommands(['Alice::1']));
    assert.equal(submissionOf(bare).request.commands, bare);
    assert.equal(commandsOf({ commands: bare }), bare);
  });

  it('refuses, naming the field, a file without a command, a commandId or an actAs party (submit and prepare alike)', () => {
    const field = (name: string) => (e: unknown) => e instanceof RequestValidationError && e.field === name;
    for (const build of [submissionOf, prepareRequestOf]) {
      assert.throws(() => build(jsCommands(['Alice::1'])), field('commands'));
      assert.throws(() => build({ commands: { ...withCommand(jsCommands(['Alice::1'])), commandId: '' } }), field('commandId'));
      assert.throws(() => build(withCommand(jsCommands([]))), field('actAs'));
    }
  });

  it('prepares the same commands without the submission-only fields, from either form of the file', () => {
    const c: wire.JsCommands = {
      ...withCommand(jsCommands(['Alice::1'], ['Bob::1'])),
      workflowId: 'wf',
      submissionId: 's',
      deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 1, nanos: 0 } } },
      minLedgerTimeRel: { seconds: 5, nanos: 0 },
      userId: 'u',
    } as wire.JsCommands;
    const expected = { commands: [create], commandId: 'c-1', actAs: ['Alice::1'], readAs: ['Bob::1'], userId: 'u', minLedgerTime: { time: { MinLedgerTimeRel: { value: { seconds: 5, nanos: 0 } } } } };
    assert.deepEqual(prepareRequestOf(c), expected);
    assert.deepEqual(prepareRequestOf({ commands: c, transactionFormat: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: { verbose: true } } }), expected);
    assert.deepEqual(Object.keys(prepareRequestOf(withCommand(jsCommands(['Alice::1'])))), ['commands', 'commandId', 'actAs'], 'empty readAs and unset fields are left out');
  });
});

describe('submit: outcome texts and data', () => {
  const raw = (events: wire.Event[]): wire.JsTransaction =>
    ({ updateId: 'upd-1', commandId: 'c-1', workflowId: '', effectiveAt: '2026-01-01T00:00:00Z', recordTime: '2026-01-01T00:00:00Z', offset: 42, synchronizerId: 's::1', events }) as wire.JsTransaction;
  const created = (contractId: string) => ({ CreatedEvent: { offset: 42, nodeId: 0, contractId, templateId: 'pkg:Iou:Iou', createArgument: {}, witnessParties: [], signatories: [], observers: [], createdAt: '2026-01-01T00:00:00Z', packageName: 'demo-iou' } });
  const archived = (contractId: string) => ({ ArchivedEvent: { offset: 42, nodeId: 1, contractId, templateId: 'pkg:Iou:Iou', witnessParties: [], packageName: 'demo-iou' } });

  it('summarises "Transaction <updateId> at offset N: 2 created, 1 archived"', () => {
    const t = decodeTransaction(raw([created('c1'), archived('c0'), created('c2')] as unknown as wire.Event[]));
    assert.equal(transactionSummary(t), 'Transaction upd-1 at offset 42: 2 created, 1 archived');
    const long = decodeTransaction({ ...raw([created('c1')] as unknown as wire.Event[]), updateId: `1220${'ab'.repeat(32)}` });
    assert.equal(transactionSummary(long, true), 'Transaction 1220ababab…abab at offset 42: 1 created', 'the 68-character id shortened for a message (the result document has it in full)');
    assert.match(transactionSummary(long), /^Transaction 1220(ab){32} at offset 42/);
    assert.deepEqual(touchedContracts(t).map((c) => [c.contractId, c.kinds.join()]), [['c1', 'created'], ['c0', 'archived'], ['c2', 'created']]);
  });

  it('explains an empty transaction instead of calling it a failure', () => {
    const t = decodeTransaction(raw([]));
    assert.match(transactionSummary(t), /: no events$/);
    assert.match(emptyTransactionExplanation(t), /^The command succeeded \(transaction upd-1 at offset 42\)/);
    assert.match(emptyTransactionExplanation(t), /LEDGER_EFFECTS/);
  });

  it('reads the completion offset of a DUPLICATE_COMMAND, or searches the whole ledger', () => {
    const dup = cantonError('DUPLICATE_COMMAND', { completion_offset: '17', existing_submission_id: 's' });
    assert.ok(isDuplicateCommand(dup));
    assert.ok(!isDuplicateCommand(cantonError('CONTRACT_NOT_FOUND')));
    assert.deepEqual(duplicateLookupRange(dup), { fromOffset: 16, toOffset: 17 });
    assert.deepEqual(duplicateLookupRange(cantonError('DUPLICATE_COMMAND')), { fromOffset: 0 });
  });
});

function iouRequest(p: DemoParticipant, commandId: string): wire.JsSubmitAndWaitForTransactionRequest {
  return submissionOf({
    commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '1.0', observers: [] } } }],
    commandId,
    actAs: [p.parties.bank],
    userId: 'demo-admin',
  }).request;
}

describe('submit: findTransactionByCommandId against the demo participant', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 11 });
    client = new LedgerClient({ baseUrl: p.url, pageSize: 2 });
  });
  after(() => p.close());

  const submitIou = (commandId: string) => client.submitAndWaitForTransaction(iouRequest(p, commandId));

  it('finds the transaction after the given offset, over several pages', async () => {
    const from = await client.ledgerEnd();
    await submitIou(randomUUID());
    const wanted = randomUUID();
    const { transaction } = await submitIou(wanted);
    await submitIou(randomUUID());
    const found = await findTransactionByCommandId(client, { commandId: wanted, parties: [p.parties.bank], fromOffset: from });
    assert.equal(found.transaction?.updateId, transaction.updateId);
    assert.equal(found.transaction?.commandId, wanted);
    assert.equal(found.fromOffset, from);
    assert.equal(found.toOffset, await client.ledgerEnd());
  });

  it('does not find it before the offset, nor for parties that did not submit it (commandId is theirs only)', async () => {
    const wanted = randomUUID();
    await submitIou(wanted);
    const end = await client.ledgerEnd();
    assert.equal((await findTransactionByCommandId(client, { commandId: wanted, parties: [p.parties.bank], fromOffset: end })).transaction, undefined);
    const asOwner = await findTransactionByCommandId(client, { commandId: wanted, parties: [p.parties.alice], fromOffset: end - 1 });
    assert.equal(asOwner.transaction, undefined);
  });

  it('finds a dropped-response submission (executed, answer lost) and reports an unsent one as absent', async () => {
    const from = await client.ledgerEnd();
    const dropped = randomUUID();
    p.faults.submit = { dropResponse: true, times: 1 };
    await assert.rejects(submitIou(dropped));
    const found = await findTransactionByCommandId(client, { commandId: dropped, parties: [p.parties.bank], fromOffset: from });
    assert.equal(found.transaction?.commandId, dropped);
    const never = await findTransactionByCommandId(client, { commandId: randomUUID(), parties: [p.parties.bank], fromOffset: from });
    assert.equal(never.transaction, undefined);
    assert.ok(never.toOffset > never.fromOffset);
  });
});

describe('submit: the outcome of a submission, against the demo participant', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 12 });
    client = new LedgerClient({ baseUrl: p.url, pageSize: 2 });
  });
  after(() => p.close());
  afterEach(() => (p.faults.submit = undefined));

  function is<K extends SubmissionOutcome['kind']>(o: SubmissionOutcome, kind: K): asserts o is Extract<SubmissionOutcome, { kind: K }> {
    assert.equal(o.kind, kind, `expected ${kind}, got ${o.kind}${'error' in o ? `: ${String(o.error)}` : ''}`);
  }

  it('succeeded: the transaction in the ledger-effects shape, where the ledger was before, and the offset the write reached', async () => {
    const end = await client.ledgerEnd();
    const o = await submit(client, iouRequest(p, randomUUID()));
    is(o, 'succeeded');
    assert.equal(o.lookUpFrom, end);
    assert.deepEqual(o.write, { offset: o.transaction.offset });
    assert.equal(o.transaction.offset, p.state.ledgerEnd);
    assert.equal(o.response.transaction.updateId, o.transaction.updateId);
  });

  it('failed: the Canton error, nothing executed, and the ledger end for the write path', async () => {
    const request = submissionOf({ commands: [{ ExerciseCommand: { templateId: IOU, contractId: '00' + 'e'.repeat(136), choice: 'Archive', choiceArgument: {} } }], commandId: randomUUID(), actAs: [p.parties.bank] }).request;
    const end = p.state.ledgerEnd;
    const o = await submit(client, request);
    is(o, 'failed');
    assert.ok(o.error instanceof CantonApiError && o.error.code === 'CONTRACT_NOT_FOUND', String(o.error));
    assert.deepEqual(o.write, {});
    assert.equal(p.state.ledgerEnd, end);
  });

  it('unknown: the answer lost after executing; the pinned retry (same request, same look-up start) answers "already executed" with that transaction', async () => {
    const request = iouRequest(p, randomUUID());
    const end = await client.ledgerEnd();
    p.faults.submit = { dropResponse: true, times: 1 };
    const lost = await submit(client, request);
    is(lost, 'unknown');
    assert.equal(lost.retry.request, request, 'the exact same request, so that deduplication applies');
    assert.equal(lost.retry.lookUpFrom, end);
    const looked = await lookUpSubmission(client, lost.retry.request, { fromOffset: lost.retry.lookUpFrom });
    assert.ok(looked.transaction, 'it executed once');

    const retried = await submit(client, lost.retry.request, { retryOf: lost.retry, ledgerEnd: () => assert.fail('a retry does not read the ledger end again') });
    is(retried, 'already-executed');
    assert.equal(retried.transaction?.updateId, looked.transaction.updateId);
    assert.equal(retried.completionOffset, looked.transaction.offset, 'the completion offset Canton names');
    assert.deepEqual(retried.lookUp, { fromOffset: looked.transaction.offset - 1, toOffset: looked.transaction.offset });
  });

  it('already executed without a completion offset: searched after a retried attempt, else over the whole ledger', async () => {
    const request = iouRequest(p, randomUUID());
    const first = await submit(client, request);
    is(first, 'succeeded');
    // A participant that names no completion offset: the client answers DUPLICATE_COMMAND bare.
    const bare = Object.assign(Object.create(client) as LedgerClient, {
      submitAndWaitForTransaction: async () => {
        throw cantonError('DUPLICATE_COMMAND');
      },
    });
    const anywhere = await submit(bare, request);
    is(anywhere, 'already-executed');
    assert.equal(anywhere.completionOffset, undefined);
    assert.equal(anywhere.lookUp.fromOffset, 0);
    assert.equal(anywhere.transaction?.updateId, first.transaction.updateId);

    const afterRetry = await submit(bare, request, { retryOf: { lookUpFrom: first.transaction.offset } });
    is(afterRetry, 'already-executed');
    assert.equal(afterRetry.lookUp.fromOffset, first.transaction.offset, 'searched only after the first attempt');
    assert.equal(afterRetry.transaction, undefined, 'not there: it executed before that attempt');
    assert.equal(afterRetry.lookUpError, undefined);
  });

  it('cancelled before sending: not sent, nothing executed, no write', async () => {
    const end = p.state.ledgerEnd;
    const early = new AbortController();
    early.abort();
    const o = await submit(client, iouRequest(p, randomUUID()), { signal: early.signal });
    is(o, 'not-sent');
    assert.ok(o.error instanceof CancelledError && !o.error.requestSent);
    assert.ok(!('write' in o));

    const between = new AbortController();
    const cut = await submit(client, iouRequest(p, randomUUID()), {
      signal: between.signal,
      ledgerEnd: async () => {
        between.abort();
        return end;
      },
    });
    is(cut, 'not-sent');
    assert.equal(p.state.ledgerEnd, end);
  });

  it('cancelled after sending: unknown, with the retry', async () => {
    const end = p.state.ledgerEnd;
    const request = iouRequest(p, randomUUID());
    p.faults.submit = { delayMs: 10_000, times: 1 };
    const controller = new AbortController();
    const running = submit(client, request, { signal: controller.signal });
    while (p.state.ledgerEnd === end) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const o = await running;
    is(o, 'unknown');
    assert.ok(o.error instanceof CancelledError && o.error.requestSent);
    assert.equal(o.retry.request, request);
  });

  it('the ledger end unreadable: not sent', async () => {
    const down = new LedgerClient({ baseUrl: await deadUrl(), timeoutMs: 2_000 });
    const o = await submit(down, iouRequest(p, randomUUID()));
    is(o, 'not-sent');
  });
});

describe('submit: history', () => {
  const rec = (id: string, extra: Partial<SubmissionRecord> = {}): SubmissionRecord => ({
    id, fileUri: 'file:///a.commands.json', fileName: 'a.commands.json', time: '2026-01-01T00:00:00Z', connectionId: 'demo', connectionName: 'Demo',
    commandId: 'c', outcome: 'succeeded', attempts: 1, request: { commands: jsCommands(['A::1']) }, ...extra,
  });

  it('keeps the newest first, replaces a record by id, and is bounded', () => {
    let h: SubmissionRecord[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) h = recordSubmission(h, rec(`r${i}`));
    assert.equal(h.length, HISTORY_LIMIT);
    assert.equal(h[0].id, `r${HISTORY_LIMIT + 4}`);
    h = recordSubmission(h, rec('r10', { outcome: 'unknown' }));
    assert.equal(h[0].id, 'r10');
    assert.equal(h.filter((r) => r.id === 'r10').length, 1);
  });

  it('does not keep very large results', () => {
    const big = { events: ['x'.repeat(KEPT_RESULT_CHARS)] } as unknown as wire.JsTransaction;
    assert.equal(recordSubmission([], rec('big', { transaction: big }))[0].transaction, undefined);
  });

  it('labels each outcome', () => {
    assert.deepEqual(
      [rec('a'), rec('b', { outcome: 'failed', errorCode: 'CONTRACT_NOT_FOUND' }), rec('c', { outcome: 'unknown' }), rec('d', { outcome: 'duplicate' })].map(outcomeLabel),
      ['succeeded', 'failed (CONTRACT_NOT_FOUND)', 'outcome unknown', 'already executed'],
    );
  });
});

describe('vetting helpers', () => {
  it('the request of a vetting file: the command chooses dry run or apply; an apply is pinned to the checked serial unless the file pins one', () => {
    const file: wire.UpdateVettedPackagesRequest = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou' }] } } } }], dryRun: true };
    assert.deepEqual(vettingRequestOf(file, 'dry-run'), { ...file, dryRun: true });
    assert.deepEqual(vettingRequestOf(file, 'apply', 4), { ...file, dryRun: false, expectedTopologySerial: { serial: { Prior: { value: 4 } } } }, "the file's dryRun is not read");
    assert.deepEqual(vettingRequestOf({ ...file, dryRun: undefined }, 'apply', 0).expectedTopologySerial, { serial: { NoPrior: {} } });
    const pinned = { ...file, expectedTopologySerial: expectedSerialValue(2) };
    assert.deepEqual(vettingRequestOf(pinned, 'apply', 4).expectedTopologySerial, expectedSerialValue(2), "the file's pin is kept");
    assert.equal(vettingRequestOf(file, 'dry-run', 4).expectedTopologySerial, undefined, 'a dry run is not pinned');
  });

  const state = (serial: number, packages: VettedPackagesState['packages']): VettedPackagesState => ({ participantId: 'P::1', synchronizerId: 'S::1', topologySerial: serial, packages });
  const iou1 = { packageId: 'a'.repeat(64), packageName: 'demo-iou', packageVersion: '1.0.0' };
  const iou2 = { packageId: 'b'.repeat(64), packageName: 'demo-iou', packageVersion: '2.0.0' };
  const asset = { packageId: 'c'.repeat(64), packageName: 'demo-asset', packageVersion: '1.0.0' };

  it('classifies the failures that have a fix, with the missing dependencies', () => {
    assert.deepEqual(vettingFailureOf(cantonError('TOPOLOGY_DEPENDENCIES_NOT_VETTED', { unvetted: 'Set(abc, def)' })), { kind: 'dependencies-not-vetted', packageIds: ['abc', 'def'] });
    assert.deepEqual(vettingFailureOf(cantonError('PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER')), { kind: 'cannot-autodetect-synchronizer' });
    assert.deepEqual(vettingFailureOf(cantonError('TOPOLOGY_SERIAL_MISMATCH')), { kind: 'serial-mismatch' });
    assert.equal(vettingFailureOf(cantonError('INVALID_ARGUMENT')), undefined);
    assert.equal(vettingFailureOf(new Error('x')), undefined);
    assert.deepEqual(unvettedPackageIds({ unvetted: 'Set()' }), []);
    assert.deepEqual(unvettedPackageIds({ unvetted: 'abc' }), ['abc']);
  });

  it('names package ids it knows and keeps the others', () => {
    assert.deepEqual(namePackages([iou1.packageId, 'f00'], [iou1]), [`demo-iou 1.0.0 (${'a'.repeat(12)}…)`, 'f00']);
  });

  it('writes the diff as Markdown tables with serials, and one line per change for the confirmation', () => {
    const past = state(3, [iou1, asset]);
    const next = state(4, [{ ...iou1, validFromInclusive: '2030-01-01T00:00:00Z' }, iou2]);
    const diff = diffVettedPackages(past, next);
    const md = vettingDiffMarkdown({ past, next, diff, dryRun: true, raw: {} as wire.UpdateVettedPackagesResponse }, 'x.vetting.json');
    assert.equal(diffSummary(diff), '1 added, 1 removed, 1 validity changed');
    assert.match(md, /^# Dry run of x\.vetting\.json: nothing was changed$/m);
    assert.match(md, /^- \*\*Topology serial:\*\* 3 → 4$/m);
    assert.match(md, new RegExp(`^## Added\\n\\n\\| Package \\| Version \\| Package id \\| Valid \\|\\n.*\\n\\| demo-iou \\| 2\\.0\\.0 \\| \`${iou2.packageId}\` \\| always \\|$`, 'm'));
    assert.match(md, /^## Removed\n\n.*\n.*\n\| demo-asset \| 1\.0\.0 \|/m);
    assert.match(md, /^\| demo-iou \| 1\.0\.0 \| `a+` \| always \| from 2030-01-01T00:00:00Z \|$/m);
    assert.deepEqual(diffLines(diff).map((l) => l[0]), ['+', '−', '~']);
    assert.equal(diffSummary(diffVettedPackages(past, past)), 'no change');
  });

  it('edits the file in place: synchronizerId, serial, force flag; keeping the indentation', () => {
    const text = '{\n    "changes": [],\n    "dryRun": false\n}\n';
    const withSync = applyEdits(text, setJsonValueEdits(text, ['synchronizerId'], 'S::2'));
    assert.deepEqual(JSON.parse(withSync), { changes: [], dryRun: false, synchronizerId: 'S::2' });
    assert.match(withSync, /\n {4}"synchronizerId": "S::2"/);
    const withSerial = applyEdits(withSync, setJsonValueEdits(withSync, ['expectedTopologySerial'], expectedSerialValue(5)));
    assert.deepEqual(JSON.parse(withSerial).expectedTopologySerial, { serial: { Prior: { value: 5 } } });
    const replaced = applyEdits(withSerial, setJsonValueEdits(withSerial, ['expectedTopologySerial'], expectedSerialValue(0)));
    assert.deepEqual(JSON.parse(replaced).expectedTopologySerial, { serial: { NoPrior: {} } });
    assert.deepEqual(withForceFlag(undefined), [ALLOW_UNVETTED_DEPENDENCIES_FLAG]);
    assert.deepEqual(withForceFlag(['OTHER', ALLOW_UNVETTED_DEPENDENCIES_FLAG]), ['OTHER', ALLOW_UNVETTED_DEPENDENCIES_FLAG]);
  });
});
