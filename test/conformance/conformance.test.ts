// Conformance with the official specs (read from ../shared/canton-api, never copied here):
// every request our client sends, and every response the demo participant returns, is checked
// against the operation's schemas in the spec.
//
// - Requests: against every spec version that has the operation (3.3, 3.4.11, 3.4.12, 3.5,
//   main-3.6), because the client must work with participants of all of them.
// - Responses: against the spec of the release the participant imitates (3.5, and main-3.6 in
//   its 3.6 mode). `null` values are removed first: the spec cannot say "nullable" but the real
//   server writes null for absent optional fields (NOTES §0.3), and so does the demo participant.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import nodeFetch, { Response } from 'node-fetch';
import { LedgerClient } from '../../src/core/api/client';
import { legacySelection } from '../../src/core/api/updatesRequest';
import type { FetchLike } from '../../src/core/api/http';
import type * as wire from '../../src/core/models/wire';
import { DemoParticipant, startDemoParticipant } from '../../src/participant';
import { loadSpec, requireSpec, SpecVersion, specAvailable, specValidator } from '../support/spec';

interface Exchange {
  method: string;
  path: string;
  requestBody?: unknown;
  status: number;
  contentType: string;
  responseText: string;
}

/** node-fetch that records each exchange and hands the client an equivalent response. */
function recordingFetch(log: Exchange[], base: string): FetchLike {
  const record = async (url: string, init: Parameters<FetchLike>[1] = {}) => {
    const res = await nodeFetch(url, init);
    const responseText = await res.text();
    const path = new URL(url).pathname.slice(new URL(base).pathname.replace(/\/$/, '').length);
    log.push({
      method: (init.method ?? 'GET').toUpperCase(),
      path,
      requestBody: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      responseText,
    });
    return new Response(responseText, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return record as unknown as FetchLike;
}

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Schema {
  $ref?: string;
  type?: string;
  items?: Schema;
}

/** The spec operation for a concrete path (path templates like `/v2/users/{user-id}` match). */
function findOperation(version: SpecVersion, method: string, path: string): Operation | undefined {
  const paths = loadSpec(version).paths as Record<string, Record<string, Operation>>;
  for (const [template, ops] of Object.entries(paths)) {
    const re = new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$');
    if (re.test(path)) return ops[method.toLowerCase()];
  }
  return undefined;
}

function componentName(ref: string | undefined): string {
  const name = /^#\/components\/schemas\/(.+)$/.exec(ref ?? '')?.[1];
  if (!name) throw new Error(`unsupported schema reference ${ref}`);
  return name;
}

/** Validates a value against an operation schema: a component reference, or an array of them. */
function check(version: SpecVersion, schema: Schema, value: unknown): string[] {
  if (schema.type === 'array') {
    assert.ok(Array.isArray(value), 'expected an array');
    return value.flatMap((item, i) => check(version, schema.items!, item).map((e) => `[${i}] ${e}`));
  }
  if (schema.type === 'string') return typeof value === 'string' ? [] : ['expected a string'];
  const { ok, errors } = specValidator(version, componentName(schema.$ref))(value);
  return ok ? [] : errors.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/**
 * Requests that knowingly differ from a spec, each with its reason. Nothing else is excused.
 * - 3.4.12 marks `updateFormat` required on GetUpdatesRequest, yet its server still accepts the
 *   deprecated `filter`/`verbose` form (NOTES §2.1.1, §7), which the client sends only when asked.
 */
const KNOWN_REQUEST_DEVIATIONS: Array<{ version: SpecVersion; applies: (x: Exchange) => boolean }> = [
  { version: '3.4.12', applies: (x) => /^\/v2\/updates(\/flats)?$/.test(x.path) && (x.requestBody as { filter?: unknown })?.filter !== undefined },
];

function requestErrors(version: SpecVersion, x: Exchange): string[] | undefined {
  const op = findOperation(version, x.method, x.path);
  if (!op) return undefined;
  if (KNOWN_REQUEST_DEVIATIONS.some((d) => d.version === version && d.applies(x))) return [];
  const schema = op.requestBody?.content?.['application/json']?.schema;
  if (!schema) return x.requestBody === undefined ? [] : ['the spec has no JSON request body here'];
  return check(version, schema, x.requestBody);
}

function responseErrors(version: SpecVersion, x: Exchange): string[] {
  const op = findOperation(version, x.method, x.path);
  if (!op) return [`${x.method} ${x.path} is not in the ${version} spec`];
  // The spec documents 400 as the text/plain decode failure only; Canton's JSON errors with 400
  // (OFFSET_AFTER_LEDGER_END, …) are JsCantonError bodies, which the spec lists under `default`.
  const kind = /text\/plain/.test(x.contentType) ? 'text/plain' : 'application/json';
  const response = [op.responses?.[String(x.status)], op.responses?.default].find((r) => r?.content?.[kind] || (r && !r.content && x.responseText === ''));
  if (!response) return [`status ${x.status} with ${kind} is not in the spec`];
  if (x.responseText === '' && !response.content) return [];
  if (/text\/plain/.test(x.contentType)) return response.content?.['text/plain'] ? [] : ['text/plain body where the spec has none'];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return [`no JSON response schema for ${x.status}`];
  return check(version, schema, JSON.parse(x.responseText));
}

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';

/** Drives every client operation, including error paths, and returns what went over the wire. */
async function scenario(p: DemoParticipant): Promise<Exchange[]> {
  const log: Exchange[] = [];
  const c = new LedgerClient({ baseUrl: p.url, fetch: recordingFetch(log, p.url), pageSize: 7 });
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
  await c.submitAndWaitForTransaction(cmds(bank, { CreateAndExerciseCommand: { templateId: IOU, createArguments: { issuer: bank, owner: bank, currency: 'EUR', amount: '3.0', observers: [] }, choice: 'Archive', choiceArgument: {} } }));
  const assetId = randomUUID();
  await c.submitAndWaitForTransaction({ ...cmds(alice, { CreateCommand: { templateId: ASSET, createArguments: { owner: alice, id: assetId, description: 'x' } } }), workflowId: 'wf-1', deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 60, nanos: 0 } } } });
  await c.submitAndWaitForTransaction(cmds(alice, { ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: alice, _2: assetId }, choice: 'Asset_Rename', choiceArgument: { newDescription: 'y' } } }));
  const dup = cmds(alice, { CreateCommand: { templateId: IOU, createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } });
  await c.submitAndWaitForTransaction(dup);
  await c.submitAndWaitForTransaction(dup).catch(() => undefined); // 409 DUPLICATE_COMMAND
  await c.submitAndWaitForTransaction(cmds(alice, { ExerciseCommand: { templateId: IOU, contractId: '00' + 'a'.repeat(136), choice: 'Archive', choiceArgument: {} } })).catch(() => undefined); // 404

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
  return log;
}

describe('conformance with the official JSON Ledger API specs', function () {
  this.timeout(60_000);

  for (const [mode, specVersion] of [['3.5', '3.5'], ['3.6', 'main-3.6']] as const) {
    describe(`against the demo participant in ${mode} mode`, () => {
      let exchanges: Exchange[] = [];
      let p: DemoParticipant | undefined;
      before(async function () {
        if (!specAvailable(specVersion)) return;
        p = await startDemoParticipant({ port: 0, seed: 11, apiVersion: mode });
        exchanges = await scenario(p);
      });
      after(() => p?.close());

      it('covers every operation the client uses, including error answers', function () {
        requireSpec(this, specVersion);
        const seen = new Set(exchanges.map((x) => `${x.method} ${x.path.replace(/\/v2\/users\/[^/]+\/rights/, '/v2/users/{id}/rights')}`));
        const expected = [
          'GET /v2/version', 'GET /v2/state/ledger-end', 'GET /v2/state/latest-pruned-offsets', 'GET /v2/state/connected-synchronizers', 'GET /v2/parties',
          'GET /v2/parties/participant-id', 'GET /v2/users/{id}/rights', 'GET /v2/packages', 'POST /v2/commands/submit-and-wait-for-transaction',
          'POST /v2/events/events-by-contract-id', 'POST /v2/package-vetting/list', 'POST /v2/package-vetting/update', 'POST /v2/updates/get-updates-page',
          'POST /v2/updates',
        ];
        assert.deepEqual(expected.filter((e) => !seen.has(e)), []);
        for (const status of [200, 400, 404, 409]) assert.ok(exchanges.some((x) => x.status === status), `an exchange with status ${status}`);
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
  });
});
