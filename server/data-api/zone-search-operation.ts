// The zone search (DESIGN §7 `zones`), transport-free: the caller's organization's zones as the Studio
// listing shows them (getZones: private ones too, since the Data API always carries a session), kept when
// their level is asked for and their true shape meets the box or contains the point (matched on the worker
// pool: workers/zone-match.ts). Most severe level first, then by name. Its input schema is ZonesInput
// (./data-inputs.ts); failure paths are relative to the input.

import { MAX_LIMIT } from '../studio/collections/pagination.js';
import type { ZoneLevel } from '../../data/model/zone.js';
import type { WorkerPool } from '../pool/pool.js';
import { taskError } from '../pool/task-error.js';
import { defineOperation, type Operation, type PageResult } from '../core/operation.js';
import { ApiError } from '../errors.js';
import { ZonesInput } from './data-inputs.js';
import type { ZoneView } from '../studio/zones/zone-view.js';
import { DATA_REACH } from './directions-operation.js';

export interface ZoneSearchRequest {
  /** [west, south, east, north], degrees. */
  bbox?: readonly number[] | null;
  /** [longitude, latitude], degrees. */
  point?: readonly number[] | null;
  levels?: readonly ZoneLevel[] | null;
}

type StudioListing = Operation<{ limit?: number; offset?: number }, PageResult<ZoneView>>;

const SEVERITY: Record<ZoneLevel, number> = { PROHIBITED: 0, DANGER: 1, WARNING: 2, INFO: 3 };
/** Zones read per page of the listing: the most a listing serves at once (its input refuses more). */
const PAGE = MAX_LIMIT;

export function zoneSearchOperation(deps: { pool: WorkerPool | undefined; getZones: StudioListing }) {
  return defineOperation({
    id: 'zones',
    scope: 'data',
    writes: false,
    reach: DATA_REACH,
    input: ZonesInput,
    async run(caller, input: ZoneSearchRequest, context): Promise<ZoneView[]> {
      const levels = input.levels && input.levels.length > 0 ? new Set(input.levels) : undefined;
      let zones: ZoneView[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const page = await deps.getZones.run(caller, { limit: PAGE, offset }, context);
        zones.push(...page.items.filter((z) => !levels || levels.has(z.level)));
        if (offset + PAGE >= page.total) break;
      }
      if ((input.bbox || input.point) && zones.length > 0) {
        if (!deps.pool) throw new ApiError('SERVICE_UNAVAILABLE');
        const shapes = zones.map((z) => ({
          mode: z.mode,
          coordinates: (z.geometry as { coordinates: unknown }).coordinates,
          radiusM: z.radius_m,
          widthM: z.width_m,
        }));
        const bbox = input.bbox ? (input.bbox.slice(0, 4) as [number, number, number, number]) : undefined;
        const point = input.point ? ([input.point[0], input.point[1]] as [number, number]) : undefined;
        const result = await deps.pool.runTask('matchZones', { zones: shapes, bbox, point }, { signal: context.signal });
        if (!result.ok) throw taskError(result);
        zones = zones.filter((_, i) => result.matches[i]);
      }
      return zones.sort((a, b) => SEVERITY[a.level] - SEVERITY[b.level] || a.name.localeCompare(b.name));
    },
  });
}
