// From a file's lines and waypoints to the itinerary chain an import creates (DESIGN §16: every track point
// kept, as freehand segments, waypoints at segment junctions).
//
// The rule, in order:
// 1. The file's lines are joined in document order into one line. A line that starts exactly where the
//    previous one ended (same longitude and latitude) does not repeat that point; otherwise the two are
//    joined by a straight step. No point is dropped, moved or simplified; elevations are kept as given.
// 2. Each waypoint of the file is matched to the nearest vertex of that line. A waypoint within
//    SPLIT_DISTANCE_M (25 m) of its vertex lies on the line: at an inner vertex it splits the line there,
//    at the first or last vertex it names the start or the end. The junction is the track's vertex, not the
//    waypoint's own position, so the line stays exactly as recorded. When several waypoints fall on one
//    vertex the first in the file wins.
// 3. Waypoints farther than 25 m from the line are not part of the chain and are left out.
// 4. Junctions without a matching waypoint (the start and end, when nothing names them) are unnamed.

import { haversine } from '../itineraries/chain-geometry.js';
import type { ImportedTrack, ImportedWaypoint, Position } from './imported-track.js';
import { ImportProblem } from './transfer-messages.js';

/** Distance within which a waypoint counts as lying on the line (metres). */
export const SPLIT_DISTANCE_M = 25;

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

/** Index of the vertex of `line` nearest to `p`, and its distance in metres. */
function nearestVertex(line: readonly Position[], p: Position): { index: number; distance: number } {
  let index = 0;
  let distance = Number.POSITIVE_INFINITY;
  line.forEach((v, i) => {
    const d = haversine(v, p);
    if (d < distance) {
      distance = d;
      index = i;
    }
  });
  return { index, distance };
}

const flat = (points: readonly Position[]): number[] =>
  points.flatMap((p) => [p[0] as number, p[1] as number, p.length > 2 ? (p[2] as number) : Number.NaN]);

export function planImport(track: ImportedTrack): ImportPlan {
  const line = joinLines(track.lines.filter((l) => l.length > 0));
  if (line.length === 0) throw new ImportProblem('no_line');
  if (line.length < 2) throw new ImportProblem('too_short');

  const at = new Map<number, ImportedWaypoint>();
  for (const w of track.waypoints) {
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
