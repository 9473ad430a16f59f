import * as vscode from 'vscode';
import { LedgerError } from '../../../core/errors';
import type { Logger } from '../../../core/log';
import type { Redactor } from '../../../core/redact';
import { summary, withCancellableProgress } from '../../ui';

export type MessageSeverity = 'info' | 'warning' | 'error';

/**
 * Every question the send commands ask (notifications with buttons, modal confirmations, quick picks)
 * goes through this, so that the end-to-end tests answer them instead of racing the UI.
 */
export interface SendPrompts {
  /** Shows a message with buttons; resolves with the chosen button (undefined: dismissed). */
  message(severity: MessageSeverity, text: string, actions: readonly string[], options?: { modal?: boolean; detail?: string }): Promise<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: { title: string; placeHolder?: string }): Promise<T | undefined>;
  /** Runs `task` under a cancellable progress notification; Cancel aborts the signal. */
  progress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

const SHOW = {
  info: vscode.window.showInformationMessage,
  warning: vscode.window.showWarningMessage,
  error: vscode.window.showErrorMessage,
} as const;

export const windowPrompts: SendPrompts = {
  async message(severity, text, actions, options = {}) {
    return SHOW[severity](text, { modal: options.modal, detail: options.detail }, ...actions);
  },
  async pick(items, options) {
    return vscode.window.showQuickPick(items, { title: options.title, placeHolder: options.placeHolder, ignoreFocusOut: true });
  },
  async progress(title, task) {
    return withCancellableProgress(title, (signal) => task(signal));
  },
};

/**
 * A failure without a fix of its own: the full error (redacted) to the log, a short message with
 * "Show Log" to the user (like ErrorReporter, but through the prompts the tests answer).
 */
export async function reportFailure(
  deps: { logger: Logger; redactor: Redactor; showLog: () => void },
  prompts: SendPrompts,
  context: string,
  e: unknown,
): Promise<string | undefined> {
  deps.logger.error(`${context}: ${deps.redactor.redactError(e)}${e instanceof LedgerError ? `\n  hint: ${e.hint}` : ''}`);
  const action = await prompts.message('error', deps.redactor.redact(`${context}: ${summary(e)}`), [SHOW_LOG]);
  if (action === SHOW_LOG) deps.showLog();
  return action;
}

export const SHOW_LOG = 'Show Log';
