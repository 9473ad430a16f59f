// The one UI port of the glue: every question a command asks (a message with buttons, a modal
// confirmation, a quick pick, an input box, a wizard's step, a file dialog), every progress it shows
// (a cancellable notification, a view's busy bar) and every failure it reports goes through a
// `Prompts`, so that tests answer them instead of racing the UI. Only types come from 'vscode' here;
// the window-backed implementation is `windowPrompts` in ./ui, the one file of src/vscode that calls
// the window's questions (test/vscode/promptsPort.test.ts keeps it so).
import type * as vscode from 'vscode';
import { AuthError, CancelledError, LedgerError, NetworkError, TimeoutError, TokenWithheldError } from '../../core/errors';
import type { Logger } from '../../core/log';
import { PqsError, type PqsErrorKind } from '../../core/pqs/errors';
import type { Redactor } from '../../core/redact';
import type { SHOW_REPORT_BUTTON } from '../../core/compat/wording';
import { toDisposable, type IDisposable } from './lifecycle';

export type MessageSeverity = 'info' | 'warning' | 'error';

export interface MessageOptions {
  modal?: boolean;
  detail?: string;
}

export interface PickOptions {
  title: string;
  placeHolder?: string;
  matchOnDescription?: boolean;
  matchOnDetail?: boolean;
  /** Whether the pick stays open when the focus moves elsewhere (the default: it does). */
  ignoreFocusOut?: boolean;
}

/** What an input box says of a value as it is typed: a problem (a text, or a message with its severity), or undefined when fine. */
export type InputProblem = string | vscode.InputBoxValidationMessage | undefined;

export interface InputOptions {
  title: string;
  prompt?: string;
  value?: string;
  /** The part of `value` selected when the box opens, [start, end). */
  valueSelection?: [number, number];
  placeHolder?: string;
  password?: boolean;
  ignoreFocusOut?: boolean;
  validateInput?(value: string): InputProblem | Promise<InputProblem>;
}

/**
 * The user pressed the Back button of a wizard step. A registered symbol, so that scripted prompts in
 * another bundle (the in-host test suites) answer with the same one.
 */
export const BACK = Symbol.for('cantonLedger.prompts.back');
/** A step's answer: the value, BACK, or undefined when the user gave up (Escape). */
export type StepAnswer<T> = T | typeof BACK | undefined;

/** Where a wizard step is: its title and counter ("title (k/N)", or "(k)" without `totalSteps`); a Back button after the first. */
export interface StepOptions {
  title: string;
  step: number;
  totalSteps?: number;
}

export interface InputStepOptions extends StepOptions {
  prompt: string;
  value?: string;
  placeholder?: string;
  /** Runs as the user types and on Enter, which it refuses while it finds a problem. */
  validate?: (value: string) => string | undefined;
}

export interface PickStepOptions<T extends vscode.QuickPickItem> extends StepOptions {
  placeholder: string;
  items: readonly T[];
  /** Highlighted first. */
  active?: T;
}

/** The work under a progress: `report` is there where the prompts can show how far it is. */
export type ProgressTask<T> = (signal: AbortSignal, report?: (message: string) => void) => Promise<T>;

export interface Prompts {
  /** Shows a message with buttons; resolves with the chosen button (undefined: dismissed). */
  message(severity: MessageSeverity, text: string, actions: readonly string[], options?: MessageOptions): Promise<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: PickOptions): Promise<T | undefined>;
  /** A pick of any number of items (those `picked` start checked); undefined: dismissed. */
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: PickOptions): Promise<T[] | undefined>;
  /** Asks for a text; undefined: dismissed. */
  input(options: InputOptions): Promise<string | undefined>;
  /** One input box of a wizard, with Back after the first step. */
  inputStep(options: InputStepOptions): Promise<StepAnswer<string>>;
  /** One single-choice pick of a wizard, with Back after the first step. */
  pickStep<T extends vscode.QuickPickItem>(options: PickStepOptions<T>): Promise<StepAnswer<T>>;
  openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined>;
  saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined>;
  /** Runs `task` under a cancellable progress notification; Cancel aborts the signal; `report`, where given, shows how far it is. */
  progress<T>(title: string, task: ProgressTask<T>): Promise<T>;
  /** Shows the view's progress bar while `task` runs. */
  viewProgress<T>(viewId: string, task: () => Promise<T>): Promise<T>;
}

/**
 * The prompts every part of the glue holds: it passes each question on to `current`, which a test
 * replaces (`api.prompts.current = scripted`) to answer them.
 */
export class PromptsPort implements Prompts {
  constructor(public current: Prompts) {}

  message(severity: MessageSeverity, text: string, actions: readonly string[], options?: MessageOptions): Promise<string | undefined> {
    return this.current.message(severity, text, actions, options);
  }

  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: PickOptions): Promise<T | undefined> {
    return this.current.pick(items, options);
  }

  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: PickOptions): Promise<T[] | undefined> {
    return this.current.pickMany(items, options);
  }

  input(options: InputOptions): Promise<string | undefined> {
    return this.current.input(options);
  }

  inputStep(options: InputStepOptions): Promise<StepAnswer<string>> {
    return this.current.inputStep(options);
  }

  pickStep<T extends vscode.QuickPickItem>(options: PickStepOptions<T>): Promise<StepAnswer<T>> {
    return this.current.pickStep(options);
  }

  openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    return this.current.openDialog(options);
  }

  saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    return this.current.saveDialog(options);
  }

  progress<T>(title: string, task: ProgressTask<T>): Promise<T> {
    return this.current.progress(title, task);
  }

  viewProgress<T>(viewId: string, task: () => Promise<T>): Promise<T> {
    return this.current.viewProgress(viewId, task);
  }
}

export const SHOW_LOG = 'Show Log';
export const UPDATE_TOKEN = 'Update Token';
export const RETRY = 'Retry';
export const EXPLAIN = 'Explain';

export interface ErrorActions {
  /** Offered for auth failures ("Update Token"). */
  updateToken?: () => unknown;
  /** Offered for failures worth trying again. */
  retry?: () => unknown;
  /** Offered for a Canton rejection: opens what it means and where its cause is. */
  explain?: () => unknown;
}

/** PQS failures that another try can mend: the server came back, the query ran long this once. */
const PQS_RETRYABLE: ReadonlySet<PqsErrorKind> = new Set(['unreachable', 'connection-lost', 'timeout']);

/** The user's own Cancel, of a ledger call or of a PQS query: not a failure. */
export function isCancellation(err: unknown): boolean {
  return err instanceof CancelledError || (err instanceof PqsError && err.kind === 'cancelled');
}

/** The hint of an answer the code expects (a refusal, a timeout, a wrong password), logged with it instead of a stack. */
function expectedHint(err: unknown): string | undefined {
  if (err instanceof LedgerError) return err.hint;
  // A driver that cannot be loaded is the extension's own fault: its stack is worth the log.
  if (err instanceof PqsError && err.kind !== 'driver-missing') return err.hint;
  return undefined;
}

/** True for a failure that a new token can mend (a rejected or withheld token): "Update Token" is offered. */
export function wantsToken(err: unknown): boolean {
  return err instanceof AuthError || err instanceof TokenWithheldError;
}

/**
 * Logs a failure of background work that a view shows already (a row with Retry), in one line: an
 * expected answer with its hint, anything else with its stack. A cancellation is not a failure: nothing.
 */
export function recordFailure(logger: Logger, redactor: Redactor, context: string, err: unknown): void {
  if (isCancellation(err)) return;
  logger.warn(expectedHint(err) !== undefined ? redactor.redact(`${context}: ${summary(err)}`) : `${redactor.redact(context)}: ${redactor.redactError(err)}`);
}

/**
 * The one place that turns a failure into a short message with actions (through the prompts); the
 * full error (redacted) goes to the log. Cancellation (a ledger call's or a PQS query's) is not a
 * failure and stays silent.
 */
/** The labels a feature's offer may carry: known statically, so that the check of button lengths covers them. */
export type OfferedButton = typeof SHOW_REPORT_BUTTON;

/** A button the reporter offers for the failures it fits, registered by the feature it belongs to. */
export interface ErrorOffer {
  readonly label: OfferedButton;
  fits(err: unknown): boolean;
  run(err: unknown): unknown;
}

export class ErrorReporter {
  private readonly offers = new Set<ErrorOffer>();

  constructor(
    private readonly logger: Logger,
    private readonly redactor: Redactor,
    private readonly prompts: Pick<Prompts, 'message'>,
    private readonly showLog: () => void,
  ) {}

  /**
   * A failure of background work whose result the views show already (a connection's item carries
   * its error): logged in one line, no message.
   */
  record(context: string, err: unknown): void {
    recordFailure(this.logger, this.redactor, context, err);
  }

  /** Something the user asked for that could not be done, worth a line in the log but no message. */
  notice(text: string): void {
    this.logger.warn(this.redactor.redact(text));
  }

  /** Offers `offer`'s button with every failure it fits (a refused request: Show Compatibility Report), until disposed. */
  offer(offer: ErrorOffer): IDisposable {
    this.offers.add(offer);
    return toDisposable(() => this.offers.delete(offer));
  }

  /** Logs the failure and shows `context: summary` with the actions that fit; resolves with the chosen button. */
  async report(context: string, err: unknown, actions: ErrorActions = {}): Promise<string | undefined> {
    if (isCancellation(err)) {
      this.logger.info(`${context}: cancelled`);
      return undefined;
    }
    // An answer (refused, 401, a timeout, PostgreSQL's refusal) with its code and hint; anything else with its stack.
    const hint = expectedHint(err);
    const logged = err instanceof PqsError && hint !== undefined ? this.redactor.redact(pqsLine(err)) : this.redactor.redactError(err);
    const line = `${context}: ${logged}${hint !== undefined ? `\n  hint: ${hint}` : ''}`;
    if (hint !== undefined) this.logger.warn(line);
    else this.logger.error(line);
    const buttons: Array<typeof UPDATE_TOKEN | typeof RETRY | typeof EXPLAIN> = [];
    if (wantsToken(err) && actions.updateToken) buttons.push(UPDATE_TOKEN);
    if (actions.retry && (err instanceof NetworkError || err instanceof TimeoutError || (err instanceof PqsError && PQS_RETRYABLE.has(err.kind)) || (err instanceof LedgerError && err.kind === 'canton' && (err as { retryable?: boolean }).retryable))) buttons.push(RETRY);
    if (actions.explain && err instanceof LedgerError && err.kind === 'canton') buttons.push(EXPLAIN);
    const offered = [...this.offers].filter((o) => o.fits(err));
    const choice = await this.prompts.message('error', this.redactor.redact(`${context}: ${summary(err)}`), [...buttons, ...offered.map((o) => o.label), SHOW_LOG]);
    const offer = offered.find((o) => o.label === choice);
    if (offer) await offer.run(err);
    else if (choice === UPDATE_TOKEN) await actions.updateToken?.();
    else if (choice === RETRY) await actions.retry?.();
    else if (choice === EXPLAIN) await actions.explain?.();
    else if (choice === SHOW_LOG) this.showLog();
    return choice;
  }
}

/** A PQS failure for the log: its kind, PostgreSQL's SQLSTATE and where in the statement, and the message. */
function pqsLine(err: PqsError): string {
  const where = [err.sqlState && `SQLSTATE ${err.sqlState}`, err.position !== undefined && `at character ${err.position + 1}`].filter(Boolean).join(', ');
  return `PqsError ${err.kind}${where ? ` (${where})` : ''}: ${err.message}`;
}

/** One line: the Canton code and cause (or the message) and the hint. */
export function summary(err: unknown): string {
  if (err instanceof LedgerError) return `${err.message}. ${err.hint}`;
  if (err instanceof PqsError) return `${err.message.replace(/\.$/, '')}. ${err.hint}`;
  return err instanceof Error ? err.message : String(err);
}
