// The rules of zones: organization-owned, readable by id as visibility.ts says, listed public-only with a
// bare key, written by the organization's writers, geometry checked against the mode, plan limit `zones`.

import type { Privacy } from '../../../data/stores/collection-store.js';
import type { Stores } from '../../../data/stores/stores.js';
import type { Zone, ZoneLevel, ZoneMode } from '../../../data/stores/zone-store.js';
import type { Access } from '../../auth/access.js';
import { enforceLimit } from '../../auth/limits.js';
import { canReadById, listsPrivate } from '../../auth/visibility.js';
import { ApiError } from '../../errors.js';
import type { Page } from '../collections/pagination.js';
import { organizationOf, writerIn } from '../collections/studio-access.js';
import type { WriteBatcher } from '../../write-batcher.js';
import { checkZoneShape } from './zone-geometry.js';
import { zoneView, type ZoneView } from './zone-view.js';

type Geometry = { type: string; coordinates: unknown[] };

export interface ZoneCreateBody {
  name: string;
  description?: string;
  level: ZoneLevel;
  mode: ZoneMode;
  geometry: Geometry;
  radius_m?: number;
  width_m?: number;
  privacy: Privacy;
}

export type ZonePatchBody = Partial<ZoneCreateBody>;

export type ZoneService = ReturnType<typeof createZoneService>;

export function createZoneService(deps: { stores: Stores; writes: WriteBatcher }) {
  const { zones, memberships, organizations } = deps.stores;

  /** The zone when the caller may read it by id; 404 when absent or invisible (never reveal which). */
  const readable = (access: Access, id: string): Zone => {
    const zone = zones.get(id);
    if (!zone || !canReadById(access, zone, memberships)) throw new ApiError('NOT_FOUND');
    return zone;
  };

  /** The zone when the caller may change it: 404 when they cannot read it, 403 when they only read it. */
  const writable = (access: Access, id: string): Zone => {
    const zone = readable(access, id);
    if (!writerIn(access, zone.organizationId, memberships)) throw new ApiError('FORBIDDEN');
    return zone;
  };

  return {
    readable,

    async list(access: Access, requestedOrganization: string | undefined, page: Page) {
      const organizationId = organizationOf(access, requestedOrganization, memberships);
      await deps.writes.settled();
      const publicOnly = !listsPrivate(access, organizationId, memberships);
      const { items, total } = zones.list(organizationId, { publicOnly, ...page });
      return { items: items.map(zoneView), total };
    },

    async get(access: Access, id: string): Promise<ZoneView> {
      await deps.writes.settled();
      return zoneView(readable(access, id));
    },

    async create(access: Access, body: ZoneCreateBody, requestedOrganization?: string): Promise<ZoneView> {
      const organizationId = organizationOf(access, requestedOrganization, memberships);
      const userId = writerIn(access, organizationId, memberships);
      if (!userId) throw new ApiError('FORBIDDEN');
      const shape = {
        mode: body.mode,
        geometry: body.geometry,
        radiusM: body.mode === 'CIRCLE' ? (body.radius_m ?? null) : null,
        widthM: body.mode === 'CORRIDOR' ? (body.width_m ?? null) : null,
      };
      const problems = checkZoneShape(shape, { radius: body.radius_m !== undefined, width: body.width_m !== undefined });
      if (problems.length > 0) throw ApiError.validation(problems);
      const zone = await deps.writes.write(() => {
        const organization = organizations.get(organizationId);
        if (!organization) throw new ApiError('NOT_FOUND');
        enforceLimit(organization, 'zones', zones.countByOrganization(organizationId));
        return zones.create({
          organizationId,
          name: body.name,
          description: body.description,
          level: body.level,
          mode: body.mode,
          geometry: body.geometry,
          radiusM: shape.radiusM,
          widthM: shape.widthM,
          privacy: body.privacy,
          createdBy: userId,
        });
      });
      return zoneView(zone);
    },

    /** Partial update; the resulting mode, geometry, radius and width are checked together. */
    async patch(access: Access, id: string, body: ZonePatchBody): Promise<ZoneView> {
      const zone = await deps.writes.write(() => {
        const current = writable(access, id);
        const mode = body.mode ?? current.mode;
        const shape = {
          mode,
          geometry: body.geometry ?? (current.geometry as Geometry),
          radiusM: mode === 'CIRCLE' ? (body.radius_m ?? current.radiusM) : null,
          widthM: mode === 'CORRIDOR' ? (body.width_m ?? current.widthM) : null,
        };
        const problems = checkZoneShape(shape, { radius: body.radius_m !== undefined, width: body.width_m !== undefined });
        if (problems.length > 0) throw ApiError.validation(problems);
        return zones.update(id, {
          name: body.name,
          description: body.description,
          level: body.level,
          mode,
          geometry: shape.geometry,
          radiusM: shape.radiusM,
          widthM: shape.widthM,
          privacy: body.privacy,
        }) as Zone;
      });
      return zoneView(zone);
    },

    /** Deletes the zone (it leaves every collection it was filed in). */
    async remove(access: Access, id: string): Promise<void> {
      await deps.writes.write(() => {
        writable(access, id);
        zones.delete(id);
      });
    },
  };
}
