// A zone as the API shows it (snake_case fields, geometry as stored GeoJSON in lon/lat degrees).

import type { Privacy } from '../../../data/model/collection.js';
import type { Zone, ZoneLevel, ZoneMode } from '../../../data/model/zone.js';

export interface ZoneView {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  level: ZoneLevel;
  mode: ZoneMode;
  geometry: unknown;
  /** Metres (CIRCLE only, else null). */
  radius_m: number | null;
  /** Metres (CORRIDOR only, else null). */
  width_m: number | null;
  privacy: Privacy;
  created_at: string;
  updated_at: string;
}

export function zoneView(zone: Zone): ZoneView {
  return {
    id: zone.id,
    organization_id: zone.organizationId,
    name: zone.name,
    description: zone.description,
    level: zone.level,
    mode: zone.mode,
    geometry: zone.geometry,
    radius_m: zone.radiusM,
    width_m: zone.widthM,
    privacy: zone.privacy,
    created_at: zone.createdAt,
    updated_at: zone.updatedAt,
  };
}
