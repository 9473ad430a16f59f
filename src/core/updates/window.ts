import type { Update } from '../models/updates';

/**
 * The newest updates of a live tail, at most `capacity` of them: older ones fall out, so memory stays
 * bounded however long the tail runs. Counts what arrived since the user last looked.
 */
export class UpdateWindow {
  private buffer: Update[] = [];
  private received = 0;
  private unseen = 0;

  constructor(readonly capacity = 1000) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, not ${capacity}`);
  }

  /** Appends updates in ledger order, dropping the oldest beyond the capacity. */
  push(updates: readonly Update[]): void {
    this.received += updates.length;
    this.unseen += updates.length;
    if (updates.length >= this.capacity) {
      this.buffer = updates.slice(updates.length - this.capacity);
      return;
    }
    this.buffer.push(...updates);
    // Trim in chunks, not one shift per update: amortised O(1) per update.
    if (this.buffer.length > this.capacity * 1.25) this.buffer = this.buffer.slice(this.buffer.length - this.capacity);
  }

  /** The kept updates, oldest first (at most `capacity`). */
  get items(): readonly Update[] {
    return this.buffer.length > this.capacity ? this.buffer.slice(this.buffer.length - this.capacity) : this.buffer;
  }

  /** The kept updates, newest first. */
  newestFirst(): Update[] {
    return [...this.items].reverse();
  }

  get size(): number {
    return Math.min(this.buffer.length, this.capacity);
  }

  /** Updates received in total, including those that fell out of the window. */
  get totalReceived(): number {
    return this.received;
  }

  /** Updates received since `markSeen()`. */
  get newCount(): number {
    return this.unseen;
  }

  markSeen(): void {
    this.unseen = 0;
  }

  clear(): void {
    this.buffer = [];
    this.unseen = 0;
  }
}
