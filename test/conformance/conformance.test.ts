// Conformance with the official specs (read from ../shared/canton-api, never copied here):
// every request our client sends, and every response the demo participant returns, is checked
// against the operation's schemas in the spec.
//
// - Requests: against every spec version that has the operation (3.3, 3.4.11, 3.4.12, 3.5,
//   main-3.6), because the client must work with participants of all of them.
// - Responses: against the spec of the release the participant imitates (each of 3.3, 3.4.11,
//   3.4.12, 3.5 and 3.6), with the checks every integration test gets (../support/specCheck.ts).
//   `null` values are removed first: the spec cannot say "nullable" but the real server writes
//   null for absent optional fields, and so does the demo participant.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LedgerClient } from '../../src/core/api/client';
import { legacySelection } from '../../src/core/api/updatesRequest';
import type * as wire from '../../src/core/models/wire';
import { DemoParticipant, startDemoParticipant } from '../../src/participant';
import { requireSpec, SpecVersion, specAvailable } from '../support/spec';
import { exchangeViolations, findOperation, type RecordedExchange, requestErrors as specRequestErrors, responseErrors, SPEC_OF_API_VERSION, toRecorded } from '../support/specCheck';
import { endpointFor, type Endpoint, type OperationName } from '../../src/core/versions';

type Exchange = RecordedExchange;

/**
 * Requests that knowingly differ from a spec, each with its reason. Nothing else is excused.
 * - 3.4.12 marks `updateFormat` required on GetUpdatesRequest, yet its server still accepts the
 *   deprecated `filter`/`verbose` form, which the client sends only when asked.
 */
const KNOWN_REQUEST_DEVIATIONS: Array<{ version: SpecVersion; applies: (x: Exchange) => boolean }> = [
  { version: '3.4.12', applies: (x) => /^\/v2\/updates(\/flats)?$/.test(x.path) && (x.requestBody as { filter?: unknown })?.filter !== undefined },
];

/** The request's violations of a spec, minus the known deviations; undefined where the spec lacks the operation. */
function requestErrors(version: SpecVersion, x: Exchange): string[] | undefined {
  if (KNOWN_REQUEST_DEVIATIONS.some((d) => d.version === version && d.applies(x))) return findOperation(version, x.method, x.path) ? [] : undefined;
  return specRequestErrors(version, x);
}

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';

/** Drives every client operation, including error paths, and returns what went over the wire. */
async function scenario(p: DemoParticipant): Promise<void> {
  const c = new LedgerClient({ baseUrl: p.url, pageSize: 7 });
  const { alice, bob, bank } = p.parties;
  const caps = await c.capabilities();
  const cmds = (actAs: string, ...commands: wire.Command[]): wire.JsCommands => ({ commands, commandId: randomUUID(), actAs: [actAs], userId: 'demo-admin' });

  await Promise.all([c.ledgerEnd(), c.prunedOffsets(), c.connectedSynchronizers(), c.parties(), c.participantId(), c.userRights('demo-admin'), c.packages()]);
  const end = await c.ledgerEnd();
  const everything = { filter: { anyParty: true, includeReassignments: true, includeTopologyEvents: true, shape: 'ledger-effects' as const, verbose: true } };
  await c.listUpdates({ beginExclusive: 0, endInclusive: end }, everything);
  await c.listUpdates({ beginExclusive: 0, endInclusive: end }, { filter: { parties: [alice, bob], templateIds: [IOU], interfaceIds: [], includeCreatedEventBlob: true } }, { limit: 10 });
  await c.listUpdates({ beginExclusive: 0, endInclusive: end }, legacySelection({ parties: [alice] }));
  if (caps.descendingOrder) await c.listUpdates({ beginExclusive: 0, endInclusive: end, descending: true }, { filter: { anyParty: true } }, { limit: 5 });
  for await (const _ of c.walkUpdates({ selection: { filter: { anyParty: true } }, pageSize: 7 })) void _;
  await c.listUpdates({ beginExclusive: end }, { filter: { parties: [alice] } }, { idleTimeoutMs: 50 });

  const created = await c.submitAndWaitForTransaction({
    commands: cmds(bank, { CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '10.0', observers: [bob] } } }),
  });
  const cid = created.transaction.events[0].contractId;
  await c.submitAndWaitForTransaction({
    commands: cmds(alice, { ExerciseCommand: { templateId: IOU, contractId: cid, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }),
    transactionFormat: { eventFormat: { filtersByParty: { [alice]: { cumulative: [] } }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
  });
  await c.submitAndWaitForTransaction({ commands: cmds(bank, { CreateAndExerciseCommand: { templateId: IOU, createArguments: { issuer: bank, owner: bank, currency: 'EUR', amount: '3.0', observers: [] }, choice: 'Archive', choiceArgument: {} } }) });
  const assetId = randomUUID();
  await c.submitAndWaitForTransaction({ commands: { ...cmds(alice, { CreateCommand: { templateId: ASSET, createArguments: { owner: alice, id: assetId, description: 'x' } } }), workflowId: 'wf-1', deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 60, nanos: 0 } } } } });
  await c.submitAndWaitForTransaction({ commands: cmds(alice, { ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: alice, _2: assetId }, choice: 'Asset_Rename', choiceArgument: { newDescription: 'y' } } }) });
  const dup = cmds(alice, { CreateCommand: { templateId: IOU, createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } });
  await c.submitAndWaitForTransaction({ commands: dup });
  await c.submitAndWaitForTransaction({ commands: dup }).catch(() => undefined); // 409 DUPLICATE_COMMAND
  await c.submitAndWaitForTransaction({ commands: cmds(alice, { ExerciseCommand: { templateId: IOU, contractId: '00' + 'a'.repeat(136), choice: 'Archive', choiceArgument: {} } }) }).catch(() => undefined); // 404

  await c.eventsByContractId(cid, { filter: { anyParty: true } });
  await c.eventsByContractId(cid, { filter: { parties: [bob] } });
  await c.eventsByContractId('00' + 'b'.repeat(136), { filter: { anyParty: true } }).catch(() => undefined); // 404
  await c.listUpdates({ beginExclusive: 0, endInclusive: end + 50 }, { filter: { anyParty: true } }).catch(() => undefined); // 400

  if (caps.has('updateVettedPackages')) {
    const [state] = await c.listVettedPackages();
    await c.listVettedPackages({ packageMetadataFilter: { packageNamePrefixes: ['demo'] }, pageSize: 1 });
    const vet = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }], newValidFromInclusive: '2026-01-01T00:00:00Z' } } } }] };
    await c.updateVettedPackages({ ...vet, dryRun: true });
    await c.updateVettedPackages({ ...vet, expectedTopologySerial: { serial: { Prior: { value: state.topologySerial } } } });
    await c.updateVettedPackages({ ...vet, expectedTopologySerial: { serial: { Prior: { value: state.topologySerial } } } }).catch(() => undefined); // stale serial
    await c.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'demo-iou' }] } } } }], updateVettedPackagesForceFlags: ['UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES'], dryRun: true });
  }
}

/** What the scenario calls, by operation: each must have gone to the endpoint the version table names. */
const SCENARIO_OPERATIONS: OperationName[] = [
  'version', 'ledgerEnd', 'prunedOffsets', 'connectedSynchronizers', 'parties', 'participantId', 'userRights', 'packages',
  'submitAndWaitForTransaction', 'eventsByContractId', 'listUpdates', 'updatesPage', 'listVettedPackages', 'updateVettedPackages',
];

describe('conformance with the official JSON Ledger API specs', function () {
  this.timeout(60_000);

  for (const mode of ['3.3', '3.4.11', '3.4', '3.5', '3.6'] as const) {
    const specVersion = SPEC_OF_API_VERSION[mode];
    describe(`against the demo participant in ${mode} mode`, () => {
      const exchanges: Exchange[] = [];
      let p: DemoParticipant | undefined;
      before(async function () {
        if (!specAvailable(specVersion)) return;
        p = await startDemoParticipant({ port: 0, seed: 11, apiVersion: mode, onExchange: (x) => exchanges.push(toRecorded(x)) });
        await scenario(p);
      });
      after(() => p?.close());

      it('covers every operation the client uses on this version, on the endpoint the version table names, including error answers', async function () {
        requireSpec(this, specVersion);
        const release = (await new LedgerClient({ baseUrl: p!.url }).version()).version;
        const expected = SCENARIO_OPERATIONS.flatMap((op) => endpointFor(op, release) ?? []);
        assert.ok(expected.length >= 11, `${expected.length}`);
        const matches = (e: Endpoint) => (x: Exchange) => x.method === e.method && new RegExp(`^${e.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(x.path);
        assert.deepEqual(expected.filter((e) => !exchanges.some(matches(e))).map((e) => `${e.method} ${e.path}`), []);
        for (const status of [200, 400, 404, 409]) assert.ok(exchanges.some((x) => x.status === status), `an exchange with status ${status}`);
        assert.deepEqual(exchanges.flatMap((x) => exchangeViolations(specVersion, x).map((v) => `${x.method} ${x.path}: ${v}`)), []);
      });

      it(`every response is valid for the ${specVersion} spec`, function () {
        requireSpec(this, specVersion);
        const failures = exchanges.flatMap((x) => responseErrors(specVersion, x).map((e) => `${x.method} ${x.path} ${x.status}: ${e}`));
        assert.deepEqual(failures, []);
      });

      for (const version of ['3.3', '3.4.11', '3.4.12', '3.5', 'main-3.6'] as const) {
        it(`every request is valid for the ${version} spec where it has the operation`, function () {
          requireSpec(this, version);
          let checked = 0;
          const failures = exchanges.flatMap((x) => {
            const errs = requestErrors(version, x);
            if (errs) checked++;
            return (errs ?? []).map((e) => `${x.method} ${x.path}: ${e}\n    body: ${JSON.stringify(x.requestBody).slice(0, 300)}`);
          });
          assert.ok(checked > 10, `only ${checked} requests had an operation in ${version}`);
          assert.deepEqual(failures, []);
        });
      }
    });
  }

  it('the checks catch a broken response and a broken request', function () {
    requireSpec(this, '3.5');
    const bad: Exchange = { method: 'GET', path: '/v2/state/ledger-end', status: 200, contentType: 'application/json', responseText: '{"offset":"12"}' };
    assert.notDeepEqual(responseErrors('3.5', bad), []);
    const badEvents: Exchange = { method: 'POST', path: '/v2/events/events-by-contract-id', requestBody: { contractId: 5 }, status: 200, contentType: 'application/json', responseText: '{}' };
    assert.notDeepEqual(requestErrors('3.5', badEvents), []);
    const badUpdate: Exchange = { method: 'POST', path: '/v2/updates/flats', status: 200, contentType: 'application/json', responseText: '[{"update":{"Transaction":{"updateId":"x"}}}]' };
    assert.notDeepEqual(responseErrors('3.5', badUpdate), [], 'a Transaction without its value wrapper');
    // The layer every integration test runs through: a spec-invalid request must be refused, a path
    // of another release must get the plain 404, and 3.3's own shapes are 3.3's.
    const accepted = exchangeViolations('3.5', { ...badEvents, responseText: '{"created":null,"archived":null}' });
    assert.match(accepted.join('\n'), /accepted a request the spec rejects/);
    assert.deepEqual(exchangeViolations('3.5', { ...badEvents, status: 400, contentType: 'text/plain', responseText: 'Invalid value for: body' }), []);
    const vetting = { method: 'POST', path: '/v2/package-vetting/update', requestBody: { changes: [] }, status: 200, contentType: 'application/json', responseText: '{}' };
    assert.match(exchangeViolations('3.3', vetting).join('\n'), /not in the 3.3 spec, yet answered 200/);
    assert.deepEqual(exchangeViolations('3.3', { ...vetting, status: 404, contentType: 'text/plain; charset=UTF-8', responseText: 'The requested resource could not be found.' }), []);
    assert.deepEqual(exchangeViolations('3.3', { method: 'GET', path: '/livez', status: 200, contentType: '', responseText: '' }), [], 'served before it was documented');
    const wrapped = '[{"update":{"TopologyTransaction":{"value":{"updateId":"u","offset":1,"synchronizerId":"s","recordTime":"2026-01-01T00:00:00Z","events":[{"event":{"ParticipantAuthorizationAdded":{"value":{"partyId":"p","participantId":"q","participantPermission":1}}}}]}}}}]';
    const list = { method: 'POST', path: '/v2/updates', requestBody: { beginExclusive: 0, verbose: false }, status: 200, contentType: 'application/json', responseText: wrapped };
    assert.notDeepEqual(exchangeViolations('3.3', list), [], 'the 3.4 topology shape is not 3.3');
  });
});
