import * as vscode from 'vscode';
import type { Prompts } from './prompts';

/** Runs `task` with a cancellable progress notification; Cancel aborts the signal the task passes on to fetch. */
export function withCancellableProgress<T>(title: string, task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<T>, location: vscode.ProgressOptions['location'] = vscode.ProgressLocation.Notification): Thenable<T> {
  return vscode.window.withProgress({ location, title, cancellable: true }, (progress, token) => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    return task(controller.signal, progress).finally(() => sub.dispose());
  });
}

const SHOW = {
  info: vscode.window.showInformationMessage,
  warning: vscode.window.showWarningMessage,
  error: vscode.window.showErrorMessage,
} as const;

/** The prompts of a window: notifications, modal dialogs, quick picks and progress notifications. */
export const windowPrompts: Prompts = {
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
