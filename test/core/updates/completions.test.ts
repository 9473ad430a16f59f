// Command completions: the demo participant's (what gets one, and a rejection's status shaped as
// Canton's), the client's read of them on each release, and following them with the updates' resume policy.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { failureFromStatus } from '../../../src/core/cantonFailure';
import { locateCause } from '../../../src/core/errorCauses';
import { CantonApiError, UnsupportedOperationError } from '../../../src/core/errors';
import type { CompletionElement } from '../../../src/core/models/completions';
import type * as wire from '../../../src/core/models/wire';
import { followCompletions, type FollowPosition } from '../../../src/core/updates/tail';
import type { DemoParticipant } from '../../../src/participant';
import { start } from '../../participant/helpers';

const IOU = '#demo-iou:Iou:Iou';

describe('command completions', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  const sent: string[] = [];
  before(async () => {
    p = await start({ apiVersion: '3.5', onExchange: (x) => sent.push(x.path) });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  after(() => p.close());

  const create = (commandId: string, owner = p.parties.alice): wire.JsSubmitAndWaitForTransactionRequest => ({
    commands: {
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner, currency: 'USD', amount: '5', observers: [] } } }],
      commandId,
      actAs: [p.parties.bank],
      userId: 'demo-admin',
    },
  });
  const read = async (beginExclusive: number, selection = { parties: [p.parties.bank], userId: 'demo-admin' }) => {
    const out: CompletionElement[] = [];
    for await (const batch of client.streamCompletions(beginExclusive, selection, { idleTimeoutMs: 50 })) out.push(...batch);
    return out;
  };

  it('a committed command has a completion with its update id; a duplicate has a rejected one shaped as Canton writes it, at an offset of its own', async () => {
    const before = p.state.ledgerEnd;
    const tx = await client.submitAndWaitForTransaction(create('cmpl-dup-1'));
    await assert.rejects(client.submitAndWaitForTransaction(create('cmpl-dup-1')), (e) => e instanceof CantonApiError && e.code === 'DUPLICATE_COMMAND');
    assert.equal(p.state.ledgerEnd, tx.transaction.offset + 1, 'the rejection took the next offset');

    const [ok, rejected, ...rest] = await read(before);
    assert.equal(rest.length, 0);
    assert.ok(ok.kind === 'completion' && rejected.kind === 'completion');
    assert.equal(ok.completion.updateId, tx.transaction.updateId);
    assert.equal(ok.completion.status, undefined);
    assert.deepEqual([rejected.offset, rejected.completion.commandId, rejected.completion.actAs], [tx.transaction.offset + 1, 'cmpl-dup-1', [p.parties.bank]]);

    const f = failureFromStatus(rejected.completion.raw.status);
    assert.ok(f);
    assert.equal(f.code, 'DUPLICATE_COMMAND');
    assert.equal(f.category, 10);
    assert.equal(f.grpcCode, 6);
    assert.equal(f.metadata.completion_offset, String(tx.transaction.offset));
    assert.match(f.cause, /already been successfully processed/);
    // The demo sends the details as protobuf bytes only (the specs type valueDecoded a string): they carry the code and context.
    assert.ok((rejected.completion.raw.status!.details as Array<Record<string, unknown>>).every((d) => typeof d.value === 'string' && !('valueDecoded' in d)));
    // Go to Cause for a duplicate marks the commandId.
    const text = JSON.stringify(create('cmpl-dup-1'), null, 2);
    assert.equal(locateCause(f, text)!.what, 'commandId');
  });

  it('a command that fails while interpreted (an archived contract) has no completion: Canton answers it to the submitter only', async () => {
    const before = p.state.ledgerEnd;
    const exercise: wire.JsSubmitAndWaitForTransactionRequest = {
      commands: { commands: [{ ExerciseCommand: { templateId: IOU, contractId: `00${'77'.repeat(33)}`, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } }], commandId: 'cmpl-missing', actAs: [p.parties.alice], userId: 'demo-admin' },
    };
    await assert.rejects(client.submitAndWaitForTransaction(exercise), (e) => e instanceof CantonApiError && e.code === 'CONTRACT_NOT_FOUND');
    assert.equal(p.state.ledgerEnd, before);
    assert.deepEqual(await read(before, { parties: [p.parties.alice], userId: 'demo-admin' }), []);
  });

  it('another user or parties outside actAs do not see them; every user\'s (command-completions) do', async () => {
    const before = p.state.ledgerEnd;
    await client.submitAndWaitForTransaction(create('cmpl-vis-1'));
    assert.equal((await read(before, { parties: [p.parties.alice], userId: 'demo-admin' })).length, 0);
    assert.equal((await read(before, { parties: [p.parties.bank], userId: 'someone-else' })).length, 0);
    const all = await read(before, { parties: [], allUsers: true } as never);
    assert.deepEqual(all.map((e) => e.kind === 'completion' && e.completion.commandId), ['cmpl-vis-1']);
  });

  it('says when the backlog is read: caught up once every completion before it was delivered', async () => {
    await client.submitAndWaitForTransaction(create('cmpl-backlog'));
    const seen: string[] = [];
    const stop = new AbortController();
    const caughtUp = await new Promise<string[]>((resolve) => {
      void followCompletions(client, {
        selection: { parties: [p.parties.bank], userId: 'demo-admin' },
        from: 0,
        signal: stop.signal,
        idleTimeoutMs: 50,
        onBatch: (batch) => {
          for (const e of batch) if (e.kind === 'completion') seen.push(e.completion.commandId);
        },
        onCaughtUp: () => resolve([...seen]),
      });
    });
    stop.abort();
    assert.ok(caughtUp.includes('cmpl-backlog'), 'the backlog was delivered before caught up was said');
  });

  it('follows new completions live, and resumes from its position with no gap and no repeat', async () => {
    const from = p.state.ledgerEnd;
    const seen: string[] = [];
    const first = new AbortController();
    const got = new Promise<void>((resolve) => {
      void followCompletions(client, {
        selection: { parties: [p.parties.bank], userId: 'demo-admin' },
        from,
        signal: first.signal,
        idleTimeoutMs: 50,
        onBatch: (batch) => {
          for (const e of batch) if (e.kind === 'completion') seen.push(`${e.completion.commandId}${e.completion.status ? ' rejected' : ''}`);
          if (seen.length === 2) resolve();
        },
      }).then((pos) => (position = pos));
    });
    let position: FollowPosition | undefined;
    await client.submitAndWaitForTransaction(create('cmpl-live-1'));
    await client.submitAndWaitForTransaction(create('cmpl-live-1')).catch(() => undefined);
    await got;
    first.abort();
    await new Promise((r) => setTimeout(r, 0));
    while (!position) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(seen, ['cmpl-live-1', 'cmpl-live-1 rejected']);

    // Resumed from where it stood: only what came after.
    await client.submitAndWaitForTransaction(create('cmpl-live-2'));
    const again: string[] = [];
    const second = new AbortController();
    await new Promise<void>((resolve) => {
      void followCompletions(client, {
        selection: { parties: [p.parties.bank], userId: 'demo-admin' },
        from: position!,
        signal: second.signal,
        idleTimeoutMs: 50,
        onBatch: (batch) => {
          for (const e of batch) if (e.kind === 'completion') again.push(e.completion.commandId);
          resolve();
        },
      });
    });
    second.abort();
    assert.deepEqual(again, ['cmpl-live-2']);
  });

  for (const apiVersion of ['3.3', '3.4.11'] as const) {
    it(`${apiVersion}: the completions read as that release's spec has them (its required fields, deduplicationPeriod among them)`, async () => {
      const old = await start({ apiVersion });
      try {
        const c = new LedgerClient({ baseUrl: old.url, timeoutMs: 10_000 });
        const body = { commands: { ...create('cmpl-old-1').commands, actAs: [old.parties.bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: old.parties.bank, owner: old.parties.alice, currency: 'USD', amount: '5', observers: [] } } }] } };
        await c.submitAndWaitForTransaction(body);
        await assert.rejects(c.submitAndWaitForTransaction(body), (e) => e instanceof CantonApiError && e.code === 'DUPLICATE_COMMAND');
        const got: CompletionElement[] = [];
        for await (const batch of c.streamCompletions(0, { parties: [old.parties.bank], userId: 'demo-admin' }, { idleTimeoutMs: 50 })) got.push(...batch);
        assert.deepEqual(got.map((e) => e.kind === 'completion' && failureFromStatus(e.completion.raw.status)?.code), [undefined, 'DUPLICATE_COMMAND']);
      } finally {
        await old.close();
      }
    });
  }

  it('every user\'s completions on a release without command-completions: refused before any request for them', async () => {
    const old = await start({ apiVersion: '3.4', onExchange: (x) => sent.push(x.path) });
    try {
      const c = new LedgerClient({ baseUrl: old.url, timeoutMs: 10_000 });
      sent.length = 0;
      await assert.rejects(
        followCompletions(c, { selection: { parties: [], allUsers: true }, from: 0, signal: new AbortController().signal, onBatch: () => undefined }),
        (e) => e instanceof UnsupportedOperationError,
      );
      assert.ok(!sent.some((path) => path.includes('completions')), sent.join(', '));
    } finally {
      await old.close();
    }
  });
});
