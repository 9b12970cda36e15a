// What an import could not keep, counted by kind while the file is read and planned, so that the answer
// names every loss (`extensions.metadata.warnings`, rendered by import-warnings.ts) instead of dropping it.

import { type ImportLoss, LOSS_KINDS, type LossKind } from '../../contracts/transfer.js';
/** What a single waypoint of the file carries that the itinerary's waypoint (name, kind, description) cannot hold. */
export type WaypointLoss = 'waypoint_time' | 'waypoint_symbol' | 'style' | 'feature_properties';

/** How many things of each kind were not kept (kinds with none are absent). */
export type Losses = Partial<Record<LossKind, number>>;

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
