// The event loop's wait for a worker's answer. A thread that has gone to sleep takes long to run again once woken
// on virtual CPUs: measured here, the event loop, asleep in epoll while a worker computed a route, took ~130 µs
// after the worker posted its answer to go on (~40 µs when it had not slept), more than a short route takes to
// compute. So for a moment after handing a task to a worker, while a core is free for it, the loop polls for
// I/O instead of sleeping: a pending immediate makes libuv poll without blocking, so the answer is read as soon
// as it is posted. Under load the loop has work and does not sleep anyway: polling would only add turns (and an
// immediate each) to a busy loop, so it stops as soon as a turn finds that other work ran since the last. A quiet
// server pays the polling's CPU for at most the window after each task it hands over.
export class LoopPoller {
  #polling = false;
  #until = 0;
  #lastTurn = 0;

  /**
   * @param windowMs how long after a task is handed over the loop may poll
   * @param wanted whether polling is still wanted (a task on a worker, and a core free for the loop)
   * @param now the clock, in ms
   */
  constructor(
    private readonly windowMs: number,
    private readonly wanted: () => boolean,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Called when a task has been handed to a worker. */
  poke(): void {
    this.#until = this.now() + this.windowMs;
    if (this.#polling || !this.wanted()) return;
    this.#polling = true;
    this.#lastTurn = Number.NaN; // the rest of this turn is not a sign of a busy loop
    setImmediate(this.#tick);
  }

  get polling(): boolean {
    return this.#polling;
  }

  readonly #tick = (): void => {
    const now = this.now();
    const busy = now - this.#lastTurn > BUSY_TURN_MS; // false after NaN
    this.#lastTurn = now;
    if (!busy && now < this.#until && this.wanted()) setImmediate(this.#tick);
    else this.#polling = false;
  };
}

/** A turn of the loop longer than this did other work than polling: the loop is busy, and need not poll. */
const BUSY_TURN_MS = 0.05;
