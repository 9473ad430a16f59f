// Older command completions in pages, newest first, back from a pinned end: the windows of offsets a
// page reads join without a gap or a repeat, reads past a window stop there, quiet stretches widen the
// window, the pruning offset ends the pages, and the participant's list cap shrinks the reads.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import type { Completion } from '../../../src/core/models/completions';
import type * as wire from '../../../src/core/models/wire';
import { CompletionsPager } from '../../../src/core/updates/completionsPager';
import type { DemoParticipant } from '../../../src/participant';
import { start } from '../../participant/helpers';

const IOU = '#demo-iou:Iou:Iou';
const CAP = 5;

describe('completions pager', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  /** The completions reads the demo answered: how many, and which found nothing (each waited for its idle end). */
  let reads: { empty: boolean }[] = [];
  /** Offsets of the bank's completions written by `before`, oldest first. */
  const bankCompletions: { commandId: string; offset: number; rejected: boolean }[] = [];
  const bank = () => ({ parties: [p.parties.bank], userId: 'demo-admin' });

  const create = (commandId: string, actAs: string, issuer = actAs): wire.JsSubmitAndWaitForTransactionRequest => ({
    commands: {
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer, owner: issuer, currency: 'USD', amount: '5', observers: [] } } }],
      commandId,
      actAs: [actAs],
      userId: 'demo-admin',
    },
  });
  const ids = (cs: readonly Completion[]) => cs.map((c) => `${c.commandId}@${c.offset}`);
  /** Every completion of the selection after `after` in one read, newest first: what the pages must add up to. */
  const everything = async (after: number, end: number) => {
    const out: Completion[] = [];
    // In reads of the demo's list cap, each from the last offset read.
    for (let from = after, n = CAP; n === CAP; ) {
      n = 0;
      for await (const batch of client.streamCompletions(from, bank(), { idleTimeoutMs: 50, limit: CAP })) {
        for (const e of batch) (n++, (from = e.offset), e.kind === 'completion' && e.offset <= end && out.push(e.completion));
      }
    }
    return out.reverse();
  };

  before(async () => {
    p = await start({ apiVersion: '3.5', listCap: CAP, onExchange: (x) => x.path === '/v2/commands/completions' && x.status === 200 && reads.push({ empty: x.responseBody.trim() === '[]' }) });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
    // Twelve commands of the bank, each sent twice (a completion and a rejected duplicate), with the
    // others' transactions between them (offsets the bank's selection does not see).
    for (let i = 0; i < 12; i++) {
      const commandId = `pager-${i}`;
      const tx = await client.submitAndWaitForTransaction(create(commandId, p.parties.bank));
      bankCompletions.push({ commandId, offset: tx.transaction.offset, rejected: false });
      await client.submitAndWaitForTransaction(create(commandId, p.parties.bank)).catch(() => undefined);
      bankCompletions.push({ commandId, offset: p.state.ledgerEnd, rejected: true });
      await client.submitAndWaitForTransaction(create(`others-${i}`, p.parties.alice));
    }
  });
  after(() => p.close());

  it('pages back from the pinned end newest first, each completion once, until the ledger start', async () => {
    const end = p.state.ledgerEnd;
    const pager = new CompletionsPager(client, { selection: bank(), endInclusive: end, firstBeginExclusive: end - 6, window: 6, batchSize: 2, idleTimeoutMs: 50 });
    // Written after the pin: the live part's, never a page's.
    await client.submitAndWaitForTransaction(create('pager-after-pin', p.parties.bank));
    const pages: string[][] = [];
    while (!pager.complete) {
      const before = pager.completions.length;
      await pager.loadMore();
      pages.push(ids(pager.completions.slice(before)));
    }
    const all = ids(await everything(0, end));
    assert.deepEqual(ids(pager.completions), all, 'the pages add up to one read of everything up to the pin, newest first');
    assert.ok(!ids(pager.completions).some((s) => s.startsWith('pager-after-pin')), 'nothing after the pinned end');
    // The first page is the window the view asked for: the bank's completions in the last 6 offsets.
    assert.deepEqual(pages[0], all.filter((s) => Number(s.split('@')[1]) > end - 6));
    assert.ok(pages.length > 3, `pages of a window each (${pages.length})`);
    assert.equal(pager.range.beginExclusive, 0);
    assert.equal(await pager.loadMore(), 0, 'nothing after the last page');
  });

  it('reads over a quiet stretch in one page: empty windows widen, a bounded number of reads', async () => {
    const newest = (await everything(0, p.state.ledgerEnd))[0];
    // Others write; the bank's selection sees none of it.
    for (let i = 0; i < 40; i++) await client.submitAndWaitForTransaction(create(`quiet-${i}`, p.parties.alice));
    const end = p.state.ledgerEnd;
    const pager = new CompletionsPager(client, { selection: bank(), endInclusive: end, firstBeginExclusive: end - 2, window: 2, idleTimeoutMs: 50 });
    reads = [];
    const added = await pager.loadMore();
    // Four windows of two offsets would not reach back over forty: the windows widened.
    assert.ok(added > 0, "the page reached back over the quiet stretch to the bank's completions");
    const empty = reads.filter((r) => r.empty).length;
    assert.ok(empty >= 1 && empty <= 4, `${empty} reads found nothing`);
    assert.equal(ids(pager.completions)[0], `${newest.commandId}@${newest.offset}`, 'the newest completion first');
    assert.ok(pager.range.beginExclusive < newest.offset!);
  });

  it('stops at the pruning offset: nothing at or below it', async () => {
    const end = p.state.ledgerEnd;
    const pruned = bankCompletions[5].offset;
    const pager = new CompletionsPager(client, { selection: bank(), endInclusive: end, firstBeginExclusive: 0, prunedUpToInclusive: pruned, idleTimeoutMs: 50 });
    await pager.loadMore();
    assert.ok(pager.complete);
    assert.deepEqual(ids(pager.completions), ids(await everything(pruned, end)));
    assert.ok(pager.completions.every((c) => (c.offset ?? 0) > pruned));
    assert.equal(pager.range.beginExclusive, pruned);
  });

  it('a read larger than the participant\'s list cap (413) is read again in reads of the cap', async () => {
    const end = p.state.ledgerEnd;
    // The demo's cap is 5: reads of 200 are refused, then made of 5.
    const pager = new CompletionsPager(client, { selection: bank(), endInclusive: end, firstBeginExclusive: 0, batchSize: 200, idleTimeoutMs: 50 });
    await pager.loadMore();
    assert.equal(pager.completions.length, bankCompletions.length + 1);
    assert.deepEqual(ids(pager.completions), ids(await everything(0, end)));
  });

  it('a cancelled page rejects and adds nothing', async () => {
    const end = p.state.ledgerEnd;
    const pager = new CompletionsPager(client, { selection: bank(), endInclusive: end, firstBeginExclusive: 0, idleTimeoutMs: 50 });
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(pager.loadMore({ signal: abort.signal }));
    assert.equal(pager.completions.length, 0);
    assert.equal(pager.complete, false);
  });
});
