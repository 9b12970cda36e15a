// What the embed and the planner may show (DESIGN §9): `GET /studio/layers`, the map layers this organization's
// embed settings allow, with where each comes from; `GET /studio/activities`, the activities routing knows, each
// with a summary of its profile (what it may use, how fast it goes). Both read, never write.

import { Type } from '@sinclair/typebox';
import type { OrganizationRepository } from '../../data/repositories.js';
import { HighwayClass, highwayTag } from '../../data/region/region-graph.js';
import { EMBED_LAYERS, type EmbedLayer, type Organization } from '../../data/model/organization.js';
import { ACTIVITIES, type Activity } from '../../contracts/activity.js';
import { profileFor } from '../../workers/profiles.js';
import type { Access } from '../auth/access.js';
import { defineOperation, type Reach } from '../core/operation.js';
import { organizationOf } from '../core/policy.js';
import { ApiError } from '../errors.js';
import { rest } from '../http/rest.js';
import type { RouteDef } from '../http/route.js';

/** The embed, the planner and the live channel: keys (with or without a session), share links, signed-in members. */
export const STUDIO_SURFACE_REACH: readonly Reach[] = ['key', 'session', 'share', 'user'];

const LAYER_INFO: Record<EmbedLayer, { title: string; kind: 'base' | 'overlay'; shows: string }> = {
  trails: { title: 'Trails', kind: 'base', shows: 'the region’s paths and tracks, their hazards, places and contour lines' },
  itineraries: { title: 'Itineraries', kind: 'overlay', shows: 'published itineraries, one line per segment, coloured by group' },
  waypoints: { title: 'Waypoints', kind: 'overlay', shows: 'the waypoints of published itineraries' },
  zones: { title: 'Zones', kind: 'overlay', shows: 'the collection’s zones, by level' },
};

export interface StudioLayer {
  id: EmbedLayer;
  title: string;
  kind: 'base' | 'overlay';
  shows: string;
  /** Where its tiles are described: TileJSON for the base, a style fragment template for overlays. */
  source: string;
}

export interface StudioLayers {
  organization_id: string;
  layers: StudioLayer[];
  /** Layers the organization's embed settings leave out (management `settings`, `embed_layers`). */
  withheld: EmbedLayer[];
}

export interface StudioActivity {
  id: Activity;
  title: string;
  /** The OSM access tags read, in order. */
  access: string[];
  /** Highway classes it may use (OSM spelling). */
  highways: string[];
  /** The hardest sac_scale it may take (`T1`–`T6`), or null when it keeps off every sac_scale-tagged way. */
  max_sac_scale: string | null;
  /** Speeds on the flat, km/h, one decimal. */
  flat_speed_kmh: { path: number; paved_road: number };
  speed_model: string;
  /** Restrictions routing can avoid for it (`avoid` in the Data API); a placement through one asks for confirmation. */
  avoidable: string[];
  oneway_respected: boolean;
}

const TITLES: Record<Activity, string> = {
  HIKING_AND_TRAIL: 'Hiking and trail',
  WALKING: 'Walking',
  TRAIL_RUNNING: 'Trail running',
  MOUNTAIN_BIKING: 'Mountain biking',
  ROAD_CYCLING: 'Road cycling',
};
const SPEED_MODELS: Record<Activity, string> = {
  HIKING_AND_TRAIL: 'Tobler’s hiking function: 6 km/h at a 5% descent, slower up and steeper down',
  WALKING: 'Tobler’s hiking function: 6 km/h at a 5% descent, slower up and steeper down',
  TRAIL_RUNNING: 'Tobler’s hiking function × 1.8',
  MOUNTAIN_BIKING: 'bike: 18 km/h paved, 12 km/h unpaved on the flat; slower uphill, faster downhill (capped)',
  ROAD_CYCLING: 'bike: 25 km/h paved, 10 km/h unpaved on the flat; slower uphill, faster downhill (capped)',
};
const round1 = (x: number) => Math.round(x * 10) / 10;

/** The activities and their profiles, computed once from the routing profiles themselves. */
export const STUDIO_ACTIVITIES: readonly StudioActivity[] = Object.freeze(
  ACTIVITIES.map((activity) => {
    const profile = profileFor(activity);
    const foot = profile.mode === 0;
    return Object.freeze({
      id: activity,
      title: TITLES[activity],
      access: foot ? ['foot', 'access'] : ['bicycle', 'access'],
      highways: [...profile.highways]
        .map((h) => highwayTag(h))
        .filter((t): t is string => t !== null)
        .sort(),
      max_sac_scale: profile.maxSac === 0 ? null : `T${profile.maxSac}`,
      flat_speed_kmh: {
        path: round1(profile.speed(0, HighwayClass.Path, false) * 3.6),
        paved_road: round1(profile.speed(0, HighwayClass.Residential, true) * 3.6),
      },
      speed_model: SPEED_MODELS[activity],
      avoidable: ['TOLLWAY', 'RESTRICTED_ACCESS'],
      oneway_respected: profile.respectsOneway,
    });
  }),
);

export function studioCatalog(deps: { organizations: OrganizationRepository }) {
  /** The organization whose settings apply: the link's, or the key's or the member's (the policy's rule). */
  async function settingsOrganization(caller: Access, named: string | undefined): Promise<Organization> {
    // An organization the member does not belong to is one they cannot see.
    if (caller.kind === 'user' && named !== undefined && !caller.memberships.has(named)) throw new ApiError('NOT_FOUND');
    const id = caller.kind === 'share' ? caller.link.organizationId : organizationOf(caller, caller.kind === 'user' ? named : undefined);
    const organization = await deps.organizations.get(id);
    if (!organization) throw new ApiError('NOT_FOUND');
    return organization;
  }

  const layers = defineOperation({
    id: 'getStudioLayers',
    scope: 'embedding',
    writes: false,
    reach: STUDIO_SURFACE_REACH,
    async run(caller, input: { organization_id?: string }, context): Promise<StudioLayers> {
      const organization = await settingsOrganization(caller, input.organization_id);
      const allowed = new Set(organization.embedLayers);
      const source = (layer: EmbedLayer) =>
        layer === 'trails'
          ? `${context.origin}/v1/tiles/trails.json`
          : `${context.origin}/v1/tiles/overlays/collections/{collection_id}.json`;
      return {
        organization_id: organization.id,
        layers: EMBED_LAYERS.filter((l) => allowed.has(l)).map((id) => ({ id, ...LAYER_INFO[id], source: source(id) })),
        withheld: EMBED_LAYERS.filter((l) => !allowed.has(l)),
      };
    },
  });

  /** The signed-in member and their organizations (the planner's first screen). */
  const me = defineOperation({
    id: 'getStudioMe',
    scope: 'embedding',
    writes: false,
    reach: ['user'],
    async run(
      caller,
    ): Promise<{ user: { id: string; email: string; name: string | null }; organizations: { id: string; name: string; role: string }[] }> {
      if (caller.kind !== 'user') throw new ApiError('FORBIDDEN');
      const organizations: { id: string; name: string; role: string }[] = [];
      for (const [id, role] of caller.memberships) {
        const organization = await deps.organizations.get(id);
        if (organization?.status === 'active') organizations.push({ id, name: organization.name, role });
      }
      organizations.sort((a, b) => a.name.localeCompare(b.name));
      return { user: { id: caller.user.id, email: caller.user.email, name: caller.user.name ?? null }, organizations };
    },
  });

  const activities = defineOperation({
    id: 'getStudioActivities',
    scope: 'embedding',
    writes: false,
    reach: STUDIO_SURFACE_REACH,
    async run(): Promise<{ activities: readonly StudioActivity[] }> {
      return { activities: STUDIO_ACTIVITIES };
    },
  });

  return { layers, activities, me };
}

export function studioCatalogRoutes(catalog: ReturnType<typeof studioCatalog>): RouteDef[] {
  return [
    rest(catalog.layers, {
      method: 'GET',
      path: '/studio/layers',
      public: false,
      summary: 'The map layers the embed and the planner may show for this organization',
      query: Type.Object({ organization_id: Type.Optional(Type.String({ format: 'uuid' })) }, { additionalProperties: false }),
    }),
    rest(catalog.activities, {
      method: 'GET',
      path: '/studio/activities',
      public: false,
      summary: 'The activities routing knows, with a summary of each profile',
    }),
    rest(catalog.me, {
      method: 'GET',
      path: '/studio/me',
      public: false,
      summary: 'The signed-in member and their active organizations',
    }),
  ];
}
