import assert from 'node:assert/strict';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, offsetsOf } from './harness';

describe('cli: updates --compare-parties against the demo participant', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  /** What each party's own read lists (ledger effects, as the comparison reads). */
  const ownOffsets = async (party: string, extra: string[] = []) => {
    const r = await cli(['updates', '--party', party, '--shape', 'ledger-effects', ...extra], env);
    assert.equal(r.status, 0, r.stderr);
    return offsetsOf(r.stdout);
  };

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 42 });
    env = { CANTON_LEDGER_URL: participant.url };
  });
  after(() => participant.close());

  it("prints the summary of counts each party's own read gives, the parties, and a row per transaction", async () => {
    const { alice, bob } = participant.parties;
    const r = await cli(['updates', '--compare-parties', 'Alice,Bob'], env);
    assert.equal(r.status, 0, r.stderr);
    const [a, b] = [await ownOffsets(alice), await ownOffsets(bob)];
    const both = a.filter((o) => b.includes(o));
    const total = new Set([...a, ...b]).size;
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], `Alice sees ${a.length} of ${total} transactions; Bob sees ${b.length}; ${both.length} seen by both`);
    assert.match(lines[1], new RegExp(`^  Alice +${alice}$`));
    assert.match(lines[2], new RegExp(`^  Bob +${bob}$`));
    assert.equal(lines[3], `Offsets 1–${participant.state.ledgerEnd}, read once per party, ledger-effects shape.`);
    assert.match(r.stdout, /^offset +update +Alice +Bob +differs$/m);
    const rows = lines.filter((l) => /^\d+ /.test(l));
    assert.deepEqual(rows.map((l) => Number(l.split(' ', 1)[0])), [...new Set([...a, ...b])].sort((x, y) => x - y));
    // A row seen by one of them only, and Alice's transfer to Bob: both see it, differently.
    assert.ok(rows.some((l) => /^\d+ +1220[0-9a-f]{8}… +✓ 1 event +— *$/.test(l)), r.stdout);
    assert.match(r.stdout, /^\d+ +1220[0-9a-f]{8}… +✓ 2 events +✓ 1 event +commandId, events, events seen differently$/m);
    assert.match(r.stdout, /^ {4}exercised Iou_Transfer +#demo-iou:Iou:Iou +00[0-9a-f]+ +\[Alice actor, Bob —\]$/m);
    assert.match(r.stdout, /^ {4}created +#demo-iou:Iou:Iou +00[0-9a-f]+ +\[Alice witness, Bob stakeholder\] +differs: acsDelta$/m);
  });

  it('honours --begin/--end, full party ids and three parties', async () => {
    const { alice, bob, charlie } = participant.parties;
    const r = await cli(['updates', '--compare-parties', `${alice},${bob}`, '--compare-parties', charlie, '--begin', '5', '--end', '12'], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout.split('\n')[0], /^Alice sees \d+ of \d+ transactions; Bob sees \d+; Charlie sees \d+; \d+ seen by all 3$/);
    const rows = offsetsOf(r.stdout);
    assert.ok(rows.length > 0 && rows.every((o) => o > 5 && o <= 12), r.stdout);
    const own = await ownOffsets(charlie, ['--begin', '5', '--end', '12']);
    assert.equal(Number(/Charlie sees (\d+)/.exec(r.stdout)![1]), own.length);
  });

  it('writes one JSON object with --json: counts by party id, and per update and event who sees it as what', async () => {
    const { alice, bob } = participant.parties;
    const r = await cli(['--json', 'updates', '--compare-parties', 'Alice,Bob'], env);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 1);
    const c = JSON.parse(lines[0]);
    assert.deepEqual(c.parties, [alice, bob]);
    assert.equal(c.transactionShape, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    assert.equal(c.summary.seenBy[alice], (await ownOffsets(alice)).length);
    assert.equal(c.summary.seenBy[bob], (await ownOffsets(bob)).length);
    const witnessed = c.updates.flatMap((u: { events: { seenAs: Record<string, string | null> }[] }) => u.events).find((e: { seenAs: Record<string, string | null> }) => e.seenAs[alice] === 'witness' && e.seenAs[bob] === 'stakeholder');
    assert.ok(witnessed, 'a create Alice only witnesses');
    assert.ok(c.updates.every((u: { seenBy: string[] }) => u.seenBy.length > 0));
  });

  it('refuses fewer than two parties, options of a single read, and unknown names', async () => {
    const one = await cli(['updates', '--compare-parties', 'Alice'], env);
    assert.equal(one.status, 2);
    assert.match(one.stderr, /at least two different parties/);
    const withParty = await cli(['updates', '--compare-parties', 'Alice,Bob', '--shape', 'acs-delta'], env);
    assert.equal(withParty.status, 2);
    assert.match(withParty.stderr, /drop --shape/);
    const unknown = await cli(['updates', '--compare-parties', 'Alice,Zoe'], env);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /No known party is called Zoe/);
  });
});
