// The compatibility report against participants that serve their own API description: the official
// specs of every release line (served by the demo participant playing that release), copies of them
// changed the way a newer release changes things, participants that serve none, and the guard that
// keeps a request the description refuses from being sent.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LedgerClient } from '../../../src/core/api/client';
import { parseDescription, ParticipantDescriptions } from '../../../src/core/compat/descriptions';
import { findingsOf, type CompatibilityFinding, type CompatibilityReport } from '../../../src/core/compat/report';
import { reportDocumentMarkdown, reportMarkdown, reportSummaryMarkdown, reportText } from '../../../src/core/compat/wording';
import { parseYamlInSlices } from '../../../src/core/compat/yamlParser';
import { CancelledError, IncompatibleRequestError } from '../../../src/core/errors';
import { LedgerConnection } from '../../../src/core/ledger/connection';
import { submissionOf, submit } from '../../../src/core/submit/submission';
import type { ApiVersion, DemoParticipant, Exchange } from '../../../src/participant/index';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { loadSpec, requireSpec, specPath, type OpenApiDocument, type SpecVersion } from '../../support/spec';
import { startCheckedParticipant } from '../../support/specCheck';

const OFFICIAL: { apiVersion: ApiVersion; spec: SpecVersion; version: string; lines: string[] }[] = [
  { apiVersion: '3.3', spec: '3.3', version: '3.3.0-demo', lines: [] },
  { apiVersion: '3.4.11', spec: '3.4.11', version: '3.4.11-demo', lines: [] },
  { apiVersion: '3.4.12', spec: '3.4.12', version: '3.4.12-demo', lines: [] },
  { apiVersion: '3.5', spec: '3.5', version: '3.5.10-demo', lines: [] },
  { apiVersion: '3.6', spec: 'main-3.6', version: '3.6.0-demo', lines: [] },
];

const participants: DemoParticipant[] = [];
const connections: LedgerConnection[] = [];
const proxies: FaultProxy[] = [];

afterEach(async () => {
  for (const c of connections.splice(0)) c.dispose();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await Promise.all(participants.splice(0).map((p) => p.close()));
});

/** A demo participant of a release that serves a description (a spec file, or a changed copy as JSON), and the requests it got. */
async function participant(apiVersion: ApiVersion, openapi?: string | OpenApiDocument): Promise<{ p: DemoParticipant; paths: string[] }> {
  const paths: string[] = [];
  const p = await startCheckedParticipant({
    port: 0,
    seed: 7,
    apiVersion,
    onExchange: (x: Exchange) => paths.push(`${x.method} ${x.path}`),
    ...(openapi === undefined ? {} : { openapi: typeof openapi === 'string' ? openapi : { text: JSON.stringify(openapi) } }),
  });
  participants.push(p);
  return { p, paths };
}

function connectionTo(url: string, descriptions = new ParticipantDescriptions(), o: { connectTimeoutMs?: number; client?: LedgerClient } = {}): LedgerConnection {
  const client = o.client ?? new LedgerClient({ baseUrl: url, timeoutMs: 20_000 });
  const c = new LedgerConnection({ profile: { id: `c-${randomUUID()}`, name: 'Test', url, auth: 'none', userId: 'demo-admin', source: 'user' }, client, descriptions, connectTimeoutMs: o.connectTimeoutMs });
  connections.push(c);
  return c;
}

async function reportOf(url: string, descriptions?: ParticipantDescriptions): Promise<{ report: CompatibilityReport; c: LedgerConnection }> {
  const c = connectionTo(url, descriptions);
  await c.connect();
  const report = await c.whenCompatibilityChecked();
  assert.ok(report && c.compatibility === report, 'a connected connection has a report once checked');
  return { report, c };
}

/** A copy of an official spec, changed. */
function changedSpec(spec: SpecVersion, change: (doc: OpenApiDocument) => void): OpenApiDocument {
  const doc = structuredClone(loadSpec(spec));
  change(doc);
  return doc;
}

const lines = (report: CompatibilityReport, of?: (f: CompatibilityFinding) => boolean) => findingsOf(report).filter(of ?? (() => true)).map((f) => f.line);

describe('compatibility checked against the participant’s own description', function () {
  this.timeout(60_000);

  for (const { apiVersion, spec, version, lines: expected } of OFFICIAL) {
    it(`the official ${spec} spec, served by a demo playing ${apiVersion}: every request is accepted${expected.length ? ' (but the list form’s continuation token)' : ''}`, async function () {
      requireSpec(this, spec);
      const { p, paths } = await participant(apiVersion, specPath(spec));
      const { report } = await reportOf(p.url);
      assert.equal(report.version, version);
      assert.deepEqual(report.source, { kind: 'participant-spec', documentVersion: loadSpec(spec).info.version });
      assert.deepEqual(lines(report), expected);
      assert.equal(report.severity, expected.length ? 'warning' : 'ok');
      const works = report.operations.filter((o) => o.status === 'works').map((o) => o.operation);
      assert.ok(works.includes('listUpdates') && works.includes('version') && works.includes('submitAndWaitForTransaction'), works.join());
      assert.ok(works.length >= 20, `${works.length} operations work`);
      assert.deepEqual(report.operations.filter((o) => o.status === 'not-checked').map((o) => o.operation), ['subscribeUpdates']);
      assert.equal(paths.filter((x) => x === 'GET /docs/openapi').length, 1);
      assert.ok(report.unused.length > 0 && report.unused.every((e) => !(e.method === 'POST' && e.path === '/v2/updates')), 'what we use is not “not used yet”');
    });

    it(`the official ${spec} spec held to: the client's usual requests are all sent and answered`, async function () {
      requireSpec(this, spec);
      const { p } = await participant(apiVersion, specPath(spec));
      const { c } = await reportOf(p.url);
      const client = c.client;
      assert.ok(client.compatibility && client.compatibility.rules.size >= 15, 'the rules are in force');
      const page = await client.pageUpdates({ selection: { filter: { anyParty: true, shape: 'ledger-effects' } }, pageSize: 20 });
      assert.ok(page.updates.length > 0);
      assert.ok((await client.pageActiveContracts({ filter: { parties: [p.parties.alice] }, pageSize: 50 })).contracts.length > 0);
      const contract = [...p.state.contracts.values()][0];
      assert.ok((await client.eventsByContractId(contract.contractId, { filter: { anyParty: true } })).created);
      const create = { CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: p.parties.alice, owner: p.parties.alice, currency: 'USD', amount: '1.0', observers: [] } } };
      const submitted = await submit(client, submissionOf({ commands: [create], commandId: `compat-${randomUUID()}`, actAs: [p.parties.alice], deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 30, nanos: 0 } } } }).request);
      assert.equal(submitted.kind, 'succeeded');
      assert.ok((await client.prepare({ commands: [create], commandId: `compat-${randomUUID()}`, actAs: [p.parties.alice] })).raw.preparedTransactionHash);
      assert.ok((await client.allocateParty(`compat-${apiVersion.replace(/\./g, '-')}`)).party);
      if (apiVersion !== '3.3') assert.ok((await client.listVettedPackages({ topologyStateFilter: { participantIds: [p.participantId] } })).length > 0);
    });
  }

  it('a commands file the 3.3 description requires more of (a duration without nanos) is not sent; the line names the field', async function () {
    requireSpec(this, '3.3');
    const { p, paths } = await participant('3.3', specPath('3.3'));
    const { report, c } = await reportOf(p.url);
    assert.deepEqual(lines(report, (f) => f.operation === 'submitAndWaitForTransaction'), [], 'what a file leaves out is not ours to report');
    const create = { CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: p.parties.alice, owner: p.parties.alice, currency: 'USD', amount: '1.0', observers: [] } } };
    const file = { commands: [create], commandId: `compat-${randomUUID()}`, actAs: [p.parties.alice], minLedgerTimeRel: { seconds: 5 } };
    const refused = await c.client.submitAndWaitForTransaction(submissionOf(file).request).catch((e: unknown) => e);
    assert.ok(refused instanceof IncompatibleRequestError, String(refused));
    assert.equal(refused.message, 'POST /v2/commands/submit-and-wait-for-transaction: JsSubmitAndWaitForTransactionRequest.commands.minLedgerTimeRel.nanos is required by the participant; requests without it are not sent');
    assert.ok(!paths.includes('POST /v2/commands/submit-and-wait-for-transaction'));
  });

  describe('a copy of the 3.5 spec, changed', () => {
    beforeEach(function () {
      requireSpec(this, '3.5');
    });

    it('an endpoint removed: its line names it, and its requests are not sent', async () => {
      const doc = changedSpec('3.5', (d) => delete (d.paths as Record<string, unknown>)['/v2/updates/get-updates-page']);
      const { p, paths } = await participant('3.5', doc);
      const { report, c } = await reportOf(p.url);
      assert.deepEqual(lines(report), ['POST /v2/updates/get-updates-page: the participant does not have this endpoint; requests are not sent']);
      assert.equal(report.severity, 'error');
      assert.equal(report.operations.find((o) => o.operation === 'updatesPage')?.status, 'refused');
      const refused = await c.client.pageUpdates({ selection: { filter: { anyParty: true } } }).then(() => assert.fail('sent'), (e: unknown) => e);
      assert.ok(refused instanceof IncompatibleRequestError, String(refused));
      assert.equal(refused.message, lines(report)[0]);
      assert.deepEqual(refused.finding, findingsOf(report)[0]);
      assert.ok(!paths.includes('POST /v2/updates/get-updates-page'), 'the demo participant never saw it');
    });

    it('a required request field added: the line names the endpoint and the field; the request is not sent, the others are', async () => {
      const doc = changedSpec('3.5', (d) => {
        const schema = d.components.schemas.GetEventsByContractIdRequest as { required?: string[]; properties: Record<string, unknown> };
        schema.properties.requestingParties = { type: 'array', items: { type: 'string' } };
        schema.required = [...(schema.required ?? []), 'requestingParties'];
      });
      const { p, paths } = await participant('3.5', doc);
      const { report, c } = await reportOf(p.url);
      assert.deepEqual(lines(report), [
        'POST /v2/events/events-by-contract-id: GetEventsByContractIdRequest.requestingParties is required by the participant, and the extension does not send it; requests are not sent',
      ]);
      const contract = [...p.state.contracts.values()][0];
      const refused = await c.client.eventsByContractId(contract.contractId, { filter: { anyParty: true } }).catch((e: unknown) => e);
      assert.ok(refused instanceof IncompatibleRequestError && refused.finding.field === 'GetEventsByContractIdRequest.requestingParties', String(refused));
      assert.ok(!paths.includes('POST /v2/events/events-by-contract-id'));
      assert.ok((await c.client.listUpdates({ beginExclusive: 0, endInclusive: p.state.ledgerEnd }, { filter: { anyParty: true } })).length > 0, 'another request is sent');
    });

    it('a field we send only sometimes made required: requests without it are not sent, those with it are', async () => {
      const doc = changedSpec('3.5', (d) => {
        const schema = d.components.schemas.GetUpdatesRequest as { required?: string[] };
        schema.required = [...(schema.required ?? []), 'endInclusive'];
      });
      const { p, paths } = await participant('3.5', doc);
      const { report, c } = await reportOf(p.url);
      const line = 'POST /v2/updates: GetUpdatesRequest.endInclusive is required by the participant; requests without it are not sent';
      assert.deepEqual(lines(report), [line]);
      assert.equal(report.operations.find((o) => o.operation === 'listUpdates')?.status, 'limited');
      const refused = await c.client.listUpdates({ beginExclusive: 0 }, { filter: { anyParty: true } }, { idleTimeoutMs: 100 }).catch((e: unknown) => e);
      assert.ok(refused instanceof IncompatibleRequestError && refused.message === line, String(refused));
      assert.ok(!paths.includes('POST /v2/updates'));
      assert.ok((await c.client.listUpdates({ beginExclusive: 0, endInclusive: p.state.ledgerEnd }, { filter: { anyParty: true } })).length > 0);
      assert.ok(paths.includes('POST /v2/updates'));
    });

    it('an enum value dropped: every request that may use it is named; one that uses it is not sent, one that does not is', async () => {
      const doc = changedSpec('3.5', (d) => {
        const format = d.components.schemas.TransactionFormat as { properties: { transactionShape: { enum: string[] } } };
        format.properties.transactionShape.enum = format.properties.transactionShape.enum.filter((v) => v !== 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
      });
      const { p, paths } = await participant('3.5', doc);
      const { report, c } = await reportOf(p.url);
      const known = 'it knows TRANSACTION_SHAPE_UNSPECIFIED, TRANSACTION_SHAPE_ACS_DELTA';
      assert.deepEqual(lines(report), [
        `POST /v2/updates: GetUpdatesRequest.updateFormat.includeTransactions.transactionShape = TRANSACTION_SHAPE_LEDGER_EFFECTS is not a value the participant knows (${known}); requests with it are not sent`,
        `POST /v2/updates/get-updates-page: GetUpdatesPageRequest.updateFormat.includeTransactions.transactionShape = TRANSACTION_SHAPE_LEDGER_EFFECTS is not a value the participant knows (${known}); requests with it are not sent`,
        `POST /v2/commands/submit-and-wait-for-transaction: JsSubmitAndWaitForTransactionRequest.transactionFormat.transactionShape = TRANSACTION_SHAPE_LEDGER_EFFECTS is not a value the participant knows (${known}); requests with it are not sent`,
        `POST /v2/updates/update-by-id: GetUpdateByIdRequest.updateFormat.includeTransactions.transactionShape = TRANSACTION_SHAPE_LEDGER_EFFECTS is not a value the participant knows (${known}); requests with it are not sent`,
        `POST /v2/updates/update-by-offset: GetUpdateByOffsetRequest.updateFormat.includeTransactions.transactionShape = TRANSACTION_SHAPE_LEDGER_EFFECTS is not a value the participant knows (${known}); requests with it are not sent`,
      ]);
      assert.equal(report.operations.find((o) => o.operation === 'listUpdates')?.status, 'partly-refused');
      const refused = await c.client.listUpdates({ beginExclusive: 0, endInclusive: p.state.ledgerEnd }, { filter: { anyParty: true, shape: 'ledger-effects' } }).catch((e: unknown) => e);
      assert.ok(refused instanceof IncompatibleRequestError && refused.finding.value === 'TRANSACTION_SHAPE_LEDGER_EFFECTS', String(refused));
      assert.ok(!paths.includes('POST /v2/updates'));
      assert.ok((await c.client.listUpdates({ beginExclusive: 0, endInclusive: p.state.ledgerEnd }, { filter: { anyParty: true, shape: 'acs-delta' } })).length > 0);
    });

    it('an answer field renamed: every answer that carries it names the field and the new name; requests are still sent', async () => {
      const doc = changedSpec('3.5', (d) => {
        const tx = d.components.schemas.JsTransaction as { properties: Record<string, unknown>; required?: string[] };
        tx.properties.updateIdentifier = tx.properties.updateId;
        delete tx.properties.updateId;
        tx.required = tx.required?.map((f) => (f === 'updateId' ? 'updateIdentifier' : f));
      });
      const { p } = await participant('3.5', doc);
      const { report, c } = await reportOf(p.url);
      const renamed = (at: string, root: string) => `${at}: the answer's ${root}.updateId is not declared by the participant (it declares updateIdentifier: renamed?); it is shown as absent`;
      assert.deepEqual(lines(report), [
        renamed('POST /v2/updates', 'JsGetUpdatesResponse.update.Transaction.value'),
        renamed('POST /v2/updates/get-updates-page', 'JsGetUpdatesPageResponse.updates[].update.Transaction.value'),
        renamed('POST /v2/commands/submit-and-wait-for-transaction', 'JsSubmitAndWaitForTransactionResponse.transaction'),
        renamed('POST /v2/updates/update-by-id', 'JsGetUpdateResponse.update.Transaction.value'),
        renamed('POST /v2/updates/update-by-offset', 'JsGetUpdateResponse.update.Transaction.value'),
      ]);
      assert.ok(findingsOf(report).every((f) => f.severity === 'warning' && f.renamedTo === 'updateIdentifier'));
      assert.ok((await c.client.listUpdates({ beginExclusive: 0, endInclusive: p.state.ledgerEnd }, { filter: { anyParty: true } })).length > 0, 'a warning does not stop a request');
    });

    it('a field we send that the participant does not know: ignored, said so, and sent', async () => {
      const doc = changedSpec('3.5', (d) => delete (d.components.schemas.GetUpdatesRequest as { properties: Record<string, unknown> }).properties.verbose);
      const { p, paths } = await participant('3.5', doc);
      const { report, c } = await reportOf(p.url);
      assert.deepEqual(lines(report), ['POST /v2/updates: GetUpdatesRequest.verbose is not a field the participant knows; it ignores it']);
      await c.client.listUpdates({ beginExclusive: 0, endInclusive: p.state.ledgerEnd }, { filter: { anyParty: true } });
      assert.ok(paths.includes('POST /v2/updates'));
    });
  });

  it('a newer release: checked against its own description, with the version notice; what it dropped is no longer sent', async function () {
    requireSpec(this, 'main-3.6');
    // As 3.7's release notes say: the top-level filter and verbose of update requests are removed.
    const doc = changedSpec('main-3.6', (d) => {
      const props = (d.components.schemas.GetUpdatesRequest as { properties: Record<string, unknown> }).properties;
      delete props.filter;
      delete props.verbose;
    });
    const { p } = await participant('3.6', doc);
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 20_000 });
    const version = client.version.bind(client);
    client.version = async (o) => ({ ...(await version(o)), version: '3.7.0' });
    const c = connectionTo(p.url, new ParticipantDescriptions(), { client });
    await c.connect();
    const report = (await c.whenCompatibilityChecked())!;
    assert.equal(report.versionNotice, 'Canton 3.7.0 is newer than the newest release this extension knows (3.6): treated as 3.6.');
    assert.equal(report.source.kind, 'participant-spec');
    // The client sends neither from 3.6.1 on (the release that refuses them), so nothing is reported;
    // to a 3.6.0 serving the same description it still sends them, and the report names both.
    assert.deepEqual(lines(report), []);
    assert.match(report.summary, /^Canton 3\.7\.0, checked against the participant's own API description \(GET \/docs\/openapi, 3\.6\.0-SNAPSHOT\): everything the extension sends is accepted\.$/);
    const { report: older } = await reportOf(p.url);
    assert.deepEqual(lines(older), [
      'POST /v2/updates: GetUpdatesRequest.filter is not a field the participant knows; it ignores it',
      'POST /v2/updates: GetUpdatesRequest.verbose is not a field the participant knows; it ignores it',
    ]);
  });

  describe('a participant that serves no description: the version table only, and the report says so', () => {
    it('none served (404): every operation the version has is taken as working, and nothing is refused', async () => {
      const { p } = await participant('3.5');
      const { report, c } = await reportOf(p.url);
      assert.deepEqual(report.source, { kind: 'version-table', reason: 'not-served', detail: 'HTTP 404' });
      assert.equal(report.summary, 'Canton 3.5.10, checked against the version table only: the participant does not serve its API description (GET /docs/openapi): the version table decides what is sent.');
      assert.equal(report.severity, 'ok');
      assert.deepEqual(findingsOf(report), []);
      assert.deepEqual(report.operations.filter((o) => o.status === 'not-in-version').map((o) => o.operation).sort(), ['completionByHash', 'updateByHash'], 'the 3.6 look-ups by hash');
      assert.ok(report.operations.filter((o) => o.status === 'works').length >= 25);
      assert.equal(c.client.compatibility?.rules.size, 0);
    });

    it('a newer release without one: a warning, since nothing checked what it changed', async () => {
      const { p } = await participant('3.6');
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 20_000 });
      const version = client.version.bind(client);
      client.version = async (o) => ({ ...(await version(o)), version: '3.8.0' });
      const c = connectionTo(p.url, new ParticipantDescriptions(), { client });
      await c.connect();
      await c.whenCompatibilityChecked();
      assert.equal(c.compatibility?.severity, 'warning');
      assert.equal(c.compatibility?.source.kind, 'version-table');
    });

    it('refused (403), or not an OpenAPI document: the version table, with the reason', async () => {
      const { p } = await participant('3.5', { hello: 'world' } as unknown as OpenApiDocument);
      assert.deepEqual((await reportOf(p.url)).report.source, { kind: 'version-table', reason: 'unreadable', detail: 'not an OpenAPI document' });
      const proxy = await startFaultProxy(p.url);
      proxies.push(proxy);
      proxy.add({ method: 'GET', path: '/docs/openapi', fault: { kind: 'answer', status: 403, contentType: 'text/plain', body: 'Forbidden' } });
      const { report } = await reportOf(proxy.url);
      assert.deepEqual(report.source, { kind: 'version-table', reason: 'refused', detail: 'HTTP 403' });
      assert.match(report.summary, /checked against the version table only: the participant refused to send its API description/);
    });
  });

  describe('read once per participant and version, checked once per description, with the connect’s signal and deadline', () => {
    it('a second connection to the same participant does not read it again; another participant of the version reads its own, checked once when it is the same text; another version is read and checked', async function () {
      requireSpec(this, '3.5');
      requireSpec(this, 'main-3.6');
      const descriptions = new ParticipantDescriptions();
      const a = await participant('3.5', specPath('3.5'));
      const b = await participant('3.5', specPath('3.5'));
      const newer = await participant('3.6', specPath('main-3.6'));
      const first = (await reportOf(a.p.url, descriptions)).report;
      const second = (await reportOf(b.p.url, descriptions)).report;
      assert.equal(second, first, 'the same description: the same check, not made again');
      assert.equal(a.paths.filter((x) => x === 'GET /docs/openapi').length, 1);
      assert.equal(b.paths.filter((x) => x === 'GET /docs/openapi').length, 1, 'its own description read');
      await reportOf(a.p.url, descriptions);
      assert.equal(a.paths.filter((x) => x === 'GET /docs/openapi').length, 1, 'not read again from the same participant');
      await reportOf(newer.p.url, descriptions);
      assert.equal(newer.paths.filter((x) => x === 'GET /docs/openapi').length, 1);
      assert.ok(descriptions.has('3.5.10-demo') && descriptions.has('3.6.0-demo'));
    });

    it('a participant of the same version that serves another description, or none, is judged by its own', async function () {
      requireSpec(this, '3.5');
      const descriptions = new ParticipantDescriptions();
      const changed = await participant('3.5', changedSpec('3.5', (d) => delete (d.paths as Record<string, unknown>)['/v2/updates/get-updates-page']));
      const plain = await participant('3.5', specPath('3.5'));
      const none = await participant('3.5');
      const refusing = (await reportOf(changed.p.url, descriptions)).report;
      assert.ok(lines(refusing).some((l) => l.includes('/v2/updates')), 'the changed description refuses the updates page');
      const own = (await reportOf(plain.p.url, descriptions)).report;
      assert.notEqual(own, refusing);
      assert.deepEqual(lines(own), [], 'the official description refuses nothing');
      const tableOnly = (await reportOf(none.p.url, descriptions)).report;
      assert.equal(tableOnly.source.kind, 'version-table', 'no description served: the version table, not another participant’s check');
    });

    it('a description that does not come within the connect’s deadline: the version table; a disconnect drops the check', async function () {
      requireSpec(this, '3.5');
      const { p } = await participant('3.5', specPath('3.5'));
      const proxy = await startFaultProxy(p.url, { maxHangMs: 10_000 });
      proxies.push(proxy);
      proxy.add({ method: 'GET', path: '/docs/openapi', fault: { kind: 'hang' }, times: 2 });
      const slow = connectionTo(proxy.url, new ParticipantDescriptions(), { connectTimeoutMs: 1_500 });
      await slow.connect();
      await slow.whenCompatibilityChecked();
      assert.equal(slow.compatibility?.source.kind, 'version-table');
      assert.equal((slow.compatibility?.source as { reason: string }).reason, 'unreachable');
      const dropped = connectionTo(proxy.url, new ParticipantDescriptions());
      await dropped.connect();
      assert.equal(dropped.compatibilityPending, true, 'connected while the description hangs');
      const checked = dropped.whenCompatibilityChecked();
      dropped.dispose();
      assert.equal(await checked, undefined);
      assert.equal(dropped.compatibility, undefined);
    });
  });

  describe('off the connect’s path: the connect does not wait for the description', () => {
    /** Descriptions whose parse waits until `release` is called: the report comes when the test says. */
    function heldDescriptions(): { descriptions: ParticipantDescriptions; release(): void; parsing: Promise<void> } {
      let release!: () => void;
      let started!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const parsing = new Promise<void>((r) => (started = r));
      const descriptions = new ParticipantDescriptions(async (text, signal) => {
        started();
        await released;
        return parseDescription(text, signal);
      });
      return { descriptions, release, parsing };
    }

    it('connected before the report; meanwhile the version table decides, and the report arrives with its event and its guard', async function () {
      requireSpec(this, '3.5');
      const doc = changedSpec('3.5', (d) => delete (d.paths as Record<string, unknown>)['/v2/updates/get-updates-page']);
      const { p, paths } = await participant('3.5', doc);
      const held = heldDescriptions();
      const c = connectionTo(p.url, held.descriptions);
      const events: (CompatibilityReport | undefined)[] = [];
      c.onDidChangeCompatibility((r) => events.push(r));
      await c.connect();
      await held.parsing;
      assert.equal(c.state.state, 'connected');
      assert.equal(c.compatibility, undefined);
      assert.equal(c.compatibilityPending, true);
      // Sent before the report: the version table decides (3.5 has the page endpoint), so it is sent.
      const before = await c.client.pageUpdates({ selection: { filter: { anyParty: true } }, pageSize: 5 });
      assert.ok(before.updates.length > 0);
      assert.equal(paths.filter((x) => x === 'POST /v2/updates/get-updates-page').length, 1);
      held.release();
      const report = await c.whenCompatibilityChecked();
      assert.equal(report?.severity, 'error');
      assert.equal(c.compatibilityPending, false);
      assert.deepEqual(events, [report]);
      const refused = await c.client.pageUpdates({ selection: { filter: { anyParty: true } } }).catch((e: unknown) => e);
      assert.ok(refused instanceof IncompatibleRequestError, String(refused));
      assert.equal(paths.filter((x) => x === 'POST /v2/updates/get-updates-page').length, 1, 'not sent once the report refuses it');
    });

    it('a reconnect drops the last report until its own check is done; a failed connect leaves none', async function () {
      requireSpec(this, '3.5');
      const { p } = await participant('3.5', specPath('3.5'));
      const c = connectionTo(p.url);
      await c.connect();
      const first = await c.whenCompatibilityChecked();
      assert.equal(first?.source.kind, 'participant-spec');
      await c.connect();
      assert.equal(await c.whenCompatibilityChecked(), first, 'the same version: the kept check');
      await p.close();
      await assert.rejects(c.connect());
      assert.equal(await c.whenCompatibilityChecked(), undefined);
      assert.equal(c.client.compatibility, undefined, 'no rules of a participant that is gone');
    });

    it('a YAML description is parsed in slices: the event loop is served while it parses', async function () {
      requireSpec(this, '3.4.11');
      const text = readFileSync(specPath('3.4.11'), 'utf8');
      assert.deepEqual(await parseDescription(text), loadSpec('3.4.11'));
      // Slices of 0 ms yield at every clock read, so the turns counted do not depend on how fast this
      // machine parses (a warm parse of this description fits in a few 8 ms slices).
      let turns = 0;
      let serving = true;
      const turn = () => {
        turns++;
        if (serving) setImmediate(turn);
      };
      setImmediate(turn);
      const parsed = await parseYamlInSlices(text, undefined, 0);
      serving = false;
      assert.deepEqual(parsed, loadSpec('3.4.11'));
      assert.ok(turns >= 20, `the event loop took ${turns} turns while the description was parsed`);
    });

    it('a YAML description whose parse is cancelled between slices stops with the reason', async function () {
      requireSpec(this, '3.4.11');
      const text = readFileSync(specPath('3.4.11'), 'utf8');
      const controller = new AbortController();
      const reason = new Error('closed');
      setImmediate(() => controller.abort(reason));
      await assert.rejects(parseYamlInSlices(text, controller.signal, 0), (e) => e === reason);
    });
  });

  it('renders the same lines as text and as Markdown', async function () {
    requireSpec(this, '3.5');
    const doc = changedSpec('3.5', (d) => delete (d.paths as Record<string, unknown>)['/v2/updates/get-updates-page']);
    const { p } = await participant('3.5', doc);
    const { report } = await reportOf(p.url);
    const text = reportText(report);
    assert.equal(text[0], report.summary);
    assert.ok(text.includes('Refused (not sent) (1):'));
    assert.ok(text.includes(`    ✗ ${findingsOf(report)[0].line}`));
    const markdown = reportMarkdown(report);
    assert.match(markdown, /\*\*Refused \(not sent\)\*\* \(1\)/);
    assert.ok(markdown.includes('✗ POST /v2/updates/get-updates-page: the participant does not have this endpoint; requests are not sent'));
    assert.match(markdown, /\*\*Not used yet .*\*\* \(\d+\)/);
    // The short form (a tooltip): the summary and the refused line, nothing of what works.
    assert.deepEqual(reportSummaryMarkdown(report).split('\n'), [`Compatibility: ${report.summary}`, '', `- ✗ ${findingsOf(report)[0].line}`]);
    const document = reportDocumentMarkdown(report, { name: 'Local [dev]', url: 'http://localhost:7575' });
    assert.ok(document.startsWith('# Compatibility of Local \\[dev\\]\n\nhttp://localhost:7575\n\n' + markdown + '\n'), document.slice(0, 200));
    assert.ok(document.endsWith('`canton-ledger doctor`.'));
  });
});
