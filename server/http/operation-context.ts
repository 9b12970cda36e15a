// The operation context of an HTTP request: what every transport on this server (REST, GraphQL, MCP) hands an
// operation besides the caller and the input.

import type { OperationContext } from '../core/operation.js';
import type { Language } from '../i18n/messages.js';
import type { RequestContext } from './route.js';

/**
 * `signal` is a getter: an AbortController made for every call would outlive it (Node keeps signals for a major
 * GC), and only operations that wait on the pool ask for one. It is defined on the class, not on an object
 * literal: V8 allocates an object literal's accessor pair in the old generation, which then keeps its young
 * getter, and through it the whole request, alive past every young-generation collection (each request was
 * promoted: ~1 MB a scavenge and 5 ms pauses on the Studio write path).
 */
class HttpOperationContext implements OperationContext {
  readonly origin: string;
  readonly lang: Language;

  constructor(private readonly ctx: RequestContext) {
    this.origin = `http://${ctx.headers.host ?? 'localhost'}`;
    this.lang = ctx.lang;
  }

  get signal(): AbortSignal {
    return this.ctx.signal;
  }
}

export function operationContext(ctx: RequestContext): OperationContext {
  return new HttpOperationContext(ctx);
}
