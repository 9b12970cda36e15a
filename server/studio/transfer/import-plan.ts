// From a file's lines and waypoints to the itinerary chain an import creates (DESIGN §16: every track point
// kept, as freehand segments, waypoints at segment junctions).
//
// The rule, in order:
// 1. The file's lines are joined in document order into one line. A line that starts exactly where the
//    previous one ended (same longitude and latitude) does not repeat that point; otherwise the two are
//    joined by a straight step. No point is dropped, moved or simplified; elevations are kept as given.
// 2. Track decoration is not a waypoint: a point the file gives nothing of its own (no name, description,
//    kind or position; see ImportedWaypoint.bare) within DECORATION_DISTANCE_M (1 m) of a vertex only
//    draws a track point again, as gpsbabel's KML does for every one of them. It is left out.
// 3. Each other waypoint of the file is matched to the nearest vertex of that line. A waypoint within
//    SPLIT_DISTANCE_M (25 m) of its vertex lies on the line: at an inner vertex it splits the line there,
//    at the first or last vertex it names the start or the end. The junction is the track's vertex, not the
//    waypoint's own position, so the line stays exactly as recorded. When several waypoints fall on one
//    vertex the first in the file wins.
// 4. Waypoints farther than 25 m from the line are not part of the chain and are left out.
// 5. Junctions without a matching waypoint (the start and end, when nothing names them) are unnamed.
// 6. Elevation: a file with elevations on some points only (a GPS losing its barometer for a while) gets
//    the gaps filled by linear interpolation along the distance between the recorded neighbours (the
//    nearest recorded value before the first or after the last one), so no recorded elevation is replaced.
//    A file with no elevation at all takes them from the region's elevation model.
//
// The plan is made in a worker (workers/transfer.ts), with the workers' line geometry.

import { distancesAlong, nearestVertex, vertexProximity } from '../../../workers/line-geometry.js';
import type { ImportedTrack, ImportedWaypoint, Position } from './imported-track.js';
import { ImportProblem } from './transfer-messages.js';

/** Distance within which a waypoint counts as lying on the line (metres). */
export const SPLIT_DISTANCE_M = 25;
/** Distance within which a bare point is a track point drawn again (metres). */
export const DECORATION_DISTANCE_M = 1;

export interface ImportPlan {
  /** One flat lon,lat,ele array per segment (NaN where the file gave no elevation); neighbours share their junction. */
  lines: number[][];
  /** W0..Wn: exactly lines.length + 1 junctions, in order. */
  waypoints: { name?: string; kind?: string; coordinates: number[] }[];
}

function joinLines(lines: readonly Position[][]): Position[] {
  const out: Position[] = [];
  for (const line of lines) {
    line.forEach((p, i) => {
      const last = out[out.length - 1];
      if (i === 0 && last && last[0] === p[0] && last[1] === p[1]) return;
      out.push(p);
    });
  }
  return out;
}

/** Fills missing elevations between recorded ones (rule 5); a line with none or all recorded is returned as is. */
function fillElevationGaps(line: Position[]): Position[] {
  const known = line.map((p, i) => (p.length > 2 && Number.isFinite(p[2]) ? i : -1)).filter((i) => i >= 0);
  if (known.length === 0 || known.length === line.length) return line;
  const along = distancesAlong(line);
  const ele = (i: number) => (line[i] as Position)[2] as number;
  let k = 0; // index into `known` of the last recorded point at or before i
  return line.map((p, i) => {
    if (p.length > 2 && Number.isFinite(p[2])) return p;
    while (k + 1 < known.length && (known[k + 1] as number) < i) k++;
    const before = (known[k] as number) < i ? (known[k] as number) : undefined;
    const after = known.find((j) => j > i);
    let value: number;
    if (before === undefined) value = ele(after as number);
    else if (after === undefined) value = ele(before);
    else {
      const span = (along[after] as number) - (along[before] as number);
      const t = span > 0 ? ((along[i] as number) - (along[before] as number)) / span : 0;
      value = ele(before) + t * (ele(after) - ele(before));
    }
    return [p[0] as number, p[1] as number, value];
  });
}

const flat = (points: readonly Position[]): number[] =>
  points.flatMap((p) => [p[0] as number, p[1] as number, p.length > 2 ? (p[2] as number) : Number.NaN]);

export function planImport(track: ImportedTrack): ImportPlan {
  const line = fillElevationGaps(joinLines(track.lines.filter((l) => l.length > 0)));
  if (line.length === 0) throw new ImportProblem('no_line');
  if (line.length < 2) throw new ImportProblem('too_short');

  // gpsbabel's KML draws a point per track point: thousands of them, each tested here.
  const onVertex = vertexProximity(line);
  const at = new Map<number, ImportedWaypoint>();
  for (const w of track.waypoints) {
    if (w.bare && onVertex(w.coordinates, DECORATION_DISTANCE_M)) continue;
    const { index, distance } = nearestVertex(line, w.coordinates);
    if (distance <= SPLIT_DISTANCE_M && !at.has(index)) at.set(index, w);
  }
  const last = line.length - 1;
  const cuts = [0, ...[...at.keys()].filter((i) => i > 0 && i < last).sort((a, b) => a - b), last];

  const lines: number[][] = [];
  for (let k = 0; k + 1 < cuts.length; k++) lines.push(flat(line.slice(cuts[k], (cuts[k + 1] as number) + 1)));
  const waypoints = cuts.map((i) => {
    const w = at.get(i);
    const junction: ImportPlan['waypoints'][number] = { coordinates: line[i] as number[] };
    if (w?.name) junction.name = w.name;
    if (w?.kind) junction.kind = w.kind;
    return junction;
  });
  return { lines, waypoints };
}
