// The operation context of an HTTP request: what every transport on this server (REST, GraphQL, MCP) hands an
// operation besides the caller and the input.

import type { CancelSignal } from '../../lib/cancel-signal.js';
import type { OperationContext } from '../core/operation.js';
import type { Language } from '../i18n/messages.js';
import type { RequestContext } from './route.js';

/**
 * `signal` is the request's own cancellation, not an AbortSignal: an AbortController made for every call would
 * outlive it (Node keeps signals for a major GC). A class, not an object literal: V8 allocates an object literal's
 * accessor pair in the old generation, which then keeps its young getter, and through it the whole request, alive
 * past every young-generation collection (each request was promoted: ~1 MB a scavenge and 5 ms pauses on the Studio
 * write path).
 */
class HttpOperationContext implements OperationContext {
  readonly origin: string;
  readonly lang: Language;
  readonly signal: CancelSignal;

  constructor(ctx: RequestContext) {
    this.origin = `http://${ctx.headers.host ?? 'localhost'}`;
    this.lang = ctx.lang;
    this.signal = ctx.cancel;
  }
}

export function operationContext(ctx: RequestContext): OperationContext {
  return new HttpOperationContext(ctx);
}
