import * as vscode from 'vscode';

export type MessageSeverity = 'info' | 'warning' | 'error';

/**
 * Every question the send commands ask (notifications with buttons, modal confirmations, quick picks)
 * goes through this, so that the end-to-end tests answer them instead of racing the UI.
 */
export interface SendPrompts {
  /** Shows a message with buttons; resolves with the chosen button (undefined: dismissed). */
  message(severity: MessageSeverity, text: string, actions: readonly string[], options?: { modal?: boolean; detail?: string }): Promise<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: { title: string; placeHolder?: string }): Promise<T | undefined>;
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
};
