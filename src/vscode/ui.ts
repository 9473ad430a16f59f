import * as vscode from 'vscode';
import { AuthError, CancelledError, LedgerError, NetworkError, TimeoutError, TokenWithheldError } from '../core/errors';
import type { Logger } from '../core/log';
import type { Redactor } from '../core/redact';

/** Runs `task` with a cancellable progress notification; Cancel aborts the signal the task passes on to fetch. */
export function withCancellableProgress<T>(title: string, task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<T>, location: vscode.ProgressOptions['location'] = vscode.ProgressLocation.Notification): Thenable<T> {
  return vscode.window.withProgress({ location, title, cancellable: true }, (progress, token) => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    return task(controller.signal, progress).finally(() => sub.dispose());
  });
}

export interface ErrorActions {
  /** Offered for auth failures ("Update Token"). */
  updateToken?: () => unknown;
  /** Offered for failures worth trying again. */
  retry?: () => unknown;
}

/**
 * The one place that turns a failure into a short message with actions; the full error (redacted)
 * goes to the log. Cancellation is not a failure and stays silent.
 */
export class ErrorReporter {
  constructor(private readonly logger: Logger, private readonly redactor: Redactor, private readonly showLog: () => void) {}

  /**
   * A failure of background work whose result the views show already (a connection's item carries
   * its error): logged in one line, no message.
   */
  record(context: string, err: unknown): void {
    if (err instanceof CancelledError) return;
    this.logger.warn(this.redactor.redact(`${context}: ${summary(err)}`));
  }

  /** Something the user asked for that could not be done, worth a line in the log but no message. */
  notice(text: string): void {
    this.logger.warn(this.redactor.redact(text));
  }

  async report(context: string, err: unknown, actions: ErrorActions = {}): Promise<void> {
    if (err instanceof CancelledError) {
      this.logger.info(`${context}: cancelled`);
      return;
    }
    // An answer (refused, 401, a timeout) in one line with its code and hint; anything else with its stack.
    const line = `${context}: ${this.redactor.redactError(err)}`;
    if (err instanceof LedgerError) this.logger.warn(line);
    else this.logger.error(line);
    const message = this.redactor.redact(`${context}: ${summary(err)}`);
    const buttons: string[] = [];
    if ((err instanceof AuthError || err instanceof TokenWithheldError) && actions.updateToken) buttons.push('Update Token');
    if (actions.retry && (err instanceof NetworkError || err instanceof TimeoutError || (err instanceof LedgerError && err.kind === 'canton' && (err as { retryable?: boolean }).retryable))) buttons.push('Retry');
    buttons.push('Show Log');
    const choice = await vscode.window.showErrorMessage(message, ...buttons);
    if (choice === 'Update Token') await actions.updateToken?.();
    else if (choice === 'Retry') await actions.retry?.();
    else if (choice === 'Show Log') this.showLog();
  }
}

/** One line: the Canton code and cause (or the message) and the hint. */
export function summary(err: unknown): string {
  if (err instanceof LedgerError) return `${err.message}. ${err.hint}`;
  return err instanceof Error ? err.message : String(err);
}
