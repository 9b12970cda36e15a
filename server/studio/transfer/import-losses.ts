// What an import could not keep, counted by kind while the file is read and planned, so that the answer
// names every loss (`extensions.metadata.warnings`, rendered by import-warnings.ts) instead of dropping it.

/** The kinds of loss, in the order the warnings list them. Stable, machine-readable: clients branch on them. */
export const LOSS_KINDS = [
  'track_point_time',
  'track_point_extension',
  'waypoint_time',
  'waypoint_symbol',
  'waypoint_moved_onto_track',
  'waypoint_same_track_point',
  'style',
  'feature_properties',
  'other_geometry',
  'route',
] as const;
export type LossKind = (typeof LOSS_KINDS)[number];

/** What a single waypoint of the file carries that the itinerary's waypoint (name, kind, description) cannot hold. */
export type WaypointLoss = 'waypoint_time' | 'waypoint_symbol' | 'style' | 'feature_properties';

/** How many things of each kind were not kept (kinds with none are absent). */
export type Losses = Partial<Record<LossKind, number>>;

/** One loss as the worker reports it: the kind, how many, and for moved waypoints the farthest move (metres). */
export interface ImportLoss {
  kind: LossKind;
  count: number;
  /** waypoint_moved_onto_track: the longest distance a waypoint was moved, in metres, rounded up. */
  distance_m?: number;
}

/** Adds `count` things of `kind` to `losses` (nothing when count is 0). */
export function addLoss(losses: Losses, kind: LossKind, count = 1): void {
  if (count > 0) losses[kind] = (losses[kind] ?? 0) + count;
}

/** The losses as a list in LOSS_KINDS order; the move distance is attached to waypoint_moved_onto_track. */
export function lossList(losses: Losses, movedDistanceM = 0): ImportLoss[] {
  const list: ImportLoss[] = [];
  for (const kind of LOSS_KINDS) {
    const count = losses[kind];
    if (!count) continue;
    const loss: ImportLoss = { kind, count };
    if (kind === 'waypoint_moved_onto_track') loss.distance_m = Math.ceil(movedDistanceM);
    list.push(loss);
  }
  return list;
}
