// Segment geometry worked out on the worker pool, in-process: a freehand segment is measured by the
// kernels, and a split cuts at the kernel's nearest point, keeps every vertex and shares the measures.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGeometryFailure, lineLength, nearestOnLine } from '../../../../geo-wasm/src/geometry.js';
import { expectContinuousChain, type Send } from './chain-helpers.js';
import { type InProcessStudio, startInProcessStudio } from './in-process-studio.js';

/** A freehand line on the demo region (lon, lat): a bend, about 330 m. */
const DRAWN = [
  [1.56, 42.5],
  [1.561, 42.5005],
  [1.562, 42.501],
  [1.563, 42.5008],
];

let studio: InProcessStudio;
let owner: Send;
let other: Send;

beforeAll(async () => {
  studio = await startInProcessStudio();
  const key = studio.seeded.publishableKey.key;
  owner = studio.client({ 'X-API-Key': key, 'X-User-Id': studio.seeded.owner.id });
  other = studio.client({ 'X-API-Key': key, 'X-User-Id': studio.otherId });
});

afterAll(async () => {
  await studio?.close();
});

const flat = (coords: number[][]) => Float64Array.from(coords.flatMap((c) => [c[0]!, c[1]!]));
function kernelLength(coords: number[][]): number {
  const m = lineLength(flat(coords), 2);
  if (isGeometryFailure(m)) throw new Error(m.reason);
  return m;
}

async function freehand(name: string): Promise<any> {
  const id = (await owner('POST', '/v1/itineraries', { name })).body.data.id;
  const r = await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'freehand', coordinates: DRAWN });
  expect(r.status).toBe(201);
  return r.body.data;
}

describe('freehand segments', () => {
  it('are kept as drawn and measured by the kernels, elevation from the region', async () => {
    const it1 = await freehand('Measured');
    const s = it1.segments[0];
    expect(s.geometry.coordinates.map((c: number[]) => c.slice(0, 2))).toEqual(DRAWN);
    expect(s.distance).toBeCloseTo(kernelLength(DRAWN), 6);
    expect(s.duration).toBeGreaterThan(0);
    expect(s.geometry.coordinates.every((c: number[]) => Number.isFinite(c[2]))).toBe(true);
  });

  it('are measured again when redrawn', async () => {
    const it1 = await freehand('Redrawn');
    const redrawn = [DRAWN[0]!, [1.5615, 42.5015], DRAWN[3]!];
    const r = await owner('PUT', `/v1/itineraries/${it1.id}/segments/${it1.segments[0].id}`, { coordinates: redrawn });
    expect(r.status).toBe(200);
    expect(r.body.data.segments[0].distance).toBeCloseTo(kernelLength(redrawn), 6);
  });
});

describe('split', () => {
  it('cuts at the nearest point of the line: both parts meet there, keep every vertex and share the measures', async () => {
    const it1 = await freehand('Split inside');
    const s = it1.segments[0];
    const point = [1.5615, 42.5009];
    const r = await owner('POST', `/v1/itineraries/${it1.id}/segments/${s.id}/split`, { point });
    expect(r.status).toBe(200);
    const view = r.body.data;
    expectContinuousChain(view);
    const near = nearestOnLine(flat(s.geometry.coordinates), point[0]!, point[1]!, 2);
    if (isGeometryFailure(near)) throw new Error(near.reason);
    const at = view.waypoints[1].coordinates;
    expect(at.slice(0, 2)).toEqual([near.lon, near.lat]);
    const [head, tail] = view.segments.map((x: any) => x.geometry.coordinates);
    expect(head).toEqual([...s.geometry.coordinates.slice(0, near.segment + 1), at]);
    expect(tail).toEqual([at, ...s.geometry.coordinates.slice(near.segment + 1)]);
    for (const measure of ['distance', 'ascent', 'descent', 'duration']) {
      expect(view.segments[0][measure] + view.segments[1][measure], measure).toBeCloseTo(s[measure], 6);
    }
    expect(view.segments[0].distance).toBeCloseTo(kernelLength(head), 6);
  });

  it('at a vertex makes that vertex the joint, repeating nothing', async () => {
    const it1 = await freehand('Split at a vertex');
    const s = it1.segments[0];
    const vertex = s.geometry.coordinates[2];
    const r = await owner('POST', `/v1/itineraries/${it1.id}/segments/${s.id}/split`, { point: vertex.slice(0, 2) });
    expect(r.status).toBe(200);
    expect(r.body.data.waypoints[1].coordinates).toEqual(vertex);
    expect(r.body.data.segments.map((x: any) => x.geometry.coordinates.length)).toEqual([3, 2]);
  });

  it('at an end answers 400 at `point`, before any lock is looked at; inside a segment another holds, 409', async () => {
    const it1 = await freehand('Split at an end');
    const path = `/v1/itineraries/${it1.id}/segments/${it1.segments[0].id}/split`;
    const atEnd = await other('POST', path, { point: [1.57, 42.5] });
    expect(atEnd.status).toBe(400);
    expect(atEnd.body.errors.map((e: any) => e.path)).toEqual([['request', 'body', 'point']]);
    expect((await other('POST', path, { point: [1.5615, 42.5009] })).status).toBe(409);
    const view = (await owner('GET', `/v1/itineraries/${it1.id}`)).body.data;
    expect(view.segments).toHaveLength(1);
  });
});
