// Request time budgets without a timer per request: pending requests register a deadline, and one
// shared interval (running only while something is pending) fires the expired ones.

export interface Deadline {
  at: number; // performance.now() value
  expire: () => void;
}

export class DeadlineSweeper {
  private readonly pending = new Set<Deadline>();
  private timer: NodeJS.Timeout | undefined;

  /** `resolutionMs` bounds how late a deadline may fire (the budget is a coarse guard, not a stopwatch). */
  constructor(private readonly resolutionMs = 25) {}

  add(deadline: Deadline): void {
    this.pending.add(deadline);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.resolutionMs);
      this.timer.unref();
    }
  }

  delete(deadline: Deadline): void {
    this.pending.delete(deadline);
    if (this.pending.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private sweep(): void {
    const now = performance.now();
    for (const deadline of this.pending) {
      if (deadline.at <= now) {
        this.delete(deadline);
        deadline.expire();
      }
    }
  }
}
