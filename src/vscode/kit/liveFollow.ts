import type * as vscode from 'vscode';
import type { LedgerClient } from '../../core/api/client';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { startingPosition, type FollowBase, type FollowPosition, type FollowStatus } from '../../core/updates/tail';
import { recordFailure } from './prompts';

/** What following shows: deciding where to start, following (or quiet, or reconnecting after a failure), or stopped by one. */
export type LiveStatus = { state: 'starting' } | FollowStatus | { state: 'stopped'; error: unknown };

/** The options of a core follower that the helper sets itself. */
type HelperOptions = 'from' | 'signal' | 'onStatus' | 'onCaughtUp';

/** What one start follows: the client and the follower's own options (the selection, what to do with a batch). */
export interface LiveRun<Options extends FollowBase<never>> {
  client: LedgerClient;
  options: Omit<Options, HelperOptions>;
}

export interface LiveFollowOptions<Options extends FollowBase<never>> {
  /** How the log names it ("Live tail"). */
  name: string;
  /** The core's follower (`followUpdates`, `followCompletions`): the one loop, with its resume policy and backoff. */
  follower(client: LedgerClient, options: Options): Promise<FollowPosition>;
  /** Whether following may run now (the view is shown, its connection connected); default: always. */
  mayRun?(): boolean;
  /** Repaints what shows the state. */
  changed(): void;
  logger: Logger;
  redactor: Redactor;
}

/**
 * Following a live feed from a view (the Updates view's live tail, Failed Commands' new completions):
 * start after an offset (or one decided first), the state to show (starting, following, quiet,
 * reconnecting with the core's backoff, up to date, stopped by a failure), pause and resume from where
 * it stood (no gap, no repeat), Retry after a failure, stop on a reset or another connection, and
 * nothing left running after dispose. The loop itself is the core's (`core/updates/tail.ts`).
 */
export class LiveFollow<Options extends FollowBase<never>> implements vscode.Disposable {
  private current: LiveStatus = { state: 'starting' };
  private controller: AbortController | undefined;
  private run: (() => LiveRun<Options>) | undefined;
  private from: FollowPosition | undefined;
  private startedAfter: number | undefined;
  private upToDate = false;
  private decided: Promise<number | undefined> = Promise.resolve(undefined);

  constructor(private readonly o: LiveFollowOptions<Options>) {}

  get status(): LiveStatus {
    return this.current;
  }

  /** True while a read runs (or the start is being decided). */
  get running(): boolean {
    return this.controller !== undefined;
  }

  /** After which offset following began (once decided). */
  get fromOffset(): number | undefined {
    return this.startedAfter;
  }

  /** Where the start was decided to be (undefined when deciding failed or was stopped). */
  get startOffset(): Promise<number | undefined> {
    return this.decided;
  }

  /** Where following stands: moved in place past each element delivered; a resume goes on from here. */
  get position(): FollowPosition | undefined {
    return this.from;
  }

  /** True once the participant's backlog is read since following (re)started. */
  get caughtUp(): boolean {
    return this.upToDate;
  }

  /** True after a failure stopped following: Retry goes on from where it stood. */
  get canResume(): boolean {
    return this.current.state === 'stopped' && this.from !== undefined;
  }

  /**
   * Follows after `from`: an offset, or one decided first with the signal that a stop aborts
   * (shown as starting meanwhile). `run` says what each run reads; it is asked again on every resume.
   * Resolves when following ends (stopped, paused, or failed).
   */
  start(from: number | ((signal: AbortSignal) => Promise<number>), run: () => LiveRun<Options>): Promise<void> {
    this.stop();
    this.run = run;
    if (typeof from === 'number') {
      this.decided = Promise.resolve(from);
      this.begin(from);
      return this.resume();
    }
    const controller = new AbortController();
    this.controller = controller;
    this.current = { state: 'starting' };
    const deciding = from(controller.signal);
    this.decided = deciding.then(
      (offset) => (controller.signal.aborted ? undefined : offset),
      () => undefined,
    );
    return deciding.then(
      (offset) => {
        if (controller.signal.aborted) return;
        this.controller = undefined;
        this.begin(offset);
        return this.resume();
      },
      (e: unknown) => this.failed(controller, e),
    );
  }

  /** Goes on from where following stands (after a pause or a failure), if it may run now. */
  resume(): Promise<void> {
    const run = this.run;
    const from = this.from;
    if (this.controller || !run || !from || !(this.o.mayRun?.() ?? true)) return Promise.resolve();
    const controller = new AbortController();
    this.controller = controller;
    this.current = { state: 'following' };
    this.o.changed();
    const { client, options } = run();
    const following = this.o.follower(client, {
      ...options,
      from,
      signal: controller.signal,
      onStatus: (s: FollowStatus) => this.statusChanged(controller, s),
      onCaughtUp: () => this.caughtUpNow(controller),
    } as unknown as Options);
    return following.then(
      () => {
        if (this.controller === controller) this.controller = undefined;
      },
      (e: unknown) => this.failed(controller, e),
    );
  }

  /** Stops reading and keeps where it stands: `resume` goes on from there. */
  pause(): void {
    if (!this.controller) return;
    this.controller.abort();
    this.controller = undefined;
    this.upToDate = false;
  }

  /** Stops and forgets where it stood; nothing read after lands. */
  stop(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.run = undefined;
    this.from = undefined;
    this.startedAfter = undefined;
    this.upToDate = false;
    this.current = { state: 'starting' };
  }

  dispose(): void {
    this.stop();
  }

  private begin(offset: number): void {
    this.startedAfter = offset;
    this.from = startingPosition(offset);
    this.current = { state: 'following' };
  }

  private statusChanged(controller: AbortController, s: FollowStatus): void {
    if (controller.signal.aborted) return;
    this.current = s;
    if (s.state === 'reconnecting') this.o.logger.info(`${this.o.name}: ${this.o.redactor.redactError(s.error)}; resuming in ${s.delayMs} ms`);
    else if (s.state === 'following') this.o.logger.info(`${this.o.name}: following again`);
    this.o.changed();
  }

  private caughtUpNow(controller: AbortController): void {
    if (controller.signal.aborted || this.upToDate) return;
    this.upToDate = true;
    this.o.changed();
  }

  /** A failure ended following (not a stop): shown with Retry, which resumes. */
  private failed(controller: AbortController, e: unknown): void {
    if (controller.signal.aborted) return;
    if (this.controller === controller) this.controller = undefined;
    this.current = { state: 'stopped', error: e };
    recordFailure(this.o.logger, this.o.redactor, `${this.o.name} stopped`, e);
    this.o.changed();
  }
}
