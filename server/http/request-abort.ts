// Cancellation of one request: the client went away or its time budget was spent.

/** The AbortController behind `signal` is created only when a handler asks for it (one costs µs on Node 20). */
export class RequestAbort {
  private controller: AbortController | undefined;
  private reason: unknown;
  private isAborted = false;

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

  abort(reason: unknown): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}
