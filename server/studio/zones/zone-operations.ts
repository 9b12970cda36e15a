// The zone operations (DESIGN §6: 45–50), transport-free: organization-owned zones, readable by id as the
// policy says, listed public-only with a bare key, written by the organization's writers, geometry checked
// against the mode, plan limit `zones`. Failure paths are relative to each operation's input.

import type { Privacy } from '../../../data/model/collection.js';
import type { Zone, ZoneLevel, ZoneMode } from '../../../data/model/zone.js';
import { enforceLimit } from '../../auth/limits.js';
import { defineOperation, inputObject, type PageResult, STUDIO_REACH } from '../../core/operation.js';
import { listsPrivate, organizationOf, requireWriterIn } from '../../core/policy.js';
import { ApiError } from '../../errors.js';
import { collectionView, type CollectionView } from '../collections/collection-view.js';
import { type Page, PageQuery, pageOf } from '../collections/pagination.js';
import type { StudioDeps } from '../studio-deps.js';
import { checkZoneShape } from './zone-geometry.js';
import { ZoneCreateParams, ZoneCreateQuery, ZoneIdParams, ZoneListQuery, ZonePatchParams } from './zone-schemas.js';
import { zoneView, type ZoneView } from './zone-view.js';

type Geometry = { type: string; coordinates: unknown[] };

export interface ZoneFields {
  name: string;
  description?: string;
  level: ZoneLevel;
  mode: ZoneMode;
  geometry: Geometry;
  radius_m?: number;
  width_m?: number;
  privacy: Privacy;
}

type PageInput = { limit?: number; offset?: number };
type ZoneId = { zone_id: string };

const reads = { scope: 'resources' as const, writes: false, reach: STUDIO_REACH };
const writes = { scope: 'resources' as const, writes: true, reach: STUDIO_REACH };

export function zoneOperations(deps: StudioDeps) {
  const { zones, organizations, collections } = deps.stores;
  const { policy } = deps;
  const changed = (zone: Zone, change: 'created' | 'updated' | 'deleted') =>
    ({ type: 'zone.changed', organizationId: zone.organizationId, zoneId: zone.id, change }) as const;

  return {
    getZones: defineOperation({
      id: 'getZones',
      ...reads,
      input: inputObject({ query: ZoneListQuery }),
      async run(caller, input: PageInput & { organization_id?: string }): Promise<PageResult<ZoneView>> {
        const organizationId = organizationOf(caller, input.organization_id);
        const page: Page = pageOf(input);
        await deps.writes.settled();
        const { items, total } = await zones.list(organizationId, { publicOnly: !listsPrivate(caller, organizationId), ...page });
        return { items: items.map(zoneView), total, page };
      },
    }),

    postZone: defineOperation({
      id: 'postZone',
      ...writes,
      input: inputObject({ query: ZoneCreateQuery, body: ZoneCreateParams }),
      async run(caller, input: ZoneFields & { organization_id?: string }): Promise<ZoneView> {
        const organizationId = organizationOf(caller, input.organization_id);
        const userId = requireWriterIn(caller, organizationId);
        const shape = {
          mode: input.mode,
          geometry: input.geometry,
          radiusM: input.mode === 'CIRCLE' ? (input.radius_m ?? null) : null,
          widthM: input.mode === 'CORRIDOR' ? (input.width_m ?? null) : null,
        };
        const problems = checkZoneShape(shape, { radius: input.radius_m !== undefined, width: input.width_m !== undefined });
        if (problems.length > 0) throw ApiError.validation(problems);
        const zone = await deps.writes.write(async ({ emit }) => {
          const organization = await organizations.get(organizationId);
          if (!organization) throw new ApiError('NOT_FOUND');
          await enforceLimit(organization, 'zones', () => zones.countByOrganization(organizationId));
          const created = await zones.create({
            organizationId,
            name: input.name,
            description: input.description,
            level: input.level,
            mode: input.mode,
            geometry: input.geometry,
            radiusM: shape.radiusM,
            widthM: shape.widthM,
            privacy: input.privacy,
            createdBy: userId,
          });
          emit(changed(created, 'created'));
          return created;
        });
        return zoneView(zone);
      },
    }),

    getZone: defineOperation({
      id: 'getZone',
      ...reads,
      input: inputObject({ params: ZoneIdParams }),
      async run(caller, input: ZoneId): Promise<ZoneView> {
        await deps.writes.settled();
        return zoneView(await policy.readableZone(caller, input.zone_id));
      },
    }),

    /** Partial update; the resulting mode, geometry, radius and width are checked together. */
    patchZone: defineOperation({
      id: 'patchZone',
      ...writes,
      input: inputObject({ params: ZoneIdParams, body: ZonePatchParams }),
      async run(caller, input: ZoneId & Partial<ZoneFields>): Promise<ZoneView> {
        const zone = await deps.writes.write(async ({ emit }) => {
          const { zone: current } = await policy.writableZone(caller, input.zone_id);
          const mode = input.mode ?? current.mode;
          const shape = {
            mode,
            geometry: input.geometry ?? (current.geometry as Geometry),
            radiusM: mode === 'CIRCLE' ? (input.radius_m ?? current.radiusM) : null,
            widthM: mode === 'CORRIDOR' ? (input.width_m ?? current.widthM) : null,
          };
          const problems = checkZoneShape(shape, { radius: input.radius_m !== undefined, width: input.width_m !== undefined });
          if (problems.length > 0) throw ApiError.validation(problems);
          const updated = (await zones.update(current.id, {
            name: input.name,
            description: input.description,
            level: input.level,
            mode,
            geometry: shape.geometry,
            radiusM: shape.radiusM,
            widthM: shape.widthM,
            privacy: input.privacy,
          })) as Zone;
          emit(changed(updated, 'updated'));
          return updated;
        });
        return zoneView(zone);
      },
    }),

    /** Deletes the zone (it leaves every collection it was filed in). */
    deleteZone: defineOperation({
      id: 'deleteZone',
      ...writes,
      input: inputObject({ params: ZoneIdParams }),
      async run(caller, input: ZoneId): Promise<void> {
        await deps.writes.write(async ({ emit }) => {
          const { zone } = await policy.writableZone(caller, input.zone_id);
          await zones.delete(zone.id);
          emit(changed(zone, 'deleted'));
        });
      },
    }),

    /** The collections the zone is filed in that the caller may see. */
    getZoneCollections: defineOperation({
      id: 'getZoneCollections',
      ...reads,
      input: inputObject({ params: ZoneIdParams, query: PageQuery }),
      async run(caller, input: ZoneId & PageInput): Promise<PageResult<CollectionView>> {
        const page = pageOf(input);
        await deps.writes.settled();
        const zone = await policy.readableZone(caller, input.zone_id);
        const { items, total } = await collections.listHolding('zone', zone.id, {
          publicOnly: !listsPrivate(caller, zone.organizationId),
          viewerUserId: caller.kind === 'user' ? caller.user.id : null,
          ...page,
        });
        return { items: items.map((c) => collectionView(caller, c)), total, page };
      },
    }),
  };
}
