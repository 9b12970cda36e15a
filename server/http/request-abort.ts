// Cancellation of one request: the client went away or its time budget was spent.

import type { CancelSignal } from '../../lib/cancel-signal.js';

/**
 * The request's cancellation, itself a CancelSignal (what operations and the pool listen to). The AbortController
 * behind `signal` is created only when a route handler asks for a real AbortSignal (one costs µs on Node 20).
 */
export class RequestAbort implements CancelSignal {
  private controller: AbortController | undefined;
  private reason: unknown;
  private isAborted = false;
  private listeners: (() => void)[] | undefined;

  get aborted(): boolean {
    return this.isAborted;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.isAborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** As on an AbortSignal: called once on abort, not when added after it. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.isAborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners?.splice(at, 1);
  }

  abort(reason: unknown): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
    this.controller?.abort(reason);
  }
}
