// Request time budgets without a timer per request: pending requests register a deadline, and one
// shared interval (running only while something is pending) fires the expired ones.
//
// The pending deadlines form a list linked through the deadlines themselves, not a Set: a long-lived Set
// lives in V8's old generation, and each time it rehashes, the table it leaves behind still points at the
// deadlines it held, so every request those deadlines close over would survive the next young-generation
// collection and be promoted (see ../core/linked-queue.ts). Unlinking clears a deadline's links at once.

export interface Deadline {
  at: number; // performance.now() value
  expire: () => void;
}

interface Linked extends Deadline {
  previous?: Linked | undefined;
  next?: Linked | undefined;
  /** In the list (a deadline removed twice, or never added, is left alone). */
  linked?: boolean;
}

export class DeadlineSweeper {
  #first: Linked | undefined;
  #timer: NodeJS.Timeout | undefined;

  /** `resolutionMs` bounds how late a deadline may fire (the budget is a coarse guard, not a stopwatch). */
  constructor(private readonly resolutionMs = 25) {}

  add(deadline: Deadline): void {
    const node = deadline as Linked;
    if (node.linked) return;
    node.linked = true;
    node.previous = undefined;
    node.next = this.#first;
    if (this.#first) this.#first.previous = node;
    this.#first = node;
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#sweep(), this.resolutionMs);
      this.#timer.unref();
    }
  }

  delete(deadline: Deadline): void {
    const node = deadline as Linked;
    if (!node.linked) return;
    node.linked = false;
    if (node.previous) node.previous.next = node.next;
    else this.#first = node.next;
    if (node.next) node.next.previous = node.previous;
    node.previous = undefined;
    node.next = undefined;
    if (!this.#first && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** How many deadlines are pending (tests). */
  get size(): number {
    let count = 0;
    for (let node = this.#first; node; node = node.next) count++;
    return count;
  }

  #sweep(): void {
    const now = performance.now();
    // Collected first: an expiry may settle (and so remove) other deadlines.
    const expired: Linked[] = [];
    for (let node = this.#first; node; node = node.next) if (node.at <= now) expired.push(node);
    for (const node of expired) {
      if (!node.linked) continue;
      this.delete(node);
      node.expire();
    }
  }
}
