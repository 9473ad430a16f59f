// The live-follow helper that the Updates view's live tail and Failed Commands share: start after an
// offset (or one decided first), the state shown (starting, following, reconnecting, up to date,
// stopped), Retry from where it stood, pause and resume, and Cancel on stop and dispose. A scripted
// follower stands for the core's (followUpdates, followCompletions): the test drives its callbacks.
// Then the rule that keeps the helper the one loop: no view calls a core follower itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerClient } from '../../../src/core/api/client';
import { AuthError, NetworkError } from '../../../src/core/errors';
import type { Logger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { FollowBase, FollowPosition } from '../../../src/core/updates/tail';
import { LiveFollow } from '../../../src/vscode/kit/liveFollow';
import { pathUnder, sourceFiles } from '../../support/sourceFiles';

interface TestOptions extends FollowBase<{ offset: number }> {
  tag: string;
}

/** One run of the scripted follower: what it was given, and how the test ends it. */
interface Run {
  client: LedgerClient;
  options: TestOptions;
  fail(e: Error): void;
}

function setUp(mayRun?: () => boolean) {
  const runs: Run[] = [];
  const logged: string[] = [];
  let repaints = 0;
  const logger: Logger = { trace() {}, debug() {}, info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`), error: (m) => logged.push(`error ${m}`) };
  const follower = (client: LedgerClient, options: TestOptions) =>
    new Promise<FollowPosition>((resolve, reject) => {
      // As the core's followers do: an abort ends following, resolved with where it stood.
      options.signal.addEventListener('abort', () => resolve(options.from as FollowPosition));
      runs.push({ client, options, fail: reject });
    });
  const live = new LiveFollow<TestOptions>({ name: 'Test feed', follower, mayRun, changed: () => repaints++, logger, redactor: new Redactor() });
  const client = { name: 'client' } as unknown as LedgerClient;
  const run = (tag = 'first') => () => ({ client, options: { tag, onBatch() {} } });
  return { live, runs, logged, run, client, repaints: () => repaints };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('LiveFollow (the one live-follow loop of the views)', () => {
  it('follows after an offset; shows reconnecting while the core retries, then following again; up to date once the backlog is read', async () => {
    const { live, runs, logged, run, client, repaints } = setUp();
    void live.start(12, run());
    assert.equal(runs.length, 1);
    const [r] = runs;
    assert.equal(r.client, client);
    assert.equal(r.options.tag, 'first', "the view's own options reach the follower");
    assert.deepEqual(r.options.from, { offset: 12, seenAtOffset: Infinity });
    assert.deepEqual([live.status, live.running, live.fromOffset, live.caughtUp], [{ state: 'following' }, true, 12, false]);
    assert.ok(repaints() > 0);

    const error = new NetworkError('Could not reach the participant (ECONNRESET)', 'ECONNRESET', true);
    r.options.onStatus?.({ state: 'reconnecting', error, delayMs: 500 });
    assert.deepEqual(live.status, { state: 'reconnecting', error, delayMs: 500 });
    r.options.onStatus?.({ state: 'following' });
    assert.deepEqual(live.status, { state: 'following' });
    assert.match(logged[0], /^info Test feed: .*ECONNRESET.*; resuming in 500 ms$/);
    assert.equal(logged[1], 'info Test feed: following again');

    r.options.onCaughtUp?.({ offset: 14, seenAtOffset: 1 });
    assert.equal(live.caughtUp, true);
    live.dispose();
  });

  it('a failure that ends following: stopped with the error, logged once; Retry goes on from where it stood', async () => {
    const { live, runs, logged, run } = setUp();
    const following = live.start(40, run());
    const [first] = runs;
    const position = first.options.from as FollowPosition;
    // The core moves the position in place as elements arrive.
    position.offset = 45;
    position.seenAtOffset = 2;
    const expired = new AuthError(401, 'unauthenticated');
    first.fail(expired);
    await following;
    assert.deepEqual([live.status, live.running, live.canResume], [{ state: 'stopped', error: expired }, false, true]);
    assert.equal(logged.filter((l) => l.startsWith('warn')).length, 1);
    assert.match(logged.find((l) => l.startsWith('warn'))!, /^warn Test feed stopped: /);

    void live.resume();
    assert.equal(runs.length, 2);
    assert.equal(runs[1].options.from, position, 'the same position: no gap, no repeat');
    assert.deepEqual(runs[1].options.from, { offset: 45, seenAtOffset: 2 });
    assert.deepEqual(live.status, { state: 'following' });
    live.dispose();
  });

  it('a start decided first shows "starting"; a failure to decide stops it with the error and nothing to resume', async () => {
    const { live, runs, run } = setUp();
    let decide!: (offset: number) => void;
    const started = live.start(() => new Promise<number>((resolve) => (decide = resolve)), run());
    assert.deepEqual(live.status, { state: 'starting' });
    assert.equal(runs.length, 0);
    decide(7);
    await settle();
    assert.equal(await live.startOffset, 7);
    assert.deepEqual(runs[0].options.from, { offset: 7, seenAtOffset: Infinity });
    live.stop();
    await started;

    const refused = new NetworkError('Could not reach the participant (ECONNREFUSED)', 'ECONNREFUSED', false);
    await live.start(() => Promise.reject(refused), run());
    assert.deepEqual([live.status, live.canResume, await live.startOffset], [{ state: 'stopped', error: refused }, false, undefined]);
  });

  it('stop cancels: the read is aborted and what comes after lands nowhere; a stop while deciding runs nothing', async () => {
    const { live, runs, logged, run } = setUp();
    void live.start(3, run());
    const [r] = runs;
    live.stop();
    assert.equal(r.options.signal.aborted, true);
    assert.equal(live.running, false);
    r.options.onStatus?.({ state: 'reconnecting', error: new Error('late'), delayMs: 1 });
    r.fail(new Error('late failure'));
    await settle();
    assert.notEqual(live.status.state, 'reconnecting');
    assert.notEqual(live.status.state, 'stopped');
    assert.deepEqual(logged, []);

    let signal: AbortSignal | undefined;
    let decide!: (offset: number) => void;
    const started = live.start((s) => ((signal = s), new Promise<number>((resolve) => (decide = resolve))), run());
    live.stop();
    assert.equal(signal?.aborted, true, 'deciding is cancelled too');
    decide(9);
    await started;
    assert.equal(runs.length, 1, 'no run after the stop');
  });

  it('runs only while it may (a shown view): pause keeps where it stood, resume goes on from there, with the options of now', async () => {
    let shown = false;
    const { live, runs, client } = setUp(() => shown);
    let tag = 'first';
    void live.start(20, () => ({ client, options: { tag, onBatch() {} } }));
    assert.deepEqual([runs.length, live.running, live.status.state], [0, false, 'following']);
    shown = true;
    void live.resume();
    assert.equal(runs.length, 1);
    const position = runs[0].options.from;
    runs[0].options.onCaughtUp?.({ offset: 20, seenAtOffset: Infinity });
    live.pause();
    assert.deepEqual([runs[0].options.signal.aborted, live.running, live.caughtUp], [true, false, false]);
    tag = 'second';
    void live.resume();
    assert.equal(runs.length, 2);
    assert.equal(runs[1].options.from, position);
    assert.equal(runs[1].options.tag, 'second', 'what to read is asked again on resume (a new filter, a new client)');
    void live.resume();
    assert.equal(runs.length, 2, 'one run at a time');
    live.dispose();
    assert.equal(runs[1].options.signal.aborted, true, 'dispose cancels');
  });
});

const SRC_VSCODE = join(__dirname, '..', '..', '..', 'src', 'vscode');
const HELPER = join(SRC_VSCODE, 'kit', 'liveFollow.ts');
/** A call of a core follower by name: a loop of its own. */
const CALLS_A_FOLLOWER = /\bfollow(?:Updates|Completions|Elements)\s*\(/;

const rel = (f: string) => pathUnder(SRC_VSCODE, f);

describe('one live-follow loop', () => {
  it('finds a view that calls a core follower itself (the check can fail)', () => {
    assert.ok(CALLS_A_FOLLOWER.test('void followCompletions(connection.client, { selection, from, signal })'));
    assert.ok(!CALLS_A_FOLLOWER.test('follower: followCompletions,'));
  });

  it('no file of the glue calls a core follower itself: each hands it to the helper, which the Updates view and Failed Commands both use', () => {
    const files = sourceFiles(SRC_VSCODE).filter((f) => f !== HELPER);
    assert.deepEqual(files.filter((f) => CALLS_A_FOLLOWER.test(readFileSync(f, 'utf8'))).map(rel), []);
    const naming = files.filter((f) => /\bfollow(?:Updates|Completions)\b/.test(readFileSync(f, 'utf8'))).map(rel).sort();
    assert.deepEqual(naming, ['failures/failedCommandsView.ts', 'updates/updatesView.ts']);
    for (const f of naming) assert.match(readFileSync(join(SRC_VSCODE, f), 'utf8'), /new LiveFollow</, `${f} follows through the helper`);
  });
});
