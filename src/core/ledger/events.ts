/** A subscription that ends with `dispose()` (shaped like VS Code's, so the glue can hold either). */
export interface Subscription {
  dispose(): void;
}

export type Listener<T> = (value: T) => void;

/** A tiny event emitter for the core, which has no `vscode` to take one from. */
export class Emitter<T> {
  private listeners = new Set<Listener<T>>();

  /** Subscribes `listener`; the returned subscription removes it again. */
  readonly event = (listener: Listener<T>): Subscription => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    // One listener (or none), the usual case, is called without copying the set.
    if (this.listeners.size <= 1) {
      const only = this.listeners.values().next().value;
      only?.(value);
      return;
    }
    // A copy: a listener may unsubscribe (itself or another) while being called.
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
