// Request time budgets without a timer per request: pending requests register a deadline, and one
// shared interval (running only while something is pending) fires the expired ones. The pending deadlines are a
// list linked through themselves, not a Set (see lib/linked-list.ts: a Set's old tables would keep every
// request a deadline closes over alive past young-generation collections).

import { LinkedList, type ListNode } from '../../lib/linked-list.js';

export interface Deadline extends ListNode {
  at: number; // performance.now() value
  expire: () => void;
}

export class DeadlineSweeper {
  readonly #pending = new LinkedList<Deadline>();
  #timer: NodeJS.Timeout | undefined;

  /** `resolutionMs` bounds how late a deadline may fire (the budget is a coarse guard, not a stopwatch). */
  constructor(private readonly resolutionMs = 25) {}

  /** How many deadlines are pending. */
  get size(): number {
    return this.#pending.size;
  }

  add(deadline: Deadline): void {
    this.#pending.push(deadline);
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#sweep(), this.resolutionMs);
      this.#timer.unref();
    }
  }

  delete(deadline: Deadline): void {
    this.#pending.delete(deadline);
    if (this.#pending.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #sweep(): void {
    const now = performance.now();
    // A copy of the list: an expiry may settle (and so remove) other deadlines.
    for (const deadline of this.#pending.entries()) {
      if (!deadline.listed || deadline.at > now) continue;
      this.delete(deadline);
      deadline.expire();
    }
  }
}
