// Shared by the submit and vetting suites: scripted answers for the send commands' questions, and files
// written into the run's workspace.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { MessageSeverity, Prompts } from '../../../src/vscode/kit/prompts';
import { unanswered } from '../../vscode/scriptedPrompts';
import { activate, workspaceDir } from './helpers';

export interface AskedMessage {
  severity: MessageSeverity;
  text: string;
  actions: readonly string[];
  modal: boolean;
  detail?: string;
}

type PickAnswer = (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined;

/**
 * Answers the send commands' questions from queues, in order, and records each question. A message
 * with no queued answer is dismissed (undefined); so is a quick pick.
 */
export class ScriptedPrompts implements Prompts {
  readonly messages: AskedMessage[] = [];
  readonly picks: Array<{ title: string; items: readonly vscode.QuickPickItem[] }> = [];
  private readonly answers: Array<string | undefined> = [];
  private readonly pickAnswers: PickAnswer[] = [];
  readonly progressTitles: string[] = [];
  private cancelAfterMs: number | undefined;

  /** Queue the buttons to press on the next messages (undefined: dismiss). */
  answer(...choices: Array<string | undefined>): this {
    this.answers.push(...choices);
    return this;
  }

  /** The next progress is cancelled (as by its Cancel button) after `ms`. */
  cancelNextProgressAfter(ms: number): this {
    this.cancelAfterMs = ms;
    return this;
  }

  async progress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.progressTitles.push(title);
    const controller = new AbortController();
    const ms = this.cancelAfterMs;
    this.cancelAfterMs = undefined;
    const timer = ms === undefined ? undefined : setTimeout(() => controller.abort(), ms);
    try {
      return await task(controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  answerPick(choose: PickAnswer): this {
    this.pickAnswers.push(choose);
    return this;
  }

  async message(severity: MessageSeverity, text: string, actions: readonly string[], options: { modal?: boolean; detail?: string } = {}): Promise<string | undefined> {
    this.messages.push({ severity, text, actions, modal: options.modal === true, detail: options.detail });
    const choice = this.answers.shift();
    if (choice !== undefined && !actions.includes(choice)) throw new Error(`scripted answer "${choice}" is not among the offered actions [${actions.join(', ')}] of: ${text}`);
    return choice;
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[], options: { title: string }): Promise<T | undefined> {
    this.picks.push({ title: options.title, items });
    return this.pickAnswers.shift()?.(items) as T | undefined;
  }

  // The questions no suite here scripts: dismissed (a view's progress runs its task).
  readonly pickMany = unanswered.pickMany;
  readonly input = unanswered.input;
  readonly inputStep = unanswered.inputStep;
  readonly pickStep = unanswered.pickStep;
  readonly openDialog = unanswered.openDialog;
  readonly saveDialog = unanswered.saveDialog;
  readonly viewProgress = unanswered.viewProgress;

  last(): AskedMessage {
    const m = this.messages[this.messages.length - 1];
    if (!m) throw new Error('no message was shown');
    return m;
  }
}

/** Installs scripted prompts for one test; returns them. */
export async function scripted(): Promise<{ api: CantonLedgerApi; prompts: ScriptedPrompts }> {
  const api = await activate<CantonLedgerApi>();
  const prompts = new ScriptedPrompts();
  api.send.prompts = prompts;
  return { api, prompts };
}

/** Starts the demo participant (if needed), connects it and makes it the active connection. */
export async function demoParticipant(api: CantonLedgerApi) {
  await vscode.commands.executeCommand('cantonLedger.demo.start');
  const p = api.demo.participant;
  if (!p) throw new Error('the demo participant did not start');
  await api.connections.profiles.setActive('demo');
  return p;
}

/** Writes `value` as JSON to `<workspace>/send-e2e/<name>` and returns its URI. */
export function writeWorkspaceJson(name: string, value: unknown): vscode.Uri {
  const dir = path.join(workspaceDir(), 'send-e2e');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
  return vscode.Uri.file(file);
}

export async function documentJson(uri: vscode.Uri | undefined): Promise<any> {
  if (!uri) throw new Error('no document');
  return JSON.parse((await vscode.workspace.openTextDocument(uri)).getText());
}

export async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
