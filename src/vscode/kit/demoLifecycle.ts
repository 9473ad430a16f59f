import type * as vscode from 'vscode';

/** What a {@link DemoLifecycle} runs: a demo participant, a demo network. */
export interface DemoProcess<T> {
  /** Starts it (a stop in progress has finished first). */
  launch(): Promise<T>;
  /**
   * What the window does with it once it runs (its connections, its context keys). It counts as running
   * from the moment `launch` resolves, so that a failure here, or a halt meanwhile, shuts it down.
   */
  setUp?(running: T): Promise<void>;
  /** Stops it: `userStop` when the user stopped it, false when the window closes or the demo restarts. */
  shutDown(running: T, userStop: boolean): Promise<void>;
  /** What the window keeps of a run (`true`, or what a restart needs, such as its ports); absent: nothing. */
  remember?(running: T): unknown;
}

/**
 * The start-once and stop pattern of the demos the extension host runs (the demo participant, the demo
 * network): a second start while one runs or starts is the same one; a stop halts it at once (a start
 * right after it waits for it, since the stopping demo may still be saving); the window remembers that
 * it ran (workspace state, under `ranKey`) until the user stops it, so that it comes back after a
 * window reload, which ends the extension host and the demo with it.
 */
export class DemoLifecycle<T> {
  private running: T | undefined;
  private starting: Promise<T> | undefined;
  private stopping: Promise<void> | undefined;
  /** Counts the halts: a launch that sees it change was halted while it started. */
  private halts = 0;
  private settingUp: Promise<void> | undefined;

  constructor(
    private readonly process: DemoProcess<T>,
    private readonly windowState: vscode.Memento | undefined,
    private readonly ranKey: string,
  ) {}

  get current(): T | undefined {
    return this.running;
  }

  /** What the window kept of the run that was going when it last closed or reloaded (and was not stopped); undefined: none. */
  get ranWhenClosed(): unknown {
    return this.windowState?.get<unknown>(this.ranKey);
  }

  start(): Promise<T> {
    if (this.running) return Promise.resolve(this.running);
    // The halts are counted from the call, not from the launch: a halt in between (the window closing
    // as it opens) must stop this start too.
    this.starting ??= this.launch(this.halts).finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Resolves once a start in progress has finished (or failed). */
  async whenStarted(): Promise<void> {
    await this.starting?.catch(() => undefined);
  }

  private async launch(halts: number): Promise<T> {
    await this.stopping;
    if (this.halts !== halts) throw new DemoHaltedError();
    const running = await this.process.launch();
    // Running from here on, so that whatever fails next, or a halt that came while it started (the
    // window closing), shuts it down instead of leaving it listening.
    this.running = running;
    if (this.halts !== halts) {
      void this.halt(false);
      throw new DemoHaltedError();
    }
    // A halt meanwhile waits for the set-up, so that it does not undo half of it.
    const setUp = this.process.setUp?.(running);
    this.settingUp = setUp;
    try {
      await setUp;
    } catch (e) {
      if (this.running === running) await this.halt(false);
      throw e;
    } finally {
      this.settingUp = undefined;
    }
    // A halt during the set-up has already taken it out of `running` (and shuts it down after the set-up).
    if (this.running !== running) throw new DemoHaltedError();
    await this.windowState?.update(this.ranKey, this.process.remember ? this.process.remember(running) : true);
    return running;
  }

  /** The user's stop: the window forgets the demo. Resolves once it has stopped. */
  async stop(): Promise<void> {
    // Halted first, at once: a start right after this stop must wait for it, not find the demo running.
    const halted = this.halt(true);
    await this.windowState?.update(this.ranKey, undefined);
    return halted;
  }

  /** Stops it without the window forgetting it (a window closing, a restart). */
  halt(userStop: boolean): Promise<void> {
    this.halts++;
    const running = this.running;
    if (!running) return this.whenStopped();
    this.running = undefined;
    const setUp = this.settingUp ?? Promise.resolve();
    this.stopping = setUp
      .catch(() => undefined)
      .then(() => this.process.shutDown(running, userStop))
      .finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  /** Resolves once a stop in progress has finished. */
  whenStopped(): Promise<void> {
    return this.stopping ?? Promise.resolve();
  }
}

/** A start that was stopped before it finished (a stop, a restart, the window closing). */
export class DemoHaltedError extends Error {
  constructor() {
    super('The demo was stopped while it started.');
    this.name = 'DemoHaltedError';
  }
}
