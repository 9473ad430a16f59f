import * as vscode from 'vscode';
import { disposeAll } from './lifecycle';

/** The user pressed the Back button of a wizard step. */
export const BACK = Symbol('back');
/** A step's answer: the value, BACK, or undefined when the user gave up (Escape). */
export type StepAnswer<T> = T | typeof BACK | undefined;

interface StepOptions {
  title: string;
  /** The step counter ("title (k/N)", or "(k)" without `totalSteps`). */
  step: number;
  totalSteps?: number;
}

/** One input box of a wizard, with a Back button after the first step; `validate` runs as you type and on Enter. */
export function inputStep(o: StepOptions & { prompt: string; value?: string; placeholder?: string; validate?: (value: string) => string | undefined }): Promise<StepAnswer<string>> {
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
export function pickStep<T extends vscode.QuickPickItem>(o: StepOptions & { placeholder: string; items: readonly T[]; active?: T }): Promise<StepAnswer<T>> {
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
