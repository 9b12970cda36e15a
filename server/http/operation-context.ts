// The operation context of an HTTP request: what every transport on this server (REST, GraphQL, MCP) hands an
// operation besides the caller and the input.

import type { OperationContext } from '../core/operation.js';
import type { RequestContext } from './route.js';

export function operationContext(ctx: RequestContext): OperationContext {
  return {
    // A getter: an AbortController made for every call would outlive it (Node keeps signals for a major GC), and
    // only operations that wait on the pool ask for one.
    get signal() {
      return ctx.signal;
    },
    origin: `http://${ctx.headers.host ?? 'localhost'}`,
    lang: ctx.lang,
  };
}
