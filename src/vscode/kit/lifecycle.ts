// What the glue's classes that hold registrations (commands, views, listeners, emitters) extend, so
// that none of them writes its own dispose loop. No 'vscode' import: anything with dispose() fits.

/** Anything that can be disposed: a VS Code registration, an emitter, a subscription. */
export interface IDisposable {
  dispose(): unknown;
}

/** Disposes each, last first; every one is disposed even when one throws, and the first error is rethrown. */
export function disposeAll(disposables: Iterable<IDisposable>): void {
  let first: { error: unknown } | undefined;
  for (const d of [...disposables].reverse()) {
    try {
      d.dispose();
    } catch (error) {
      first ??= { error };
    }
  }
  if (first) throw first.error;
}

/** A disposable that runs `fn` once. */
export function toDisposable(fn: () => unknown): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/**
 * A holder of registrations: what it `_register`s is disposed with it, in the reverse order of
 * registration (what came later may use what came earlier). Disposing twice does nothing the second
 * time; a registration made after disposal is disposed at once (nothing leaks from late callbacks).
 */
export abstract class Disposable implements IDisposable {
  readonly #registered: IDisposable[] = [];
  #disposed = false;

  protected get isDisposed(): boolean {
    return this.#disposed;
  }

  protected _register<T extends IDisposable>(disposable: T): T {
    if (this.#disposed) disposable.dispose();
    else this.#registered.push(disposable);
    return disposable;
  }

  protected _registerAll(...disposables: IDisposable[]): void {
    for (const d of disposables) this._register(d);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    disposeAll(this.#registered.splice(0));
  }
}

/** A Disposable to hand registrations to from outside a class (a feature's register function). */
export class DisposableStore extends Disposable {
  add<T extends IDisposable>(disposable: T): T {
    return this._register(disposable);
  }
}
