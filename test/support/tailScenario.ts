// The live tail's test scenarios, shared by the polling and the websocket suites: follow until a
// condition holds, and "cuts while the ledger grows" (the 0-gap/0-duplicate guarantee of either source).
import assert from 'node:assert/strict';
import { LedgerClient } from '../../src/core/api/client';
import type { Update } from '../../src/core/models/updates';
import { followUpdates, type FollowOptions, type FollowSource } from '../../src/core/updates/tail';
import type { DemoParticipant } from '../../src/participant';
import type { FaultProxy } from './faultProxy';

export const ANY = { filter: { anyParty: true } } as const;
/** An update's place in the ledger: what "no gap, no duplicate, in order" is judged on. */
export const updateKey = (u: { offset?: number; kind: string }) => `${u.offset}/${u.kind}`;
/** The keys of the demo ledger's entries after an offset (what a follower from there must deliver). */
export const ledgerAfter = (p: DemoParticipant, after: number) => p.state.entries.filter((e) => e.offset > after).map(updateKey);

/** Follows until `until` holds (or the guard, default 15 s, passes); what was delivered and the sources reported. */
export async function follow(client: LedgerClient, o: Partial<FollowOptions> & { from: number; until: (got: Update[]) => boolean; guardMs?: number }) {
  const got: Update[] = [];
  const sources: FollowSource[] = [];
  const stop = new AbortController();
  const { until, guardMs, ...rest } = o;
  const guard = setTimeout(() => stop.abort(), guardMs ?? 15_000);
  const done = followUpdates(client, {
    selection: ANY,
    signal: stop.signal,
    idleTimeoutMs: 50,
    retryDelayMs: () => 1,
    onSource: (s) => sources.push(s),
    onBatch: (b) => {
      got.push(...b);
      if (until(got)) stop.abort();
    },
    ...rest,
  });
  try {
    const position = await done;
    return { got, sources, position };
  } finally {
    clearTimeout(guard);
  }
}

export interface CutsScenario {
  participant: DemoParticipant;
  /** The proxy between the client and the participant, with the cut rule already added (`times: cuts`). */
  proxy: FaultProxy;
  source: 'polling' | 'websocket';
  /** The proxy's fault kind that counts the cuts. */
  cutKind: 'cut-body' | 'cut-socket';
  cuts: number;
  writes: number;
  /** Options of the follower beyond the defaults (batch size, …). */
  follow?: Partial<Omit<FollowOptions, 'from' | 'source' | 'signal' | 'onBatch'>>;
}

/**
 * Follows through `cuts` connection cuts while `writes` transactions are written, and asserts what
 * either source guarantees: every cut noticed, every transaction delivered, no duplicate, no gap, in
 * ledger order. Twenty transactions are written per cut, so the cuts fall while writing whatever the
 * machine's speed; past `writes` only while cuts are still due (a cut needs bytes to cut), bounded.
 */
export async function followThroughCuts(s: CutsScenario): Promise<{ got: Update[]; sources: FollowSource[] }> {
  const { participant: p, proxy } = s;
  const client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 10_000 });
  const start = p.state.ledgerEnd;
  const cutsDone = () => (proxy.fired[s.cutKind] ?? 0) === s.cuts;
  let written = 0;
  const writer = setInterval(() => {
    if ((written >= s.writes && cutsDone()) || written >= 2 * s.writes) return clearInterval(writer);
    if (written >= s.writes || written < ((proxy.fired[s.cutKind] ?? 0) + 1) * 20) {
      p.state.appendSynthetic(20, { checkpointEvery: 4 });
      written += 20;
    }
  }, 5);
  let reconnects = 0;
  try {
    const { got, sources } = await follow(client, {
      from: start,
      source: s.source,
      guardMs: 100_000,
      onStatus: (st) => st.state === 'reconnecting' && reconnects++,
      until: (g) => written >= s.writes && cutsDone() && g.length >= ledgerAfter(p, start).length,
      ...s.follow,
    });
    assert.equal(proxy.fired[s.cutKind], s.cuts, 'every cut was injected');
    assert.ok(reconnects >= s.cuts, `each cut was noticed (${reconnects})`);
    const keys = got.map(updateKey);
    assert.ok(got.filter((u) => u.kind === 'transaction').length >= s.writes, `the transactions were followed (${written} written)`);
    assert.equal(new Set(keys).size, keys.length, '0 duplicates');
    const want = ledgerAfter(p, start);
    const at = want.findIndex((k, i) => keys[i] !== k);
    assert.deepEqual(keys, want, `0 gaps, in ledger order (first difference at ${at}: ${keys.slice(at - 2, at + 3)} vs ${want.slice(at - 2, at + 3)}; ${keys.length} vs ${want.length})`);
    return { got, sources };
  } finally {
    clearInterval(writer);
  }
}
