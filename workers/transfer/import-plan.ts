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
// 3. Each other waypoint of the file is matched to the nearest vertex of that line. At an inner vertex it
//    splits the line there, at the first or last vertex it names the start or the end. The junction is the
//    track's vertex, not the waypoint's own position, so the line stays exactly as recorded. When several
//    waypoints on the line fall on one vertex, the first in the file wins; the others are left out and
//    reported.
// 4. A waypoint farther than SPLIT_DISTANCE_M (25 m) from the line cannot be a junction where it is: the
//    chain is continuous and its waypoints are its joints. It is kept all the same, moved onto the line at
//    its nearest vertex (the nearest one still free when a waypoint already holds that one), and the
//    import reports how many were moved and how far.
// 5. A file from Cairn's own export marks where each segment starts (serialize-*.ts): the line is also
//    split there, so an export imports back as the same segments.
// 6. Junctions without a matching waypoint (the start and end, when nothing names them) are unnamed.
// 7. Elevation: a file with elevations on some points only (a GPS losing its barometer for a while) gets
//    the gaps filled by linear interpolation along the distance between the recorded neighbours (the
//    nearest recorded value before the first or after the last one), so no recorded elevation is replaced.
//    A file with no elevation at all takes them from the region's elevation model.
//
// The plan is made in a worker (workers/transfer.ts), with the workers' line geometry.

import { distancesAlong, nearestVertex, vertexProximity } from '../line-geometry.js';
import type { ImportedTrack, ImportedWaypoint, Position } from './imported-track.js';
import { addLoss, type Losses, lossList } from './import-losses.js';
import { ImportProblem } from './import-problem.js';
import { DECORATION_DISTANCE_M, type ImportPlan, SPLIT_DISTANCE_M } from '../../contracts/transfer.js';

/** The lines joined, and the indexes of the joined line where a marked segment starts. */
function joinLines(lines: readonly Position[][], starts: ReadonlySet<Position>): { line: Position[]; marked: number[] } {
  const out: Position[] = [];
  const marked: number[] = [];
  for (const line of lines) {
    line.forEach((p, i) => {
      const last = out[out.length - 1];
      const repeated = i === 0 && last !== undefined && last[0] === p[0] && last[1] === p[1];
      if (!repeated) out.push(p);
      // A segment starting on the point it repeats starts on the point kept.
      if (starts.has(p)) marked.push(out.length - 1);
    });
  }
  return { line: out, marked };
}

/** Fills missing elevations between recorded ones (rule 7); a line with none or all recorded is returned as is. */
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
  const joined = joinLines(
    track.lines.filter((l) => l.length > 0),
    track.segmentStarts ?? new Set(),
  );
  const line = fillElevationGaps(joined.line);
  if (line.length === 0) throw new ImportProblem('no_line');
  if (line.length < 2) throw new ImportProblem('too_short');

  const losses: Losses = { ...track.losses };
  let movedDistance = 0;
  // gpsbabel's KML draws a point per track point: thousands of them, each tested here.
  const onVertex = vertexProximity(line);
  const at = new Map<number, ImportedWaypoint>();
  const nearest: { w: ImportedWaypoint; index: number; distance: number }[] = [];
  for (const w of track.waypoints) {
    if (w.bare && onVertex(w.coordinates, DECORATION_DISTANCE_M)) {
      // A track point drawn again: its time is the track point's.
      if (w.losses?.includes('waypoint_time')) addLoss(losses, 'track_point_time');
      continue;
    }
    nearest.push({ w, ...nearestVertex(line, w.coordinates) });
  }
  // Waypoints on the line take their vertex before any moved there (each group in file order).
  const onLine = nearest.filter((n) => n.distance <= SPLIT_DISTANCE_M);
  const offLine = nearest.filter((n) => n.distance > SPLIT_DISTANCE_M);
  for (const n of [...onLine, ...offLine]) {
    const { w } = n;
    // A waypoint moved anyway goes to the nearest vertex still free; one on the line keeps its own.
    const { index, distance } = at.has(n.index) && n.distance > SPLIT_DISTANCE_M ? nearestVertex(line, w.coordinates, (i) => at.has(i)) : n;
    if (at.has(index) || !Number.isFinite(distance)) {
      addLoss(losses, 'waypoint_same_track_point');
      continue;
    }
    at.set(index, w);
    for (const kind of w.losses ?? []) addLoss(losses, kind);
    if (distance > SPLIT_DISTANCE_M) {
      addLoss(losses, 'waypoint_moved_onto_track');
      movedDistance = Math.max(movedDistance, distance);
    }
  }
  const last = line.length - 1;
  const inner = new Set([...at.keys(), ...joined.marked].filter((i) => i > 0 && i < last));
  const cuts = [0, ...[...inner].sort((a, b) => a - b), last];

  const lines: number[][] = [];
  for (let k = 0; k + 1 < cuts.length; k++) lines.push(flat(line.slice(cuts[k], (cuts[k + 1] as number) + 1)));
  const waypoints = cuts.map((i) => {
    const w = at.get(i);
    const junction: ImportPlan['waypoints'][number] = { coordinates: line[i] as number[] };
    if (w?.name) junction.name = w.name;
    if (w?.kind) junction.kind = w.kind;
    if (w?.description) junction.description = w.description;
    return junction;
  });
  return { lines, waypoints, losses: lossList(losses, movedDistance) };
}
