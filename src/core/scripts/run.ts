/**
 * Runs a ledger script against a connection: checks it (refused before anything is sent when it has
 * an error), resolves the party aliases (allocating the fresh ones), then runs the steps in order over
 * the one submission and write path (`core/submit`, `LedgerConnection.write`), checks each step's
 * expectations, binds its captures, and stops at the first step that fails, whose outcome is unknown,
 * or that a cancel stopped. Nothing is re-sent by itself. The editor's Test Explorer and the CLI's
 * `test` both call this, so they reach the same results.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LedgerClient } from '../api/client';
import type { UpdateFilter } from '../api/updatesRequest';
import type { DarContents } from '../daml/lf/archive';
import { parseIdentifier } from '../daml/identifiers';
import { AuthError, CancelledError, CantonApiError, LedgerError } from '../errors';
import { commandSites } from '../files/customChecks';
import { isJsonObject, JsonDocument } from '../files/jsonDocument';
import { stringifyJson } from '../json';
import type { ArgumentContext } from '../files/argumentChecks';
import { commandsValuePasses, startValidation, validateText, type Problem } from '../files/validate';
import type { LedgerConnection, WriteOptions } from '../ledger/connection';
import type { CreatedEvent, Transaction } from '../models/updates';
import type * as wire from '../models/wire';
import { darUploadIsThere, darUploadLookUpText, uploadDarWithReport } from '../submit/darUpload';
import { transactionSummary } from '../submit/outcome';
import { prepareRequestOf, submissionOf, submit, type CommandsFileValue, type SubmissionOutcome } from '../submit/submission';
import { sendVetting, vettingRequestOf } from '../submit/vetting';
import { FileRefusedError, MAX_DAR_BYTES, MAX_JSON_FILE_BYTES } from '../localFile';
import { resolveAliases } from './check';
import { MessagePatterns } from './messagePattern';
import { substitutedCommandsPass } from './recheck';
import { aliasOfPartyRef, interpolate, positionOf, scriptCommandId, scriptOf, type CaptureSpec, type ContractCount, type ScriptStep, type StepExpectations, type StepKind } from './script';

export type StepStatus = 'passed' | 'failed' | 'unknown' | 'not-run';

/** An expectation that did not hold, or why a step could not do its work; `pointer` places it in the file. */
export interface StepFailure {
  message: string;
  pointer: string;
  expected?: string;
  actual?: string;
}

export interface StepResult {
  index: number;
  name: string;
  kind: ScriptStep['kind'];
  pointer: string;
  status: StepStatus;
  /** A step not run: why (`cancelled`, or an earlier step that failed or whose outcome is unknown). */
  notRunBecause?: 'cancelled' | 'earlier-step';
  /** The command id the step sent (a submit), for a look-up when its outcome is unknown. */
  commandId?: string;
  transaction?: Transaction;
  /** One line on what the step did ("Transaction … at offset 12: 1 created"). */
  summary?: string;
  /** A submit or preview step: how its commands were checked last before they were sent. */
  commandsCheck?: CommandsCheck;
  failures: StepFailure[];
  captured: Record<string, unknown>;
  durationMs: number;
}

/**
 * How a step's commands were checked last before they were sent. `before-run`: the checks before the
 * run saw the very commands sent (no `${…}`, or only aliases of the participant's parties), so they
 * were not checked again; `as-value`: checked again once their `${…}` had values, as a value (the
 * schema, and the Daml arguments of `damlArguments` of the commands: those a value went into, or all
 * after a vet or upload step); `as-text`: checked again as a commands file.
 */
export interface CommandsCheck {
  how: 'before-run' | 'as-value' | 'as-text';
  damlArguments: number;
}

export type RunStatus = 'passed' | 'failed' | 'refused' | 'interrupted' | 'unknown';

export interface ScriptRun {
  runId: string;
  /**
   * `refused`: the script has errors (`problems`), nothing was sent; `interrupted`: cancelled; `unknown`:
   * a step's outcome is unknown (its command id says what to look up); `failed`: an expectation did not hold.
   */
  status: RunStatus;
  problems: Problem[];
  /** Alias → party id, as this run resolved or allocated them. */
  parties: Record<string, string>;
  steps: StepResult[];
}

export interface ScriptRunOptions {
  signal?: AbortSignal;
  /** Default: 8 random hex digits. Part of every command id of the run (`scriptCommandId`). */
  runId?: string;
  /**
   * Reads a file the script names (`vet`, `uploadDar`, a commands `file`), relative to the script: a
   * regular file only, of at most `maxBytes` (else a FileRefusedError, `core/localFile`).
   */
  readFile(path: string, maxBytes: number): Promise<Uint8Array>;
  /** The Daml-LF reader an `uploadDar` step names the DAR's packages with (the extension keeps it in its own bundle). */
  readDar?: (bytes: Uint8Array) => DarContents;
  onStepStarted?(step: ScriptStep): void;
  onStepFinished?(result: StepResult): void;
}

export async function runScript(connection: LedgerConnection, text: string, o: ScriptRunOptions): Promise<ScriptRun> {
  const runId = o.runId ?? randomBytes(4).toString('hex');
  try {
    return await checkAndRun(connection, text, runId, o);
  } catch (e) {
    // Cancelled before the first step (connecting, reading packages or parties): nothing ran.
    if (!(e instanceof CancelledError)) throw e;
    return { runId, status: 'interrupted', problems: [], parties: {}, steps: stepsOfText(text).map(notRun('cancelled')) };
  }
}

/** The result of a step not run, and why. */
function notRun(because: StepResult['notRunBecause']): (s: ScriptStep) => StepResult {
  return (s) => ({ ...stepHead(s), status: 'not-run', notRunBecause: because, failures: [], captured: {}, durationMs: 0 });
}

/** The steps of a script's text, as far as it parses. */
function stepsOfText(text: string): ScriptStep[] {
  try {
    return scriptOf(JSON.parse(text)).steps;
  } catch {
    return [];
  }
}

async function checkAndRun(connection: LedgerConnection, text: string, runId: string, o: ScriptRunOptions): Promise<ScriptRun> {
  const signal = o.signal;
  const client = connection.client;
  const info = connection.state.state === 'connected' ? connection.state.info : await connection.connect(signal);
  const packagesState = await connection.readPackages(signal);
  const packages = packagesState.state === 'ready' ? packagesState.context : undefined;
  const partiesRead = client.parties({ signal }).then(
    (list) => list.map((p) => p.party),
    // A user without admin rights cannot list every party: those of its rights are what it can use.
    (e) => (e instanceof AuthError ? info.parties.map((p) => p.party) : Promise.reject(e)),
  );
  partiesRead.catch(() => undefined);
  // The text is parsed and checked against the schema while the parties are read: once the reads
  // have gone out (a turn of the event loop), not before, or the parse would hold them back.
  await new Promise((resolve) => setImmediate(resolve));
  const validation = startValidation('script', text);
  // Where the script's own updates start, for its updates steps: read before anything is written
  // (sent while the parties' answer is awaited), and again after an allocation, which may move it.
  const endAtStart = hasUpdatesStep(validation.value) ? client.ledgerEnd({ signal }) : undefined;
  endAtStart?.catch(() => undefined);
  const partyIds = await partiesRead;
  const checkedCommands = new Map<string, unknown>();
  const checked = validation.finish({ packages, parties: { ids: partyIds, source: `on ${connection.profile.name}` }, checkedCommands });
  const script = scriptOf(checked.value);
  const errors = checked.problems.filter((p) => p.severity === 'error');
  // The users must exist: one that does not is an error at its alias, before anything is sent.
  const users = new Map<string, string>();
  for (const u of script.users) {
    try {
      users.set(u.alias, (await client.user(u.id, { signal })).id);
    } catch (e) {
      if (!(e instanceof CantonApiError) || e.code !== 'USER_NOT_FOUND') throw e;
      errors.push({ ...positionOf(new JsonDocument(text), u.pointer), path: u.pointer, severity: 'error', code: 'unknown-party', message: `No user "${u.id}" on ${connection.profile.name}.` });
    }
  }
  if (errors.length > 0) return { runId, status: 'refused', problems: errors, parties: {}, steps: script.steps.map(notRun('earlier-step')) };

  const scope = new Map<string, unknown>(users);
  const parties: Record<string, string> = {};
  // As the checks found them: each alias not allocated matched one party (else the run was refused).
  const found = resolveAliases(isJsonObject(checked.value) ? checked.value.parties : undefined, { ids: partyIds, source: '' }).resolved;
  for (const alias of script.parties) {
    let id = found.get(alias.alias);
    if (alias.allocate) {
      const hint = `${alias.hint}-${runId}`;
      try {
        id = (await connection.write('transaction', (c, s) => c.allocateParty(hint, { signal: s }), { signal })).party;
      } catch (e) {
        if (e instanceof CancelledError) return { runId, status: 'interrupted', problems: [], parties, steps: script.steps.map(notRun('cancelled')) };
        throw e;
      }
    }
    parties[alias.alias] = id!;
    scope.set(alias.alias, id);
  }

  // By step number: a step reads its own at once (not a key made and looked up, cold, between two submissions).
  const checkedSpecs: unknown[] = [];
  for (const step of script.steps) checkedSpecs[step.index] = checkedCommands.get(`${step.pointer}/${step.kind}`);
  // A failure quotes what the participant (or a proxy before it) answered, which can hold a credential:
  // every front-end shows the failures as the run gives them, so they leave the runner redacted.
  const redact = (text: string) => client.http.redactor.redact(text);
  const runner = new StepRunner(connection, runId, packages, scope, checkedSpecs, scriptCommandId(runId, script.steps.length - 1), o);
  if (endAtStart) runner.firstOffset = script.parties.some((a) => a.allocate) ? await client.ledgerEnd({ signal }) : await endAtStart;
  const steps: StepResult[] = [];
  let status: RunStatus = 'passed';
  try {
    for (const step of script.steps) {
      if (status !== 'passed') {
        steps.push(notRun(status === 'interrupted' ? 'cancelled' : 'earlier-step')(step));
        continue;
      }
      if (signal?.aborted) {
        status = 'interrupted';
        steps.push(notRun('cancelled')(step));
        continue;
      }
      o.onStepStarted?.(step);
      const result = redacted(await runner.run(step), redact);
      steps.push(result);
      o.onStepFinished?.(result);
      // A cancel that stopped a step (its outcome unknown, its checks cancelled) interrupted the run.
      if (signal?.aborted || result.status === 'not-run') status = 'interrupted';
      else if (result.status === 'failed') status = 'failed';
      else if (result.status === 'unknown') status = 'unknown';
    }
  } finally {
    runner.dispose();
  }
  return { runId, status, problems: [], parties, steps };
}

/** Whether a script (parsed, not yet checked) has a step that reads updates (`scriptOf` reads no other way). */
function hasUpdatesStep(value: unknown): boolean {
  return isJsonObject(value) && Array.isArray(value.steps) && value.steps.some((step) => isJsonObject(step) && 'updates' in step);
}

/** The result with its failures' text through the connection's redactor (the result itself, changed: it is new). */
function redacted(result: StepResult, redact: (text: string) => string): StepResult {
  if (result.failures.length === 0) return result;
  result.failures = result.failures.map((f) => ({
    ...f,
    message: redact(f.message),
    ...(f.expected !== undefined ? { expected: redact(f.expected) } : {}),
    ...(f.actual !== undefined ? { actual: redact(f.actual) } : {}),
  }));
  return result;
}

function done(head: ReturnType<typeof stepHead>, started: number, r: Omit<StepResult, keyof ReturnType<typeof stepHead> | 'durationMs'>): StepResult {
  // Not `{ ...head, ...r }`: V8 (Node 20) makes an object spread followed by more properties through
  // a slow path, about 10 µs here, once per step.
  return Object.assign(head, r, { durationMs: performance.now() - started });
}

/** Whether an object has a key (without making the list of its keys). */
function hasKey(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/** Whether `expect` holds anything for `check` (a failure the step expects is checked as it acts). */
function hasChecks(expect: StepExpectations): boolean {
  for (const key in expect) if (key !== 'failed') return true;
  return false;
}

function stepHead(s: ScriptStep): Pick<StepResult, 'index' | 'name' | 'kind' | 'pointer'> {
  return { index: s.index, name: s.name, kind: s.kind, pointer: s.pointer };
}

/** What a submit or preview step sends, and how it was checked last. */
interface CommandsValue {
  value: CommandsFileValue;
  check: CommandsCheck;
}

/** A step stops where it cannot go on: this carries the failure to its result. */
class StepStop extends Error {
  constructor(readonly failure: StepFailure) {
    super(failure.message);
  }
}

/** What a step produced, for its expectations and captures. */
interface StepOutput {
  transaction?: Transaction;
  /** The contracts a capture can take, read (those a transaction created are found in it when a capture asks). */
  contracts?: CreatedEvent[];
  /** What a read counted (`expect.count`). */
  count?: number;
  archivedContract?: boolean;
  summary?: string;
  commandsCheck?: CommandsCheck;
}

/** What one kind of step does, given the runner, the step, its spec and expectations with their `${…}` replaced. */
type StepHandler = (runner: StepRunner, step: ScriptStep, spec: unknown, expect: StepExpectations, checked: boolean, commandId: string) => Promise<StepOutput>;

class StepRunner {
  firstOffset = 0;
  /** Whether what the run adds to inline commands passes the schema, per user id (see `commandsValue`). */
  private readonly envelopes = new Map<unknown, boolean>();
  /**
   * After a vet or DAR upload step, a package name may stand for another version than when the
   * script was checked: every command is checked again, as a whole.
   */
  private packagesMayHaveChanged = false;
  private readonly client: LedgerClient;
  private readonly signal: AbortSignal | undefined;
  private readonly userId: string | undefined;
  /**
   * Where a look-up of a submission would start: the end this connection knows is enough (the end
   * only grows, so the transaction is past it), and it spares a read per step.
   */
  private readonly knownEnd: ((signal?: AbortSignal) => number | Promise<number>) | undefined;
  private readonly submitWrite: WriteOptions<SubmissionOutcome>;
  /** The expected failures' message patterns, matched off the event loop. */
  private readonly patterns = new MessagePatterns();

  constructor(
    private readonly connection: LedgerConnection,
    private readonly runId: string,
    private readonly packages: ArgumentContext | undefined,
    private readonly scope: Map<string, unknown>,
    /**
     * Per step number, the inline commands the checks took as they will be sent
     * (`ScriptCheckOptions.checkedCommands`): the run gives their names the same values (the aliases as
     * found; a captured name is never among them).
     */
    private readonly checkedSpecs: readonly unknown[],
    /** The run's command id of the highest step number: the longest. */
    private readonly longestCommandId: string,
    private readonly o: ScriptRunOptions,
  ) {
    this.client = connection.client;
    this.signal = o.signal;
    const state = connection.state;
    this.userId = connection.profile.userId ?? (state.state === 'connected' ? state.info.user?.id : undefined);
    const ledger = connection.ledger;
    this.knownEnd = ledger && ((r) => ledger.ledgerEnd ?? ledger.refreshLedgerEnd(r));
    this.submitWrite = { signal: this.signal, offsetOf: (x) => (x.kind === 'succeeded' ? x.transaction.offset : undefined) };
  }

  dispose(): void {
    this.patterns.dispose();
  }

  async run(step: ScriptStep): Promise<StepResult> {
    const started = performance.now();
    const head = stepHead(step);
    // The one command id of this step in this run: a submit's (in its result) or a preview's.
    const stepCommandId = scriptCommandId(this.runId, step.index);
    const commandId = step.kind === 'submit' ? stepCommandId : undefined;
    let output: StepOutput | undefined;
    try {
      // The names in checked commands have the values they had in the checks: nothing to put in again.
      const checked = this.checkedSpecs[step.index];
      const spec = checked ?? interpolate(step.spec, this.scope);
      const expect = hasKey(step.expect) ? (interpolate(step.expect, this.scope) as StepExpectations) : step.expect;
      output = await this.act(step, spec, expect, checked !== undefined, stepCommandId);
      const failures = hasChecks(expect) ? await this.check(step, expect, output) : [];
      if (failures.length > 0) return done(head, started, { status: 'failed', commandId, transaction: output.transaction, summary: output.summary, commandsCheck: output.commandsCheck, failures, captured: {} });
      const captured = this.capture(step, output);
      return done(head, started, { status: 'passed', commandId, transaction: output.transaction, summary: output.summary, commandsCheck: output.commandsCheck, failures: [], captured });
    } catch (e) {
      if (e instanceof StepStop) return done(head, started, { status: 'failed', commandId, failures: [e.failure], captured: {} });
      if (e instanceof UnknownOutcome) return done(head, started, { status: 'unknown', commandId: e.commandId ?? commandId, failures: [e.failure], captured: {} });
      if (e instanceof CancelledError) {
        if (!output) return done(head, started, { status: 'not-run', notRunBecause: 'cancelled', commandId, failures: [], captured: {} });
        // The step did its work; only the reads that check it were cancelled: it ran, unchecked.
        const failure = { message: `Cancelled while its expectations were checked; the step itself ran${output.summary ? ` (${output.summary})` : ''}.`, pointer: `${step.pointer}/expect` };
        return done(head, started, { status: 'failed', commandId, transaction: output.transaction, summary: output.summary, failures: [failure], captured: {} });
      }
      const message = e instanceof LedgerError ? describe(e) : `The step could not run: ${e instanceof Error ? e.message : String(e)}`;
      return done(head, started, { status: 'failed', commandId, failures: [{ message, pointer: step.pointer }], captured: {} });
    }
  }

  /**
   * Does what the step says, by its kind's handler; a failure that the step expects is returned as its
   * output's `failed`. Not itself async: an async function keeps every local of every kind in the
   * state it allocates per call, and a submit, the step a script has most of, needs few.
   */
  private act(step: ScriptStep, spec: unknown, expect: StepExpectations, checked: boolean, commandId: string): Promise<StepOutput> {
    return StepRunner.handlers[step.kind](this, step, spec, expect, checked, commandId);
  }

  /** One handler per step kind: a new kind is a key in `STEP_KINDS`, its schema, and a line here. */
  private static readonly handlers: { readonly [K in StepKind]: StepHandler } = {
    submit: (r, step, spec, expect, checked, commandId) => r.submitStep(step, spec, expect, checked, commandId),
    preview: (r, step, spec, expect, checked, commandId) => r.previewStep(step, spec, expect, checked, commandId),
    vet: (r, step, spec, expect) => r.vetStep(step, spec, expect),
    uploadDar: (r, step, spec, expect) => r.uploadDarStep(step, spec, expect),
    activeContracts: (r, _step, spec) => r.activeContractsStep(spec as { party: string; template: string }),
    contractEvents: (r, _step, spec) => r.contractEventsStep(spec as { party: string; contractId: string }),
    updates: (r, _step, spec) => r.updatesStep(spec as { party: string }),
  };

  private async submitStep(step: ScriptStep, spec: unknown, expect: StepExpectations, checked: boolean, commandId: string): Promise<StepOutput> {
    const commands = this.commandsValue(step.spec, spec, `${step.pointer}/submit`, commandId, checked);
    const { value, check } = commands instanceof Promise ? await commands : commands;
    const { request } = submissionOf(value);
    const outcome = await this.connection.write('transaction', (c, s) => submit(c, request, { signal: s, ledgerEnd: this.knownEnd }), this.submitWrite);
    switch (outcome.kind) {
      case 'succeeded': {
        const summary = transactionSummary(outcome.transaction);
        this.expectSuccess(step, expect, summary);
        return { transaction: outcome.transaction, summary, commandsCheck: check };
      }
      case 'not-sent':
        throw outcome.error;
      case 'unknown':
        throw new UnknownOutcome(step, outcome.error, request.commands.commandId);
      case 'already-executed':
        throw new StepStop({ message: `Command "${request.commands.commandId}" was already executed before this run: its id is not unique.`, pointer: `${step.pointer}/submit` });
      case 'failed':
        return { ...(await this.expectedFailure(step, expect, outcome.error)), commandsCheck: check };
    }
  }

  private async previewStep(step: ScriptStep, spec: unknown, expect: StepExpectations, checked: boolean, commandId: string): Promise<StepOutput> {
    const { value, check } = await this.commandsValue(step.spec, spec, `${step.pointer}/preview`, commandId, checked);
    try {
      await this.client.prepare(prepareRequestOf(value), { signal: this.signal });
    } catch (e) {
      if (e instanceof LedgerError && !(e instanceof CancelledError)) return { ...(await this.expectedFailure(step, expect, e)), commandsCheck: check };
      throw e;
    }
    this.expectSuccess(step, expect, 'prepared');
    return { contracts: [], summary: 'Prepared (nothing was submitted)', commandsCheck: check };
  }

  private async vetStep(step: ScriptStep, spec: unknown, expect: StepExpectations): Promise<StepOutput> {
    this.packagesMayHaveChanged = true;
    const file = await this.checkedFile(String(spec), 'vetting', `${step.pointer}/vet`);
    const request = vettingRequestOf(file as wire.UpdateVettedPackagesRequest, 'apply');
    const outcome = await this.connection.write('vetting', (c, s) => sendVetting(c, request, s), { signal: this.signal });
    if (outcome.kind === 'unknown') throw new UnknownOutcome(step, outcome.error);
    if (outcome.kind === 'failed') {
      if (outcome.error instanceof CancelledError) throw outcome.error;
      return this.expectedFailure(step, expect, outcome.error);
    }
    this.expectSuccess(step, expect, 'applied');
    return { contracts: [], summary: `Vetting of ${String(spec)} applied` };
  }

  private async uploadDarStep(step: ScriptStep, spec: unknown, expect: StepExpectations): Promise<StepOutput> {
    this.packagesMayHaveChanged = true;
    const at = `${step.pointer}/uploadDar`;
    const readDar = this.o.readDar;
    if (!readDar) throw new StepStop({ message: 'This front-end cannot read DARs.', pointer: at });
    const bytes = await this.readFile(String(spec), MAX_DAR_BYTES, at);
    let outcome;
    try {
      outcome = await this.connection.write('packages', (c, s) => uploadDarWithReport(c, bytes, { mode: 'upload', readDar, signal: s }), { signal: this.signal });
    } catch (e) {
      if (e instanceof LedgerError && !(e instanceof CancelledError)) return this.expectedFailure(step, expect, e);
      throw e;
    }
    if (outcome.kind === 'unknown') {
      // The answer was lost, and the look-up after it says what is known: as the CLI's upload-dar.
      if (!darUploadIsThere(outcome.lookUp)) throw new UnknownOutcome(step, outcome.error, undefined, darUploadLookUpText(outcome.lookUp));
      this.expectSuccess(step, expect, 'uploaded');
      return { contracts: [], summary: `Uploaded ${String(spec)}: the answer was lost; ${darUploadLookUpText(outcome.lookUp)}` };
    }
    this.expectSuccess(step, expect, 'uploaded');
    return { contracts: [], summary: `Uploaded ${String(spec)}: ${outcome.result.packages.length} packages` };
  }

  private async activeContractsStep(read: { party: string; template: string }): Promise<StepOutput> {
    const contracts = await this.activeContracts(this.party(read.party), read.template);
    return { contracts, count: contracts.length, summary: `${contracts.length} active ${read.template} as ${read.party}` };
  }

  private async contractEventsStep(read: { party: string; contractId: string }): Promise<StepOutput> {
    try {
      const events = await this.client.eventsByContractId(read.contractId, { filter: { parties: [this.party(read.party)] } }, { signal: this.signal });
      const count = (events.created ? 1 : 0) + (events.archived ? 1 : 0);
      return { contracts: events.created ? [events.created.event] : [], count, archivedContract: Boolean(events.archived), summary: events.archived ? 'created and archived' : 'created, active' };
    } catch (e) {
      if (e instanceof CantonApiError && e.code === 'CONTRACT_EVENTS_NOT_FOUND') return { contracts: [], count: 0, summary: `not visible to ${read.party}` };
      throw e;
    }
  }

  private async updatesStep(read: { party: string }): Promise<StepOutput> {
    const signal = this.signal;
    const end = await this.client.ledgerEnd({ signal });
    let count = 0;
    if (end > this.firstOffset) {
      const selection = { filter: { parties: [this.party(read.party)], shape: 'ledger-effects' as const } };
      for await (const page of this.client.walkUpdates({ selection, beginExclusive: this.firstOffset, endInclusive: end }, { signal })) count += page.length;
    }
    return { contracts: [], count, summary: `${count} updates as ${read.party} since offset ${this.firstOffset}` };
  }

  /** The party an expectation or a read names: an alias, or an id. */
  private party(ref: string): string {
    const alias = aliasOfPartyRef(ref);
    const id = alias === undefined ? ref : this.scope.get(alias);
    return typeof id === 'string' ? id : ref;
  }

  private async readFile(path: string, maxBytes: number, pointer: string): Promise<Uint8Array> {
    try {
      return await this.o.readFile(path, maxBytes);
    } catch (e) {
      if (e instanceof FileRefusedError) throw new StepStop({ message: `Cannot read ${path}: ${e.reason === 'not-a-file' ? 'not a regular file (a FIFO, a device or a directory)' : e.message}.`, pointer });
      throw new StepStop({ message: `Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, pointer });
    }
  }

  /** A file the step names, checked as its kind is (its errors stop the step; nothing is sent). */
  private async checkedFile(path: string, kind: 'commands' | 'vetting', pointer: string): Promise<unknown> {
    const text = new TextDecoder().decode(await this.readFile(path, MAX_JSON_FILE_BYTES, pointer));
    return this.checkedText(text, kind, pointer, path);
  }

  private checkedText(text: string, kind: 'commands' | 'vetting', pointer: string, where: string): unknown {
    const { value, problems } = validateText(kind, text, { packages: kind === 'commands' ? this.packages : undefined });
    const errors = problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) {
      throw new StepStop({ message: `${where} has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}, so nothing was sent: ${errors.map((p) => `${p.path || '/'}: ${p.message}`).join('; ')}`, pointer });
    }
    return value;
  }

  /**
   * The commands a submit or preview step sends, with the run's command id: a commands file's as it is
   * written (as Submit sends it; a `${…}` in it is text, and its check as a commands file stops the
   * step), or inline ones with every `${…}` replaced, checked again for what the values can change
   * (as text only when that does not pass, for what and where). `checked`: the checks took these
   * inline commands as they are sent (`checkedSpecs`). Inline ones are made at once, not in a
   * promise: a script has many, and each promise waited for is a turn of the microtask queue.
   */
  private commandsValue(written: unknown, spec: unknown, pointer: string, commandId: string, checked: boolean): CommandsValue | Promise<CommandsValue> {
    const s = isJsonObject(spec) ? spec : {};
    return typeof s.file === 'string' ? this.fileCommandsValue(s.file, pointer, commandId) : this.inlineCommandsValue(written, s, pointer, commandId, checked);
  }

  private async fileCommandsValue(path: string, pointer: string, commandId: string): Promise<CommandsValue> {
    const file = (await this.checkedFile(path, 'commands', `${pointer}/file`)) as Record<string, unknown>;
    // A valid command id in place of another cannot make the checked file fail.
    const wrapped = isJsonObject(file.commands);
    const commands = { ...(wrapped ? (file.commands as Record<string, unknown>) : file), commandId };
    return { value: (wrapped ? { ...file, commands } : commands) as CommandsFileValue, check: asText(commands) };
  }

  private inlineCommandsValue(written: unknown, s: Record<string, unknown>, pointer: string, commandId: string, checked: boolean): CommandsValue {
    // Without a token there is no user to default to: the connection's user submits.
    const userId = s.userId ?? this.userId;
    // Not a spread followed by more properties (V8's slow path, and a slower object to read and send).
    const value = Object.assign({}, s, { commandId }, userId ? { userId } : undefined) as Record<string, unknown> & CommandsFileValue;
    // Commands the checks took as they are sent: they saw this very value but for what the run adds,
    // the command id and the user, which differ between steps only in the step's number (checked once,
    // with the longest id).
    if (!this.packagesMayHaveChanged && checked && this.envelopePasses(value)) return { value, check: { how: 'before-run', damlArguments: 0 } };
    let damlArguments = 0;
    if (substitutedCommandsPass(written, value, this.packages, this.packagesMayHaveChanged, () => damlArguments++)) return { value, check: { how: 'as-value', damlArguments } };
    return { value: this.checkedText(stringifyJson(value), 'commands', pointer, 'The commands, with every ${…} replaced,') as CommandsFileValue, check: asText(value) };
  }

  private envelopePasses(value: Record<string, unknown>): boolean {
    let passes = this.envelopes.get(value.userId);
    if (passes === undefined) {
      passes = commandsValuePasses({ ...value, commandId: this.longestCommandId }, undefined, () => false);
      this.envelopes.set(value.userId, passes);
    }
    return passes;
  }

  private expectSuccess(step: ScriptStep, expect: StepExpectations, what: string): void {
    if (!expect.failed) return;
    throw new StepStop({
      message: `Expected to fail with ${expect.failed.code}, but it succeeded (${what}).`,
      pointer: `${step.pointer}/expect/failed`,
      expected: `failed: ${expect.failed.code}`,
      actual: `succeeded: ${what}`,
    });
  }

  /** A refusal the step expects (its code, and its message pattern) is its output; any other stops it. */
  private async expectedFailure(step: ScriptStep, expect: StepExpectations, error: LedgerError): Promise<StepOutput> {
    const code = error instanceof CantonApiError ? error.code : error.kind;
    const failed = expect.failed;
    if (!failed) throw new StepStop({ message: describe(error), pointer: `${step.pointer}/${step.kind}`, expected: 'succeeded', actual: `failed: ${code}` });
    const expected = `failed: ${failed.code}${failed.message !== undefined ? ` /${failed.message}/` : ''}`;
    const actual = `failed: ${code}: ${error.message}`;
    if (failed.code !== code) throw new StepStop({ message: `Failed with ${code}, not ${failed.code}.`, pointer: `${step.pointer}/expect/failed`, expected, actual });
    if (failed.message !== undefined) {
      const pattern = await this.patterns.match(failed.message, error.message, this.signal);
      const pointer = `${step.pointer}/expect/failed/message`;
      if (pattern.kind === 'too-slow') throw new StepStop({ message: `Failed with ${code}; matching the message against /${failed.message}/ took longer than ${pattern.budgetMs / 1000} s and was stopped: write a pattern that does not backtrack without end (no nested repetition such as (.*)*).`, pointer, expected, actual });
      if (pattern.kind === 'invalid') throw new StepStop({ message: `Failed with ${code}; the message pattern is not a regular expression: ${pattern.message}`, pointer, expected, actual });
      if (!pattern.matches) throw new StepStop({ message: `Failed with ${code}, but the message does not match /${failed.message}/.`, pointer: `${step.pointer}/expect/failed`, expected, actual });
    }
    return { contracts: [], summary: `Failed as expected: ${code}` };
  }

  private async check(step: ScriptStep, expect: StepExpectations, out: StepOutput): Promise<StepFailure[]> {
    const failures: StepFailure[] = [];
    const base = `${step.pointer}/expect`;
    const t = out.transaction;
    const counted = (kind: 'created' | 'archived', list: ContractCount[] | undefined) =>
      (list ?? []).forEach((c, i) => {
        const events = t ? (kind === 'created' ? createdIn(t) : archivedIn(t)) : [];
        const ofTemplate = events.filter((e) => templateMatches(e, c.template));
        const matching = c.fields ? (ofTemplate as CreatedEvent[]).filter((e) => fieldsMatch(c.fields, e.createArgument)) : ofTemplate;
        const ok = c.count === undefined ? matching.length > 0 : matching.length === c.count;
        if (ok) return;
        const wanted = `${c.count === undefined ? 'at least 1' : c.count} ${kind} ${c.template}${c.fields ? ` with ${JSON.stringify(c.fields)}` : ''}`;
        const actual = c.fields && ofTemplate.length > 0 ? `${matching.length} with those fields, of ${ofTemplate.length}: ${(ofTemplate as CreatedEvent[]).map((e) => JSON.stringify(e.createArgument)).join(', ')}` : `${matching.length} ${kind} ${c.template} (${t ? templateCounts(events) : 'no transaction'})`;
        failures.push({ message: `Expected ${wanted}; found ${actual}.`, pointer: `${base}/${kind}/${i}`, expected: wanted, actual });
      });
    counted('created', expect.created);
    counted('archived', expect.archived);
    for (const [key, shouldSee] of [['visibleTo', true], ['notVisibleTo', false]] as const) {
      for (const [i, ref] of (expect[key] ?? []).entries()) {
        if (!t) {
          failures.push({ message: `${key} needs a transaction, and this step made none.`, pointer: `${base}/${key}/${i}` });
          continue;
        }
        const sees = await this.sees(this.party(ref), t.updateId);
        if (sees !== shouldSee) {
          failures.push({
            message: `${ref} ${sees ? 'sees' : 'does not see'} transaction ${t.updateId}${shouldSee ? '' : ' (a privacy leak)'}.`,
            pointer: `${base}/${key}/${i}`,
            expected: `${ref} ${shouldSee ? 'sees' : 'does not see'} it`,
            actual: `${ref} ${sees ? 'sees' : 'does not see'} it`,
          });
        }
      }
    }
    for (const [i, a] of (expect.activeContracts ?? []).entries()) {
      const n = (await this.activeContracts(this.party(a.party), a.template)).length;
      if (n !== a.count) failures.push({ message: `${a.party} has ${n} active ${a.template}, not ${a.count}.`, pointer: `${base}/activeContracts/${i}`, expected: String(a.count), actual: String(n) });
    }
    if (expect.count !== undefined && out.count !== expect.count) {
      failures.push({ message: `Found ${out.count ?? 'nothing to count'}, not ${expect.count}.`, pointer: `${base}/count`, expected: String(expect.count), actual: String(out.count) });
    }
    if (expect.archivedContract !== undefined && out.archivedContract !== expect.archivedContract) {
      const state = (archived: boolean | undefined) => (archived === undefined ? 'not visible' : archived ? 'archived' : 'active');
      failures.push({ message: `The contract is ${state(out.archivedContract)}, not ${state(expect.archivedContract)}.`, pointer: `${base}/archivedContract`, expected: state(expect.archivedContract), actual: state(out.archivedContract) });
    }
    return failures;
  }

  /** Does `party` see the update? Read as that party alone: a 404 (UPDATE_NOT_FOUND) means no. */
  private async sees(party: string, updateId: string): Promise<boolean> {
    try {
      await this.client.updateByKey({ updateId }, { filter: { parties: [party], shape: 'ledger-effects' } }, { signal: this.signal });
      return true;
    } catch (e) {
      if (e instanceof CantonApiError && e.code === 'UPDATE_NOT_FOUND') return false;
      throw e;
    }
  }

  private async activeContracts(party: string, template: string): Promise<CreatedEvent[]> {
    const isInterface = this.packages ? Boolean(this.packages.packages.interface(template)) : false;
    const filter: UpdateFilter = { parties: [party], ...(isInterface ? { interfaceIds: [template] } : { templateIds: [template] }) };
    const all: CreatedEvent[] = [];
    let page = await this.client.pageActiveContracts({ filter }, { signal: this.signal });
    for (;;) {
      all.push(...page.contracts.map((c) => c.event));
      if (!page.next) return all;
      page = await this.client.pageActiveContracts(page.next, { signal: this.signal });
    }
  }

  /** Binds the step's captures (all or none: one that fails stops the step before any is bound). */
  private capture(step: ScriptStep, out: StepOutput): Record<string, unknown> {
    const captured: Record<string, unknown> = {};
    for (const name in step.capture) captured[name] = this.captureOne(step, name, step.capture[name], out);
    for (const name in captured) this.scope.set(name, captured[name]);
    return captured;
  }

  private captureOne(step: ScriptStep, name: string, spec: CaptureSpec, out: StepOutput): unknown {
    const pointer = `${step.pointer}/capture/${name}`;
    const fail = (message: string): never => {
      throw new StepStop({ message: `Step ${step.index + 1} (${step.name}): capture "${name}" ${message}`, pointer });
    };
    if (spec === 'updateId' || spec === 'offset') {
      if (!out.transaction) return fail(`takes the ${spec} of the step's transaction, and this step made none.`);
      return spec === 'updateId' ? out.transaction.updateId : out.transaction.offset;
    }
    const contracts = out.contracts ?? (out.transaction ? createdIn(out.transaction) : []);
    const found = contracts.filter((e) => templateMatches(e, spec.contractId));
    const what = step.kind === 'submit' ? 'created' : 'read';
    if (found.length !== 1) {
      fail(`looked for one ${what} ${spec.contractId} and found ${found.length}${found.length ? ` (${found.map((e) => e.contractId).join(', ')})` : ''}.`);
    }
    const contract = found[0];
    if (spec.field === undefined) return contract.contractId;
    let value: unknown = contract.createArgument;
    for (const segment of spec.field.split('.')) {
      if (!isJsonObject(value) || !(segment in value)) return fail(`looked for field "${spec.field}" of ${contract.contractId}, and its argument has no "${segment}".`);
      value = value[segment];
    }
    return value;
  }
}

/** A write whose outcome is unknown: the run stops, and the command id says what to look up. */
class UnknownOutcome extends Error {
  readonly failure: StepFailure;
  constructor(
    step: ScriptStep,
    error: LedgerError,
    readonly commandId?: string,
    /** What a look-up after the lost answer found, when one was made. */
    found?: string,
  ) {
    const lookUp = commandId ? ` Look up command id "${commandId}" before running the script again; nothing was re-sent.` : found ? ` ${found} Nothing was re-sent.` : ' Check the participant before running the script again; nothing was re-sent.';
    super(error.message);
    this.failure = { message: `The outcome is unknown (${error.message}): it may or may not have happened.${lookUp}`, pointer: `${step.pointer}/${step.kind}` };
  }
}

/** A check as a commands file: the Daml arguments of every command. */
function asText(commands: Record<string, unknown>): CommandsCheck {
  return { how: 'as-text', damlArguments: commandSites(commands).length };
}

function describe(e: LedgerError): string {
  return e instanceof CantonApiError ? `${e.code}: ${e.message}` : e.message;
}

function createdIn(t: Transaction): CreatedEvent[] {
  return t.events.filter((e): e is CreatedEvent => e.kind === 'created');
}

/** Archives: archived events (ACS delta) and consuming exercises (ledger effects). */
function archivedIn(t: Transaction): Array<{ templateId: string; packageName: string; contractId: string }> {
  return t.events.filter((e) => e.kind === 'archived' || (e.kind === 'exercised' && e.consuming));
}

/** "2 Iou:Iou, 1 Asset:Asset": what a list of events holds, per template. */
function templateCounts(events: Array<{ templateId: string }>): string {
  if (events.length === 0) return 'none';
  const counts = new Map<string, number>();
  for (const e of events) {
    const id = parseIdentifier(e.templateId);
    const name = id ? `${id.moduleName}:${id.entityName}` : e.templateId;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([n, c]) => `${c} ${n}`).join(', ');
}

/** An event's template is the one a script names: by package name and qualified name, or by the exact id. */
export function templateMatches(event: { templateId: string; packageName: string }, template: string): boolean {
  const want = parseIdentifier(template);
  const have = parseIdentifier(event.templateId);
  if (!want || !have) return event.templateId === template;
  if (want.moduleName !== have.moduleName || want.entityName !== have.entityName) return false;
  return want.form === 'package-name' ? want.packageName === event.packageName : want.packageId === (have.form === 'package-id' ? have.packageId : undefined);
}

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/** Every field `expected` names has its value in `actual` (records: the fields named; decimals: by value, "10" = "10.0000000000"). */
export function fieldsMatch(expected: unknown, actual: unknown): boolean {
  if (isJsonObject(expected)) return isJsonObject(actual) && Object.entries(expected).every(([k, v]) => fieldsMatch(v, actual[k]));
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((v, i) => fieldsMatch(v, actual[i]));
  if (typeof expected === 'string' && typeof actual === 'string' && DECIMAL.test(expected) && DECIMAL.test(actual)) return normalDecimal(expected) === normalDecimal(actual);
  if (typeof expected === 'number' && typeof actual === 'string' && DECIMAL.test(actual)) return normalDecimal(String(expected)) === normalDecimal(actual);
  return expected === actual;
}

function normalDecimal(text: string): string {
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  const sign = text.startsWith('-') && (w !== '0' || f !== '') ? '-' : '';
  return `${sign}${w}${f ? `.${f}` : ''}`;
}
