// Shared by the itinerary chain tests: points on the demo region's trail network, a small JSON client,
// and the chain invariant check.

import { expect } from 'vitest';
import type { Handle } from '../../../../server/http/pipeline.js';
import { inject } from '../../../../server/http/inject.js';
import { buildDemoRegion } from '../../../../data/region/demo-region.js';
import { latOf, lonOf, outEdges } from '../../../../data/region/region-graph.js';

let cached: [number, number][] | undefined;

/** Junction nodes (degree ≥ 3) of the demo trail network, lon/lat degrees, in a fixed order. */
export function networkPoints(): [number, number][] {
  if (cached) return cached;
  const g = buildDemoRegion().graph;
  const out: [number, number][] = [];
  for (let n = 0; n < g.nodeCount; n++) {
    if (outEdges(g, n).length >= 3) out.push([lonOf(g, n), latOf(g, n)]);
  }
  cached = out;
  return out;
}

export interface JsonResponse {
  status: number;
  body: any;
}

export type Send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<JsonResponse>;

/** A client over real HTTP with default headers. */
export function httpClient(baseUrl: string, defaults: Record<string, string>): Send {
  return async (method, path, body, headers = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...defaults, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/**
 * The chain invariant: positions 0..n-1, n+1 waypoints for n segments (none when empty), each segment
 * starting at the previous one's end to the coordinate, waypoints exactly on the joints.
 */
export function expectContinuousChain(it: any): void {
  const segments: any[] = it.segments;
  const waypoints: any[] = it.waypoints;
  expect(segments.map((s) => s.position)).toEqual(segments.map((_, i) => i));
  expect(waypoints.map((w) => w.position)).toEqual(waypoints.map((_, i) => i));
  expect(waypoints.length).toBe(segments.length === 0 ? 0 : segments.length + 1);
  segments.forEach((s, i) => {
    const coords: number[][] = s.geometry.coordinates;
    expect(s.geometry.type).toBe('LineString');
    expect(coords.length).toBeGreaterThanOrEqual(2);
    expect(coords[0]).toEqual(waypoints[i].coordinates);
    expect(coords[coords.length - 1]).toEqual(waypoints[i + 1].coordinates);
    if (i > 0) {
      const prev: number[][] = segments[i - 1].geometry.coordinates;
      expect(coords[0]).toEqual(prev[prev.length - 1]);
    }
    for (const c of coords) {
      expect(c.every((v) => Number.isFinite(v))).toBe(true);
      expect(Math.abs(c[0]!)).toBeLessThanOrEqual(180);
      expect(Math.abs(c[1]!)).toBeLessThanOrEqual(90);
    }
  });
  const groupIds = new Set((it.groups as any[]).map((g) => g.id));
  let prev: string | null = null;
  const seen = new Set<string>();
  for (const s of segments) {
    if (s.groupId !== null) {
      expect(groupIds.has(s.groupId)).toBe(true);
      if (s.groupId !== prev) {
        expect(seen.has(s.groupId)).toBe(false);
        seen.add(s.groupId);
      }
    }
    prev = s.groupId;
  }
}

/** A client that sends through the pipeline in-process (server/http/inject.ts), with default headers. */
export function injectClient(handle: Handle, headers: Record<string, string>): Send {
  return async (method, path, body) => {
    const res = await inject(handle, {
      method,
      path,
      headers: { ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: res.text ? res.json() : undefined };
  };
}
