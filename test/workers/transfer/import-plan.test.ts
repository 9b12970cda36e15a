// The import rule: lines joined in order, every point kept, split at each waypoint's nearest vertex (moved
// there when farther than 25 m), and at the segment starts Cairn's exports mark; what is left out is counted.

import { describe, expect, it } from 'vitest';
import type { ImportedTrack } from '../../../workers/transfer/imported-track.js';
import { DECORATION_DISTANCE_M, SPLIT_DISTANCE_M } from '../../../contracts/transfer.js';
import { planImport } from '../../../workers/transfer/import-plan.js';
import { ImportProblem } from '../../../workers/transfer/import-problem.js';

/** A straight line east along 42.5N from 1.55E, one vertex every ~82 m (0.001 deg). */
const line = (n: number, from = 0) => Array.from({ length: n }, (_, i) => [1.55 + (from + i) * 0.001, 42.5, 1000 + i]);
const M_PER_DEG_LAT = 111_195;
const triples = (flat: number[]) => Array.from({ length: flat.length / 3 }, (_, i) => flat.slice(i * 3, i * 3 + 3));

describe('planImport', () => {
  it('keeps a line without waypoints as one segment with every point', () => {
    const plan = planImport({ lines: [line(10)], waypoints: [] });
    expect(plan.lines).toHaveLength(1);
    expect(triples(plan.lines[0]!)).toEqual(line(10));
    expect(plan.waypoints).toEqual([{ coordinates: line(10)[0] }, { coordinates: line(10)[9] }]);
  });

  it('joins lines in order, dropping only a repeated junction point', () => {
    const plan = planImport({ lines: [line(5), line(5, 4), line(3, 10)], waypoints: [] });
    const points = triples(plan.lines[0]!);
    expect(points).toHaveLength(5 + 4 + 3);
    expect(points.map((p) => p[0])).toEqual([...line(9), ...line(3, 10)].map((p) => p[0]));
  });

  it('splits at waypoints within 25 m of a vertex, at the vertex, and names the junctions', () => {
    const offset = 20 / M_PER_DEG_LAT; // 20 m north of vertex 3
    const track: ImportedTrack = {
      lines: [line(10)],
      waypoints: [
        { name: 'Hut', kind: 'hut', coordinates: [1.553, 42.5 + offset] },
        { name: 'Pass', coordinates: line(10)[7]! },
        { name: 'Start', coordinates: line(10)[0]! },
      ],
    };
    const plan = planImport(track);
    expect(plan.lines.map((l) => l.length / 3)).toEqual([4, 5, 3]);
    expect(plan.waypoints.map((w) => w.name ?? null)).toEqual(['Start', 'Hut', 'Pass', null]);
    expect(plan.waypoints[1]).toEqual({ name: 'Hut', kind: 'hut', coordinates: line(10)[3] });
    expect(SPLIT_DISTANCE_M).toBe(25);
    expect(plan.losses).toEqual([]);
  });

  it('moves a waypoint farther than 25 m onto its nearest vertex and counts it with the longest move', () => {
    const plan = planImport({
      lines: [line(10)],
      waypoints: [
        { name: 'Far', coordinates: [1.555, 42.5 + 30 / M_PER_DEG_LAT] },
        { name: 'Farther', coordinates: [1.557, 42.5 - 120 / M_PER_DEG_LAT] },
      ],
    });
    expect(plan.lines.map((l) => l.length / 3)).toEqual([6, 3, 3]);
    expect(plan.waypoints.map((w) => w.name ?? null)).toEqual([null, 'Far', 'Farther', null]);
    expect(plan.waypoints[1]!.coordinates).toEqual(line(10)[5]);
    expect(plan.losses).toEqual([{ kind: 'waypoint_moved_onto_track', count: 2, distance_m: 121 }]);
  });

  it('moves an off-line waypoint whose nearest vertex a waypoint on the line holds to the nearest free one', () => {
    const plan = planImport({
      lines: [line(10)],
      waypoints: [
        { name: 'Far', coordinates: [1.5538, 42.5 + 200 / M_PER_DEG_LAT] },
        { name: 'On', coordinates: line(10)[4]! },
      ],
    });
    expect(plan.waypoints.map((w) => w.name ?? null)).toEqual([null, 'Far', 'On', null]);
    expect(plan.waypoints[1]!.coordinates).toEqual(line(10)[3]);
    expect(plan.losses.map((l) => [l.kind, l.count])).toEqual([['waypoint_moved_onto_track', 1]]);
  });

  it('lets the first waypoint on a vertex win and counts the others', () => {
    const plan = planImport({
      lines: [line(6)],
      waypoints: [
        { name: 'A', coordinates: line(6)[2]! },
        { name: 'B', coordinates: line(6)[2]!, losses: ['waypoint_time'] },
      ],
    });
    expect(plan.waypoints.map((w) => w.name ?? null)).toEqual([null, 'A', null]);
    expect(plan.losses).toEqual([{ kind: 'waypoint_same_track_point', count: 1 }]);
  });

  it('splits where the file marks a segment start, also on a junction point the next line repeats', () => {
    const a = line(5);
    const b = line(4, 4);
    const c = line(3, 8);
    const plan = planImport({ lines: [a, b, c], waypoints: [], segmentStarts: new Set([a[0]!, b[0]!, c[0]!]) });
    // b repeats a's last point (kept once, the start of b); c starts apart, after a straight step.
    expect(plan.lines.map((l) => l.length / 3)).toEqual([5, 5, 3]);
    expect(plan.waypoints.map((w) => w.coordinates[0])).toEqual([a[0]![0], b[0]![0], c[0]![0], c[2]![0]]);
  });

  it("adds the kept waypoints' own losses, and a decoration point's time as a track point time", () => {
    const points = line(10);
    const plan = planImport({
      lines: [points],
      losses: { track_point_time: 10, style: 1 },
      waypoints: [
        { coordinates: points[4]!, bare: true, losses: ['waypoint_time', 'style'] },
        { name: 'Hut', description: 'Guarded\n\nOpen in summer', coordinates: points[6]!, losses: ['waypoint_time', 'waypoint_symbol'] },
      ],
    });
    expect(plan.losses).toEqual([
      { kind: 'track_point_time', count: 11 },
      { kind: 'waypoint_time', count: 1 },
      { kind: 'waypoint_symbol', count: 1 },
      { kind: 'style', count: 1 },
    ]);
    expect(plan.waypoints[1]).toEqual({ name: 'Hut', description: 'Guarded\n\nOpen in summer', coordinates: points[6] });
  });

  it('leaves out bare points within 1 m of a vertex (track decoration), keeping every point and no extra split', () => {
    const points = line(400);
    const decoration = points.map((p) => ({ coordinates: [p[0]!, p[1]! + 0.5 / M_PER_DEG_LAT], bare: true as const }));
    const plan = planImport({ lines: [points], waypoints: [...decoration, { name: 'Hut', coordinates: points[200]! }] });
    expect(plan.lines.map((l) => l.length / 3)).toEqual([201, 200]);
    expect(plan.waypoints.map((w) => w.name ?? null)).toEqual([null, 'Hut', null]);
    expect(DECORATION_DISTANCE_M).toBe(1);
  });

  it('still splits at a bare point farther than 1 m from every vertex, and at a point with something of its own', () => {
    const off = planImport({ lines: [line(10)], waypoints: [{ coordinates: [1.553, 42.5 + 3 / M_PER_DEG_LAT], bare: true }] });
    expect(off.lines.map((l) => l.length / 3)).toEqual([4, 7]);
    const own = planImport({ lines: [line(10)], waypoints: [{ kind: 'spring', coordinates: line(10)[3]! }] });
    expect(own.waypoints.map((w) => w.kind ?? null)).toEqual([null, 'spring', null]);
  });

  it('writes NaN elevations for a line without any (the region fills them)', () => {
    const plan = planImport({
      lines: [
        [
          [1.55, 42.5],
          [1.56, 42.5],
        ],
      ],
      waypoints: [],
    });
    expect(plan.lines[0]).toEqual([1.55, 42.5, Number.NaN, 1.56, 42.5, Number.NaN]);
  });

  it('fills elevation gaps by distance between recorded neighbours, never replacing a recorded one', () => {
    const plan = planImport({
      lines: [
        [
          [1.55, 42.5],
          [1.551, 42.5, 1000],
          [1.552, 42.5],
          [1.554, 42.5],
          [1.555, 42.5, 1400],
          [1.556, 42.5],
        ],
      ],
      waypoints: [],
    });
    const ele = triples(plan.lines[0]!).map((p) => p[2]!);
    expect(ele[0]).toBe(1000);
    expect(ele[1]).toBe(1000);
    expect(ele[2]).toBeCloseTo(1100, 6);
    expect(ele[3]).toBeCloseTo(1300, 6);
    expect(ele[4]).toBe(1400);
    expect(ele[5]).toBe(1400);
  });

  it('refuses a file with no line, or a line of one point', () => {
    expect(() => planImport({ lines: [], waypoints: [{ coordinates: [1.5, 42.5] }] })).toThrow(ImportProblem);
    expect(() => planImport({ lines: [[[1.5, 42.5]]], waypoints: [] })).toThrow(expect.objectContaining({ key: 'too_short' }));
  });
});
