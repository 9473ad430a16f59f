// A client no one here wrote: the official generated TypeScript client performs the four operations
// against the demo participant and gets correct results. It sends a bearer token on every call, so
// the participant runs with auth.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { LedgerClient as OfficialClient } from '@canton-network/core-ledger-client';
import { DemoParticipant } from '../../src/participant';
import { startCheckedParticipant } from '../support/specCheck';

describe('the official @canton-network/core-ledger-client against the demo participant', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let official: OfficialClient;

  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 21, auth: { secret: 'official-client-shared-secret' } });
    official = new OfficialClient({
      baseUrl: new URL(p.url),
      logger: pino({ level: 'silent' }),
      accessTokenProvider: { getAccessToken: () => p.mintToken('demo-admin'), getAuthContext: async () => ({}) as never },
      version: '3.5',
    });
    await official.init();
  });
  after(() => p.close());

  it('reads its supported version from /v2/version', () => {
    assert.equal(official.getCurrentClientVersion(), '3.5');
  });

  it('submits and waits for a transaction, and reads the contract\'s events', async () => {
    const { bank, alice } = p.parties;
    const res = await official.post('/v2/commands/submit-and-wait-for-transaction', {
      commands: {
        commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: bank, owner: alice, currency: 'CHF', amount: '42.0', observers: [] } } }],
        commandId: randomUUID(),
        actAs: [bank],
        userId: 'demo-admin',
      },
    } as never);
    const tx = (res as { transaction: { events: Array<{ CreatedEvent?: { contractId: string; createArgument: { amount: string } } }> } }).transaction;
    const created = tx.events[0].CreatedEvent!;
    assert.equal(created.createArgument.amount, '42.0000000000', 'Numeric padded to its scale');

    const events = await official.post('/v2/events/events-by-contract-id', {
      contractId: created.contractId,
      eventFormat: { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] }, verbose: true },
    } as never);
    const ev = events as { created?: { createdEvent: { contractId: string } }; archived?: unknown };
    assert.equal(ev.created?.createdEvent.contractId, created.contractId);
    assert.equal(ev.archived ?? null, null);
  });

  it('reads updates from /v2/updates/flats with a limit', async () => {
    const end = (await official.get('/v2/state/ledger-end')) as { offset: number };
    const list = (await official.post(
      '/v2/updates/flats',
      { beginExclusive: 0, endInclusive: end.offset, updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {}, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } } as never,
      { query: { limit: 5 } },
    )) as Array<{ update: Record<string, { value: { offset: number } }> }>;
    assert.equal(list.length, 5);
    const offsets = list.map((e) => Object.values(e.update)[0].value.offset);
    assert.deepEqual(offsets, [...offsets].sort((a, b) => a - b));
  });

  it('dry-runs a vetting change', async () => {
    const r = (await official.post('/v2/package-vetting/update', {
      changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }],
      dryRun: true,
    } as never)) as { pastVettedPackages?: { topologySerial: number }; newVettedPackages: { topologySerial: number; packages: Array<{ packageVersion?: string }> } };
    assert.ok(r.newVettedPackages.packages.some((x) => x.packageVersion === '2.0.0'));
    assert.equal(r.newVettedPackages.topologySerial, (r.pastVettedPackages?.topologySerial ?? 0) + 1);
  });

  it('gets a Canton error body it can read for an unknown contract', async () => {
    const err = await official
      .post('/v2/events/events-by-contract-id', { contractId: '00' + 'd'.repeat(136), eventFormat: { filtersForAnyParty: {}, verbose: false } } as never)
      .catch((e: unknown) => e);
    assert.equal((err as { code?: string }).code, 'CONTRACT_EVENTS_NOT_FOUND');
  });
});
