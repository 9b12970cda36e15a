// The warnings an import answers in `extensions.metadata.warnings`: what the file held that the itinerary
// does not keep, by kind, with a localized sentence (server/i18n/import-warning-messages.ts).

import { type Language, message } from '../../i18n/messages.js';
import type { ImportLoss, LossKind } from '../../../contracts/transfer.js';

/** One warning of an import: a stable `kind`, how many, the sentence, and for moved waypoints how far. */
export interface ImportWarning {
  kind: LossKind;
  count: number;
  message: string;
  /** waypoint_moved_onto_track only: the longest move, in metres (rounded up). */
  distance_m?: number;
}

/** The worker's losses as the answer's warnings, in `lang`; an empty list when the import kept everything. */
export function importWarnings(losses: readonly ImportLoss[], lang: Language): ImportWarning[] {
  return losses.map((loss) => {
    const params = { count: loss.count, distance: loss.distance_m ?? 0 };
    const warning: ImportWarning = { kind: loss.kind, count: loss.count, message: message(lang, `IMPORT_WARNING.${loss.kind}`, params) };
    if (loss.distance_m !== undefined) warning.distance_m = loss.distance_m;
    return warning;
  });
}
