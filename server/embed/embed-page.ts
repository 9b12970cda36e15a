// The embed page (DESIGN §9): `GET /studio/embed` answers an HTML page that shows a collection (or one of its
// itineraries, focused) on the region's trails: MapLibre GL JS served from the installed package, the trail tiles
// as the base map, the overlay tiles of the published content, and an elevation profile coloured by segment
// group. The operation reads what it shows through the Studio operations (so a collection the caller may not read
// is 404, a never-published itinerary too) and caps the layers by the organization's embed settings; the page may
// be framed only by the key's allowed origins (`Content-Security-Policy: frame-ancestors`).

import type { OrganizationRepository } from '../../data/repositories.js';
import { EMBED_LAYERS, type EmbedLayer } from '../../data/model/organization.js';
import type { Access } from '../auth/access.js';
import { mintEmbedToken } from '../auth/embed-token.js';
import { keyOrigins } from '../auth/origins.js';
import type { TokenSigner } from '../auth/signed-token.js';
import { defineOperation, type Reach } from '../core/operation.js';
import { ApiError } from '../errors.js';
import { fillTemplate } from '../http/html-template.js';
import type { StudioOperations } from '../studio/studio-operations.js';
import { EMBED_TOKEN_PATH } from './embed-credential.js';
import { ASSETS_PATH, pageTemplate } from './web-pages.js';

const EMBED_REACH: readonly Reach[] = ['key', 'session', 'share'];

export interface EmbedRequest {
  collection_id?: string;
  itinerary_id?: string;
  /** Another name for itinerary_id (spec, Map embedding). */
  route_id?: string;
}

/** What the page's script is told (JSON in the page): what to show and which layers it may draw. */
export interface EmbedConfig {
  collectionId: string | null;
  itineraryId: string | null;
  name: string;
  layers: EmbedLayer[];
  /** Where the page's own script and MapLibre are. */
  assets: string;
  /** When the session token the page was given ends (epoch ms), so the page renews it a minute before; null without one. */
  sessionExpiresAt: number | null;
  /** The planner inside this frame, for the organization's members, when the organization allows it (the page adds its credentials); else null. */
  plannerUrl: string | null;
  /** The page's own credential (X-Embed-Token), bound to its key and the site that framed it; null without a key. */
  embedToken: string | null;
  /** When it ends (epoch ms), so the page renews it before (POST `embedTokenUrl`); null without one. */
  embedTokenExpiresAt: number | null;
  embedTokenUrl: string;
}

export interface EmbedPage {
  config: EmbedConfig;
  /** `frame-ancestors` sources: the key's allowed origins (or the organization's defaults); `*` when none are set. */
  frameAncestors: string[];
}

export interface EmbedDeps {
  studio: StudioOperations;
  organizations: OrganizationRepository;
  signer: TokenSigner;
  /** Seconds the page's own credential lives (config.embedTokenTtlSeconds). */
  embedTokenTtlSeconds: number;
}

export function embedOperation(deps: EmbedDeps) {
  const { studio } = deps;
  return defineOperation({
    id: 'getStudioEmbed',
    scope: 'embedding',
    writes: false,
    reach: EMBED_REACH,
    async run(caller: Access, input: EmbedRequest, context): Promise<EmbedPage> {
      if (input.itinerary_id && input.route_id && input.itinerary_id.toLowerCase() !== input.route_id.toLowerCase())
        throw ApiError.validation([{ path: ['route_id'], messageKey: 'VALIDATION_FAILED.embed_route_id' }]);
      const itineraryId = (input.itinerary_id ?? input.route_id)?.toLowerCase() ?? null;
      const collectionId = input.collection_id?.toLowerCase() ?? null;
      if (!collectionId && !itineraryId)
        throw ApiError.validation([{ path: ['collection_id'], messageKey: 'VALIDATION_FAILED.embed_target' }]);
      // The same reads as the Studio API: 404 for what the caller may not see, or what was never published.
      let name = '';
      if (collectionId) name = (await studio.collections.getCollection.run(caller, { collection_id: collectionId }, context)).name;
      if (itineraryId) {
        const view = await studio.itineraries.getItinerary.run(caller, { itinerary_id: itineraryId, version: 'published' }, context);
        if (view.published_version === null) throw new ApiError('NOT_FOUND');
        name = view.name;
      }
      const organization =
        caller.kind === 'key'
          ? caller.organization
          : caller.kind === 'share'
            ? await deps.organizations.get(caller.link.organizationId)
            : undefined;
      const allowed = organization ? organization.embedLayers : [...EMBED_LAYERS];
      const layers = EMBED_LAYERS.filter((l) => allowed.includes(l));
      // The origins the key may be used from are the sites that may frame its page.
      const origins = caller.kind === 'key' ? keyOrigins(caller.key, caller.organization) : [];
      // The site this navigation came from passed the key's origin check: the page's own requests speak for it.
      const credential = caller.kind === 'key' ? mintEmbedToken(deps.signer, caller.key, caller.origin, deps.embedTokenTtlSeconds) : null;
      return {
        config: {
          collectionId,
          itineraryId,
          name,
          layers,
          assets: ASSETS_PATH,
          sessionExpiresAt: caller.kind === 'key' && caller.session ? caller.session.exp * 1000 : null,
          plannerUrl: caller.kind === 'key' && caller.organization.embedPlanner ? '/studio/embed/planner' : null,
          embedToken: credential?.token ?? null,
          embedTokenExpiresAt: credential?.expiresAt ?? null,
          embedTokenUrl: EMBED_TOKEN_PATH,
        },
        frameAncestors: origins.length > 0 ? [...origins] : ['*'],
      };
    },
  });
}

const EMBED_TEMPLATE = pageTemplate('embed.html');

/** The page (./web/embed.html): the map, the profile, the configuration as a JSON data block, MapLibre and the embed module. */
export function renderEmbedPage(page: EmbedPage): string {
  const { config } = page;
  // `<` escaped so that no value can close the data block.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return fillTemplate(EMBED_TEMPLATE, { title: config.name || 'Cairn map', assets: config.assets }, { config: json });
}

/**
 * The policy of the studio's pages (the embed, the planner): their own scripts and styles, tiles, data and the live
 * channel from this origin, MapLibre's blob workers, framed only by `frameAncestors`.
 */
export function studioPagePolicy(frameAncestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    "connect-src 'self'",
    `frame-ancestors ${frameAncestors}`,
    "base-uri 'none'",
    "object-src 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function embedSecurityPolicy(page: EmbedPage): string {
  return studioPagePolicy(page.frameAncestors.join(' '));
}
