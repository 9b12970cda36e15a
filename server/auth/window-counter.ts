// Fixed one-minute window counters behind a small asynchronous interface (in memory now; Redis later,
// DESIGN §14, where every call is a round trip).

export interface WindowCounter {
  /** Adds one to `key` in the current window and resolves to the count after adding. Rejects if the store fails. */
  increment(key: string, nowMs?: number): Promise<number>;
  /** The count of `key` in the current window. Rejects if the store fails. */
  peek(key: string, nowMs?: number): Promise<number>;
}

/** Windows start on the minute boundary (`floor(now / windowMs)`), so every counter refills at the same instant. */
export class MemoryWindowCounter implements WindowCounter {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(private readonly windowMs = 60_000) {}

  async increment(key: string, nowMs = Date.now()): Promise<number> {
    this.roll(nowMs);
    const next = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, next);
    return next;
  }

  async peek(key: string, nowMs = Date.now()): Promise<number> {
    this.roll(nowMs);
    return this.counts.get(key) ?? 0;
  }

  /** Starting a new window drops every count of the old one (bounded memory). */
  private roll(nowMs: number): void {
    const window = Math.floor(nowMs / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
  }
}
