// The window's side of the prompts port: the one file of src/vscode that calls the window's questions
// (messages, quick picks, input boxes, dialogs) and progress; everything else asks through `Prompts`
// (./prompts), which tests answer. test/vscode/promptsPort.test.ts keeps it so.
import vscode = require('vscode');
import { disposeAll } from './lifecycle';
import { BACK, type InputStepOptions, type PickStepOptions, type Prompts, type StepAnswer } from './prompts';

const SHOW = {
  info: vscode.window.showInformationMessage,
  warning: vscode.window.showWarningMessage,
  error: vscode.window.showErrorMessage,
} as const;

/** The prompts of a window: notifications, modal dialogs, quick picks, input boxes, file dialogs and progress. */
export const windowPrompts: Prompts = {
  async message(severity, text, actions, options = {}) {
    return SHOW[severity](text, { modal: options.modal, detail: options.detail }, ...actions);
  },
  async pick(items, options) {
    return vscode.window.showQuickPick(items, { ...options, ignoreFocusOut: options.ignoreFocusOut ?? true });
  },
  async pickMany(items, options) {
    return vscode.window.showQuickPick(items, { ...options, ignoreFocusOut: options.ignoreFocusOut ?? true, canPickMany: true });
  },
  async input(options) {
    return vscode.window.showInputBox(options);
  },
  inputStep,
  pickStep,
  async openDialog(options) {
    return vscode.window.showOpenDialog(options);
  },
  async saveDialog(options) {
    return vscode.window.showSaveDialog(options);
  },
  /** Cancel aborts the signal the task passes on to fetch. */
  async progress(title, task) {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      return task(controller.signal, (message) => progress.report({ message })).finally(() => sub.dispose());
    });
  },
  async viewProgress(viewId, task) {
    return vscode.window.withProgress({ location: { viewId } }, task);
  },
};

/** One input box of a wizard, with a Back button after the first step; `validate` runs as you type and on Enter. */
function inputStep(o: InputStepOptions): Promise<StepAnswer<string>> {
  const box = vscode.window.createInputBox();
  Object.assign(box, { title: o.title, step: o.step, totalSteps: o.totalSteps, prompt: o.prompt, value: o.value ?? '', placeholder: o.placeholder, ignoreFocusOut: true });
  if (o.step > 1) box.buttons = [vscode.QuickInputButtons.Back];
  const check = (v: string) => (box.validationMessage = o.validate?.(v));
  // An empty field is not an error before the user typed anything.
  if (box.value) check(box.value);
  return run(box, (settle, subscriptions) =>
    subscriptions.push(
      box.onDidChangeValue(check),
      box.onDidAccept(() => !check(box.value) && settle(box.value)),
    ),
  );
}

/** One quick pick of a wizard (single choice), with a Back button after the first step; `active` is highlighted first. */
function pickStep<T extends vscode.QuickPickItem>(o: PickStepOptions<T>): Promise<StepAnswer<T>> {
  const pick = vscode.window.createQuickPick<T>();
  Object.assign(pick, { title: o.title, step: o.step, totalSteps: o.totalSteps, placeholder: o.placeholder, items: o.items, ignoreFocusOut: true });
  if (o.active) pick.activeItems = [o.active];
  if (o.step > 1) pick.buttons = [vscode.QuickInputButtons.Back];
  return run(pick, (settle, subscriptions) => subscriptions.push(pick.onDidAccept(() => pick.selectedItems[0] && settle(pick.selectedItems[0]))));
}

/** Shows a quick input until it is accepted (`wire` calls settle), backed out of, or hidden. */
function run<T>(input: vscode.InputBox | vscode.QuickPick<vscode.QuickPickItem>, wire: (settle: (v: StepAnswer<T>) => void, subscriptions: vscode.Disposable[]) => void): Promise<StepAnswer<T>> {
  return new Promise<StepAnswer<T>>((resolve) => {
    const subscriptions: vscode.Disposable[] = [];
    let done = false;
    const settle = (v: StepAnswer<T>) => {
      if (done) return;
      done = true;
      disposeAll([input, ...subscriptions]);
      resolve(v);
    };
    wire(settle, subscriptions);
    subscriptions.push(
      input.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && settle(BACK)),
      input.onDidHide(() => settle(undefined)),
    );
    input.show();
  });
}
