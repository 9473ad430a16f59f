/**
 * Which version of a package name Canton will use for a set of parties on a connection, for the
 * editor (the template picker, completions and hovers): asked through the pre-flight's
 * `decideVersions` (one `preferred-packages` request per package name to the connection's
 * participant, which answers for the whole topology it knows; the network read only to explain a
 * refusal, or to decide where the participant cannot answer), and kept per (connection and the
 * ledger state it was asked in, parties, package name). Questions asked together go out together; a
 * question already on its way is joined, not asked again; a waiter that cancels stops waiting, and
 * the requests are aborted once nobody waits for them. The editor never waits here longer than it
 * wants: what is known now is `known()`, even while a newer answer is on its way.
 */
import { parse } from 'jsonc-parser';
import { CancelledError } from '../errors';
import { parseIdentifier } from '../daml/identifiers';
import { commandSites } from '../files/customChecks';
import { describeMissingVetting } from './explain';
import { describeNetworkProblem, type NetworkMember } from './model';
import { commandsFileParties, decideVersions, type PackageVerdict } from './preflight';
import type { PackageRef } from './preference';

export interface VersionQuestion {
  packageName: string;
  /** The file's `actAs` and `readAs`: every host of each must have vetted the version used. */
  parties: readonly string[];
  /** The highest version the asker knows: when Canton chooses a lower one, the answer names the hosts that lack it. */
  above?: string;
}

/** Who is asked, and what the answers depend on. */
export interface VersionScope {
  /** The connection's participant first (Canton is asked there), then the other participants of its network. */
  members: readonly NetworkMember[];
  /**
   * Names the connection and the ledger state its answers hold for (each member's vetting as last
   * read): a new key asks anew, and the answers of an old key are still `known()` until then.
   */
  key: string;
  /** The part of `key` that names the connection alone (without its ledger state): answers under an older state stay known under it. */
  connectionKey: string;
}

export interface VersionAnswer {
  verdict: PackageVerdict;
  /** Said for every answer of one request: Canton could not be asked and every host's vetting decided, what could not be read. */
  notes: string[];
  /** The participants asked, Canton's first. */
  askedOf: string[];
  /** When the answer came (ms since the epoch, from the clock given). */
  at: number;
  /** Whether it was asked under the scope's current key (false: an older ledger state's answer, shown until the new one comes). */
  current: boolean;
}

export interface PreferredVersionsOptions {
  /** How long an answer stays current: vetting changed by others (not through our connections) is seen after this. */
  maxAgeMs?: number;
  /** Each request's deadline, whoever waits. */
  timeoutMs?: number;
  /** Answers kept at most (the oldest go first). */
  maxEntries?: number;
  now?: () => number;
}

interface Batch {
  controller: AbortController;
  /** Callers waiting on it: when the last one cancels, the requests are aborted. */
  waiters: number;
  done: Promise<Map<string, Omit<VersionAnswer, 'current'>>>;
}

interface Kept {
  answer: Omit<VersionAnswer, 'current'>;
  scopeKey: string;
  /** The order its request started in: an older request's answer, arriving late, does not replace a newer one's. */
  asked: number;
}

export class PreferredVersions {
  /** By connection key and question: the newest answer, whichever ledger state it was asked in. */
  private readonly kept = new Map<string, Kept>();
  private readonly inFlight = new Map<string, Batch>();
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private disposed = false;
  private requests = 0;

  constructor(options: PreferredVersionsOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 500;
    this.now = options.now ?? Date.now;
  }

  /** The newest answer to `question` on the scope's connection, current or not; undefined when never asked. Never waits. */
  known(scope: VersionScope, question: VersionQuestion): VersionAnswer | undefined {
    const kept = this.kept.get(keyOf(scope.connectionKey, question));
    return kept && { ...kept.answer, current: this.isCurrent(scope, kept) };
  }

  /**
   * The answers to `questions` (in their order): the current ones known, the others asked, all those
   * not on their way already in one go (one request per package name). `signal` stops this wait;
   * the requests go on while another caller waits for them.
   */
  async answer(scope: VersionScope, questions: readonly VersionQuestion[], o: { signal?: AbortSignal } = {}): Promise<VersionAnswer[]> {
    if (o.signal?.aborted || this.disposed) throw new CancelledError();
    const keys = questions.map((q) => keyOf(scope.connectionKey, q));
    const waitingOn = new Set<Batch>();
    const toAsk = new Map<string, VersionQuestion>();
    questions.forEach((q, i) => {
      const kept = this.kept.get(keys[i]);
      if (kept && this.isCurrent(scope, kept)) return;
      const running = this.inFlight.get(flightKey(scope, keys[i]));
      // One its last waiter cancelled is on its way out: asked anew.
      if (running && !running.controller.signal.aborted) waitingOn.add(running);
      else toAsk.set(keys[i], q);
    });
    if (toAsk.size > 0) waitingOn.add(this.ask(scope, toAsk));
    const batches = [...waitingOn];
    for (const b of batches) b.waiters++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      for (const b of batches) if (--b.waiters === 0) b.controller.abort();
    };
    try {
      await waitUnlessAborted(Promise.all(batches.map((b) => b.done)), o.signal, leave);
    } finally {
      // Done waiting (answered, or failed): nobody is left to cancel these requests for this caller.
      if (!left) {
        left = true;
        for (const b of batches) b.waiters--;
      }
    }
    return questions.map((q, i) => {
      const kept = this.kept.get(keys[i]);
      if (!kept) throw new CancelledError();
      return { ...kept.answer, current: this.isCurrent(scope, kept) };
    });
  }

  /** Aborts what is on its way and forgets every answer. */
  dispose(): void {
    this.disposed = true;
    for (const b of this.inFlight.values()) b.controller.abort();
    this.inFlight.clear();
    this.kept.clear();
  }

  private isCurrent(scope: VersionScope, kept: Kept): boolean {
    return kept.scopeKey === scope.key && this.now() - kept.answer.at < this.maxAgeMs;
  }

  private ask(scope: VersionScope, questions: Map<string, VersionQuestion>): Batch {
    const controller = new AbortController();
    const asked = ++this.requests;
    const entries = [...questions];
    const groups = entries.map(([, q]) => ({ packageName: q.packageName, parties: new Set(q.parties), above: q.above }));
    const askedOf = scope.members.map((m) => m.label);
    const done = decideVersions(groups, scope.members, { signal: controller.signal, timeoutMs: this.timeoutMs }).then((decided) => {
      const notes = [...decided.notes, ...decided.unanswered.map((p) => `Not checked against ${p.member}: ${describeNetworkProblem(p)}.`)];
      const at = this.now();
      const answers = new Map(entries.map(([key], i) => [key, { verdict: decided.verdicts[i], notes, askedOf, at }]));
      if (!this.disposed) for (const [key, answer] of answers) this.keep(key, { answer, scopeKey: scope.key, asked });
      return answers;
    });
    const batch: Batch = { controller, waiters: 0, done };
    for (const key of questions.keys()) this.inFlight.set(flightKey(scope, key), batch);
    const settled = () => {
      for (const key of questions.keys()) if (this.inFlight.get(flightKey(scope, key)) === batch) this.inFlight.delete(flightKey(scope, key));
    };
    done.then(settled, settled);
    return batch;
  }

  private keep(key: string, kept: Kept): void {
    const before = this.kept.get(key);
    if (before && before.asked > kept.asked) return;
    this.kept.delete(key);
    this.kept.set(key, kept);
    while (this.kept.size > this.maxEntries) this.kept.delete(this.kept.keys().next().value!);
  }
}

function keyOf(connectionKey: string, q: VersionQuestion): string {
  return JSON.stringify([connectionKey, q.packageName, [...new Set(q.parties)].sort(), q.above ?? null]);
}

/** A question on its way is joined only when asked in the same ledger state. */
function flightKey(scope: VersionScope, key: string): string {
  return `${scope.key}\u0000${key}`;
}

/** `p`, or a CancelledError (after `onAbort`) as soon as `signal` aborts. */
function waitUnlessAborted<T>(p: Promise<T>, signal: AbortSignal | undefined, onAbort: () => void): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    const aborted = () => {
      onAbort();
      reject(new CancelledError());
    };
    signal.addEventListener('abort', aborted, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}

// ---------------------------------------------------------------- for people

/** An answer in words: a headline (the version, or that none fits) and why. */
export interface VersionWords {
  /** `ok`: the version Canton will use; `fails`: none fits (commands using the name will fail); `unknown`: it could not be told. */
  verdict: 'ok' | 'fails' | 'unknown';
  /** The version chosen (ok only). */
  chosen?: PackageRef;
  /** One line: "Canton will use demo-iou 1.0.0 for Alice, Bob". */
  headline: string;
  /** Sentences: how it was decided, or what keeps the parties from a version, host by host. */
  why: string[];
}

export function partyNames(parties: readonly string[]): string {
  return parties.map((p) => p.split('::', 1)[0]).join(', ') || 'no party';
}

export function describeVersionAnswer(answer: VersionAnswer): VersionWords {
  const v = answer.verdict;
  const who = partyNames(v.parties);
  const asked = answer.askedOf[0] ?? 'the participant';
  const stale = answer.current ? [] : ['(Asked before the last vetting change or a while ago: asking again.)'];
  switch (v.verdict) {
    case 'ok': {
      const how =
        v.source === 'canton'
          ? `Canton's answer (preferred-packages on ${asked}): the highest version vetted by every participant hosting ${who}.`
          : v.source === 'vetting'
            ? `Computed from every host's vetting, as Canton would choose it: ${asked} cannot answer preferred-packages.`
            : `Named by package id: every host of ${who} has vetted it.`;
      const verb = v.source === 'vetting' ? 'would use' : 'will use';
      return { verdict: 'ok', chosen: v.chosen, headline: `Canton ${verb} ${v.packageName} ${v.chosen.packageVersion} for ${who}`, why: [how, ...v.notes, ...answer.notes.filter((n) => v.source !== 'vetting' || !/cannot answer preferred-packages/.test(n)), ...stale] };
    }
    case 'fails': {
      const why = v.missing.length > 0 ? v.missing.map(describeMissingVetting) : [v.cause ?? `${asked} found none.`];
      return { verdict: 'fails', headline: `No version of ${v.packageName} is vetted by every participant hosting ${who}: commands using it will fail`, why: [...why, ...v.notes, ...stale] };
    }
    case 'unchecked':
      return { verdict: 'unknown', headline: `Which version of ${v.packageName} Canton will use for ${who} could not be told`, why: [...v.problems.map(describeNetworkProblem), ...v.notes, ...answer.notes, ...stale] };
  }
}

// ---------------------------------------------------------------- what a file asks

/** The parties and the package names (of its package-name form `templateId`s) of a commands file being edited (read leniently: it may be half typed). */
export function commandsFileQuestions(text: string): { parties: string[]; packageNames: string[] } {
  const value: unknown = parse(text, [], { allowTrailingComma: true });
  const names = new Set<string>();
  for (const site of commandSites(value)) {
    const id = typeof site.command.templateId === 'string' ? parseIdentifier(site.command.templateId) : undefined;
    if (id?.form === 'package-name') names.add(id.packageName);
  }
  // A party still to fill in (`<party-id::1220…>`, angle brackets) is no one to ask about.
  return { parties: commandsFileParties(value).filter((p) => !p.startsWith('<')), packageNames: [...names] };
}
