// Prompts a test answers, for the glue's flows: every question is recorded in order, and answered by
// the next scripted answer, which must be for a question of that kind (else the test fails there); a
// question with no answer left is dismissed. An input box's answer passes its validation first, as
// a user's Enter would have to.
import * as vscode from 'vscode';
import { BACK, type InputOptions, type InputProblem, type InputStepOptions, type MessageOptions, type MessageSeverity, type PickOptions, type PickStepOptions, type ProgressTask, type Prompts, type StepAnswer } from '../../src/vscode/kit/prompts';

type Kind = 'message' | 'pick' | 'pickMany' | 'input' | 'inputStep' | 'pickStep' | 'openDialog' | 'saveDialog';

export interface Asked {
  kind: Kind;
  /** A message's text; a question's title. */
  title: string;
  /** The buttons or the items' labels offered. */
  offered: string[];
  /** Everything the question was asked with. */
  options: unknown;
}

type Answer = { kind: Kind; answer: (asked: Asked, items: readonly vscode.QuickPickItem[]) => unknown };

/** A problem that keeps Enter from accepting (a warning or a note does not). */
function refusal(problem: InputProblem): string | undefined {
  if (problem === undefined || problem === null) return undefined;
  if (typeof problem === 'string') return problem || undefined;
  return problem.severity === vscode.InputBoxValidationSeverity.Error ? problem.message : undefined;
}

const byLabel = (label: string | undefined) => (items: readonly vscode.QuickPickItem[]) => {
  if (label === undefined) return undefined;
  const item = items.find((i) => i.label === label);
  if (!item) throw new Error(`scripted: no item "${label}" among ${items.map((i) => `"${i.label}"`).join(', ')}`);
  return item;
};

export class ScriptedPrompts implements Prompts {
  readonly asked: Asked[] = [];
  readonly progressTitles: string[] = [];
  /** The views whose progress bar was shown, in order. */
  readonly busyViews: string[] = [];
  private readonly answers: Answer[] = [];

  /** The next message is answered with `button` (undefined: dismissed). */
  answerMessage(button: string | undefined): this {
    return this.queue('message', ({ offered, title }) => {
      if (button !== undefined && !offered.includes(button)) throw new Error(`scripted: "${button}" is not a button of "${title}" (${offered.join(', ')})`);
      return button;
    });
  }

  /** The next open dialog is answered with `uris` (undefined: dismissed). */
  answerOpenDialog(uris: readonly vscode.Uri[] | undefined): this {
    return this.queue('openDialog', () => uris && [...uris]);
  }

  /** The next quick pick takes the item labelled `label` (undefined: dismissed). */
  answerPick(label: string | undefined): this {
    return this.queue('pick', (_asked, items) => byLabel(label)(items));
  }

  /** The next input box is answered with `text` (undefined: dismissed), which its validation must accept. */
  answerInput(text: string | undefined): this {
    return this.queue('input', async (asked) => {
      const problem = text === undefined ? undefined : refusal(await (asked.options as InputOptions).validateInput?.(text));
      if (problem) throw new Error(`scripted: "${asked.title}" refuses "${text}": ${problem}`);
      return text;
    });
  }

  /** The next wizard input box is answered with `text`, Back or Escape (undefined). */
  answerInputStep(text: StepAnswer<string>): this {
    return this.queue('inputStep', (asked) => {
      const problem = typeof text === 'string' ? (asked.options as InputStepOptions).validate?.(text) : undefined;
      if (problem) throw new Error(`scripted: "${asked.title}" (step ${(asked.options as InputStepOptions).step}) refuses "${String(text)}": ${problem}`);
      return text;
    });
  }

  /** The next wizard pick takes the item labelled `label`, Back or Escape (undefined). */
  answerPickStep(label: string | typeof BACK | undefined): this {
    return this.queue('pickStep', (_asked, items) => (label === BACK ? BACK : byLabel(label)(items)));
  }

  private queue(kind: Kind, answer: Answer['answer']): this {
    this.answers.push({ kind, answer });
    return this;
  }

  /** Records the question and takes the next answer, which must be for this kind of question. */
  private async ask(kind: Kind, title: string, offered: string[], options: unknown, items: readonly vscode.QuickPickItem[] = []): Promise<unknown> {
    const asked = { kind, title, offered, options };
    this.asked.push(asked);
    const next = this.answers.shift();
    if (!next) return undefined;
    if (next.kind !== kind) throw new Error(`scripted: a ${next.kind} answer was next, but the question is a ${kind}: "${title}"`);
    return next.answer(asked, items);
  }

  async message(severity: MessageSeverity, text: string, actions: readonly string[], options: MessageOptions = {}): Promise<string | undefined> {
    return (await this.ask('message', text, [...actions], { severity, ...options })) as string | undefined;
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[], options: PickOptions): Promise<T | undefined> {
    return (await this.ask('pick', options.title, items.map((i) => i.label), options, items)) as T | undefined;
  }

  async pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: PickOptions): Promise<T[] | undefined> {
    return (await this.ask('pickMany', options.title, items.map((i) => i.label), options, items)) as T[] | undefined;
  }

  async input(options: InputOptions): Promise<string | undefined> {
    return (await this.ask('input', options.title, [], options)) as string | undefined;
  }

  async inputStep(options: InputStepOptions): Promise<StepAnswer<string>> {
    return (await this.ask('inputStep', options.title, [], options)) as StepAnswer<string>;
  }

  async pickStep<T extends vscode.QuickPickItem>(options: PickStepOptions<T>): Promise<StepAnswer<T>> {
    return (await this.ask('pickStep', options.title, options.items.map((i) => i.label), options, options.items)) as StepAnswer<T>;
  }

  async openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    return (await this.ask('openDialog', options.title ?? '', [], options)) as vscode.Uri[] | undefined;
  }

  async saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    return (await this.ask('saveDialog', options.title ?? '', [], options)) as vscode.Uri | undefined;
  }

  async progress<T>(title: string, task: ProgressTask<T>): Promise<T> {
    this.progressTitles.push(title);
    return task(new AbortController().signal, () => undefined);
  }

  async viewProgress<T>(viewId: string, task: () => Promise<T>): Promise<T> {
    this.busyViews.push(viewId);
    return task();
  }

  /** The questions not yet asked: a test that scripted more answers than the flow asked for fails on them. */
  get unanswered(): Kind[] {
    return this.answers.map((a) => a.kind);
  }
}

/** Every question dismissed, every progress run to its end: a user who answers nothing. */
export const unanswered: Prompts = {
  message: async () => undefined,
  pick: async () => undefined,
  pickMany: async () => undefined,
  input: async () => undefined,
  inputStep: async () => undefined,
  pickStep: async () => undefined,
  openDialog: async () => undefined,
  saveDialog: async () => undefined,
  progress: (_title, task) => task(new AbortController().signal),
  viewProgress: (_viewId, task) => task(),
};
