// Routes that misbehave on purpose, so the test suite can prove the time budget and the 5xx rules over real
// HTTP, and the event-loop delay the benchmarks read around a load. Only the diagnostic server (./main.ts)
// registers them; never the production server, never the OpenAPI document.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../server/errors.js';
import type { RouteDef } from '../../server/http/route.js';

const Ms = Type.Object({ ms: Type.Integer({ minimum: 0, maximum: 60_000 }) }, { additionalProperties: false });

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy-wait: simulates synchronous work that keeps the event loop from firing the budget timer
  }
}

const RESOLUTION_MS = 10;
/** A sample is the time between two ticks of a RESOLUTION_MS timer; how late the tick came is the rest. */
const lateMs = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);

export function diagnosticRoutes(): RouteDef[] {
  // How late the event loop ran a 10 ms timer since the last read (benchmarks read it around a load).
  const loopDelay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  loopDelay.enable();
  return [
    {
      op: 'diagEventLoop',
      method: 'GET',
      path: '/_diagnostics/event-loop',
      scope: 'public',
      writes: false,
      handler: () => {
        const json = {
          samples: loopDelay.count,
          p50Ms: lateMs(loopDelay.percentile(50)),
          p99Ms: lateMs(loopDelay.percentile(99)),
          maxMs: lateMs(loopDelay.max),
        };
        loopDelay.reset();
        return { json };
      },
    },
    {
      op: 'diagSlow',
      method: 'GET',
      path: '/_diagnostics/slow',
      scope: 'public',
      writes: false,
      query: Ms,
      handler: async ({ query, signal }) => {
        await sleep(query.ms, signal);
        return { json: { slept: query.ms } };
      },
    },
    {
      op: 'diagCrash',
      method: 'GET',
      path: '/_diagnostics/crash',
      scope: 'public',
      writes: false,
      handler: () => {
        throw new Error('diagnostic crash with secret detail sk_ShouldNeverLeakIntoResponses');
      },
    },
    {
      op: 'diagUnavailable',
      method: 'GET',
      path: '/_diagnostics/unavailable',
      scope: 'public',
      writes: false,
      handler: () => {
        throw new ApiError('SERVICE_UNAVAILABLE');
      },
    },
    blockThen('diagBlockThenNotFound', '/_diagnostics/block-then-not-found', () => new ApiError('NOT_FOUND')),
    blockThen('diagBlockThenCrash', '/_diagnostics/block-then-crash', () => new Error('late failure')),
  ];
}

/** A route that keeps the event loop busy for `?ms=` (past the budget timer), then fails with `failure()`. */
function blockThen(op: string, path: string, failure: () => Error): RouteDef {
  return {
    op,
    method: 'GET',
    path,
    scope: 'public',
    writes: false,
    query: Ms,
    handler: ({ query }) => {
      blockFor(query.ms);
      throw failure();
    },
  };
}
