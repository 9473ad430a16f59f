import assert from 'node:assert/strict';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, offsetsOf, summaryLines } from './harness';

describe('cli: updates and events against the demo participant', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  /** Everything, as the default command prints it. */
  let all: string;

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 42 });
    env = { CANTON_LEDGER_URL: participant.url };
    const r = await cli(['updates'], env);
    assert.equal(r.status, 0, r.stderr);
    all = r.stdout;
  });
  after(() => participant.close());

  describe('updates', () => {
    it('lists every transaction up to the ledger end, with counts, ids and indented events', () => {
      const lines = summaryLines(all);
      assert.ok(lines.length >= 10, all);
      const offsets = offsetsOf(all);
      assert.deepEqual(offsets, [...offsets].sort((a, b) => a - b));
      assert.ok(offsets.every((o) => o <= participant.state.ledgerEnd));
      // Seed transaction 1: the bank issues an Iou to Alice.
      assert.match(all, /^\d+ +transaction +1220[0-9a-f]{8}… +cmd seed-1 +1 created +demo-sync::1220[0-9a-f]{4}…$/m);
      assert.match(all, /^  created +#demo-iou:Iou:Iou  00[0-9a-f]{136}$/m);
      assert.match(all, /cmd seed-4 +1 created, 1 archived/);
      assert.match(all, /^  archived +#demo-iou:Iou:Iou  00[0-9a-f]{136}$/m);
      // Topology is opt-in.
      assert.doesNotMatch(all, /topology/);
    });

    it('walks small pages to the same result, and --limit stops early', async () => {
      const paged = await cli(['updates', '--page-size', '2', '--verbose'], env);
      assert.equal(paged.status, 0);
      assert.equal(paged.stdout, all);
      const pageRequests = paged.stderr.match(/POST \/v2\/updates\/get-updates-page 200/g) ?? [];
      assert.ok(pageRequests.length >= summaryLines(all).length / 2, paged.stderr);

      const limited = await cli(['updates', '--limit', '3'], env);
      assert.equal(limited.status, 0);
      assert.deepEqual(summaryLines(limited.stdout), summaryLines(all).slice(0, 3));
    });

    it('without a token reads as any party without asking for an authenticated user (there is none)', async () => {
      const r = await cli(['updates', '--limit', '1', '--verbose'], env);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /POST \/v2\/updates/);
      assert.doesNotMatch(r.stderr, /authenticated-user/);
    });

    it('honours --begin/--end and --descending', async () => {
      const offsets = offsetsOf(all);
      const [begin, end] = [offsets[2], offsets[6]];
      const range = await cli(['updates', '--begin', String(begin), '--end', String(end)], env);
      assert.deepEqual(offsetsOf(range.stdout), offsets.filter((o) => o > begin && o <= end));

      const desc = await cli(['updates', '--descending', '--limit', '4'], env);
      assert.equal(desc.status, 0, desc.stderr);
      assert.deepEqual(offsetsOf(desc.stdout), [...offsets].reverse().slice(0, 4));
    });

    it('prints raw wire updates as NDJSON with --json', async () => {
      const r = await cli(['updates', '--json'], env);
      assert.equal(r.status, 0);
      const lines = r.stdout.trimEnd().split('\n');
      assert.equal(lines.length, summaryLines(all).length);
      const first = JSON.parse(lines[0]);
      const tx = first.update.Transaction.value;
      assert.equal(tx.commandId, 'seed-1');
      assert.equal(tx.offset, offsetsOf(all)[0]);
      assert.match(tx.events[0].CreatedEvent.templateId, /^[0-9a-f]{64}:Iou:Iou$/);
      assert.equal(tx.events[0].CreatedEvent.createArgument.currency, 'USD');
    });

    it('filters by party, template and shape; adds topology on request', async () => {
      const charlie = await cli(['updates', '--party', participant.parties.charlie], env);
      assert.equal(charlie.status, 0);
      const charlieOffsets = offsetsOf(charlie.stdout);
      assert.ok(charlieOffsets.length > 0 && charlieOffsets.length < offsetsOf(all).length);
      assert.ok(charlieOffsets.every((o) => offsetsOf(all).includes(o)));

      const assets = await cli(['updates', '--template', '#demo-asset:Asset:Asset'], env);
      const eventLines = assets.stdout.split('\n').filter((l) => l.startsWith('  '));
      assert.ok(eventLines.length > 0);
      assert.ok(eventLines.every((l) => l.includes('#demo-asset:Asset:Asset')), assets.stdout);

      const effects = await cli(['updates', '--shape', 'ledger-effects', '--template', '#demo-asset:Asset:Asset'], env);
      assert.match(effects.stdout, /^  exercised +#demo-asset:Asset:Asset  00[0-9a-f]+  Asset_Rename \(consuming\)$/m);

      const topology = await cli(['updates', '--topology', '--any-party'], env);
      assert.match(topology.stdout, /^\d+ +topology +1220[0-9a-f]{8}… +1 authorization change/m);
      assert.match(topology.stdout, /^  added +Alice::1220[0-9a-f]+  on [^ ]+ \(submission\)$/m);
    });

    it('reads the same transactions with the legacy request form', async () => {
      const legacy = await cli(['updates', '--legacy'], env);
      assert.equal(legacy.status, 0, legacy.stderr);
      assert.equal(legacy.stdout, all);
    });

    it('logs each request to stderr with --verbose, and nothing without', async () => {
      const verbose = await cli(['updates', '--limit', '1', '--verbose'], env);
      assert.match(verbose.stderr, /^\[info\] GET \/v2\/version 200 \d+ ms$/m);
      assert.match(verbose.stderr, /^\[info\] POST \/v2\/updates\/get-updates-page 200 \d+ ms$/m);
      assert.match(verbose.stderr, /reading as any party/i);
      const quiet = await cli(['updates', '--limit', '1'], env);
      assert.equal(quiet.stderr, '');
    });

    it('says so when a range holds no updates', async () => {
      const end = participant.state.ledgerEnd;
      const r = await cli(['updates', '--begin', String(end), '--end', String(end)], env);
      assert.equal(r.status, 0);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /No updates in this range/);
    });
  });

  describe('events', () => {
    /** Seed transaction 1 creates Alice's USD Iou; seed transaction 4 transfers (archives) it. */
    const firstContract = () => /^  created +#demo-iou:Iou:Iou  (00[0-9a-f]+)$/m.exec(all)![1];
    const lastCreated = () => [...all.matchAll(/^  created +#demo-iou:Iou:Iou  (00[0-9a-f]+)$/gm)].map((m) => m[1]).filter((cid) => !all.includes(`archived   #demo-iou:Iou:Iou  ${cid}`));

    it('shows template, parties, creation, arguments and archival of an archived contract', async () => {
      const cid = firstContract();
      const r = await cli(['events', cid], env);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^Contract ${cid}$`, 'm'));
      assert.match(r.stdout, /^  template: +#demo-iou:Iou:Iou$/m);
      assert.match(r.stdout, new RegExp(`^  signatories: +${participant.parties.bank}$`, 'm'));
      assert.match(r.stdout, new RegExp(`^  observers: +${participant.parties.alice}$`, 'm'));
      assert.match(r.stdout, /^  created at: +\d{4}-\d\d-\d\dT[\d:.]+Z \(offset \d+, synchronizer demo-sync::/m);
      assert.match(r.stdout, /^  status: +archived at offset \d+/m);
      assert.match(r.stdout, /^  arguments:\n    \{\n      "issuer": "Bank::/m);
      assert.match(r.stdout, /^      "currency": "USD",$/m);
    });

    it('shows an active contract as active, and the raw response with --json', async () => {
      const cid = lastCreated().at(-1)!;
      const r = await cli(['events', cid, '--any-party'], env);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^  status: +active$/m);

      const json = await cli(['events', cid, '--json'], env);
      const body = JSON.parse(json.stdout);
      assert.equal(body.created.createdEvent.contractId, cid);
      assert.equal(body.archived, null);
    });

    it('fails with CONTRACT_EVENTS_NOT_FOUND and its hint for an unknown contract (exit 1)', async () => {
      const r = await cli(['events', '00' + 'ab'.repeat(34)], env);
      assert.equal(r.status, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^error: CONTRACT_EVENTS_NOT_FOUND: Contract events not found, or not visible\.$/m);
      assert.match(r.stderr, /^trace id: [0-9a-f]{32}$/m);
      assert.match(r.stderr, /^hint: The contract is unknown, pruned, or not visible/m);
    });

    it('does not show a contract to a party that cannot see it', async () => {
      // Alice's first Iou has the bank and Alice as stakeholders only.
      const r = await cli(['events', firstContract(), '--party', participant.parties.charlie], env);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /CONTRACT_EVENTS_NOT_FOUND/);
    });
  });

  describe('with two synchronizers', () => {
    let twoSync: DemoParticipant;
    before(async () => {
      twoSync = await startCheckedParticipant({ port: 0, seed: 5, synchronizers: 2 });
    });
    after(() => twoSync.close());

    it('shows reassignments only with --reassignments (or --legacy, which always includes them)', async () => {
      const env2 = { CANTON_LEDGER_URL: twoSync.url };
      const plain = await cli(['updates'], env2);
      assert.doesNotMatch(plain.stdout, /reassignment/);

      const r = await cli(['updates', '--reassignments'], env2);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^\d+ +reassignment +1220[0-9a-f]{8}… +cmd \S+ +1 unassigned +demo-sync::/m);
      assert.match(r.stdout, /^  unassigned #demo-iou:Iou:Iou  00[0-9a-f]+  demo-sync::1220[0-9a-f]{4}… → demo-sync-2::1220[0-9a-f]{4}…$/m);
      assert.match(r.stdout, /^  assigned +#demo-iou:Iou:Iou  00[0-9a-f]+  demo-sync::1220[0-9a-f]{4}… → demo-sync-2::/m);

      const legacy = await cli(['updates', '--legacy'], env2);
      assert.equal(legacy.stdout, r.stdout);
    });
  });
});
