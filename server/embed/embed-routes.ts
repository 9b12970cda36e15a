// `GET /studio/embed`: the embed page as HTML with its security policy; errors as a small HTML page for navigations.

import { createRequire } from 'node:module';
import { Type } from '@sinclair/typebox';
import type { Operation } from '../core/operation.js';
import { rest } from '../http/rest.js';
import type { RouteDef } from '../http/route.js';
import { type EmbedPage, type EmbedRequest, embedSecurityPolicy, renderEmbedPage } from './embed-page.js';

const Uuid = Type.String({ format: 'uuid' });

export function embedRoutes(operation: Operation<EmbedRequest, EmbedPage>): RouteDef[] {
  return [
    {
      ...rest(operation, {
        method: 'GET',
        path: '/studio/embed',
        public: false,
        summary: 'The embed page: a collection or an itinerary on the map, with its elevation profile',
        query: Type.Object({ collection_id: Type.Optional(Uuid), itinerary_id: Type.Optional(Uuid), route_id: Type.Optional(Uuid) }),
        reply: (page) => ({
          status: 200,
          headers: [
            ['Content-Security-Policy', embedSecurityPolicy(page)],
            ['Cache-Control', 'private, no-cache'],
            ['Referrer-Policy', 'no-referrer'],
          ],
          body: renderEmbedPage(page),
          contentType: 'text/html; charset=utf-8',
        }),
      }),
      htmlErrors: true,
    },
  ];
}

/** MapLibre GL JS from the installed package (its CSP build: the worker is a file of this origin, not a blob). */
export function mapLibreAssets(): Record<string, string> {
  const require = createRequire(import.meta.url);
  return {
    'maplibre-gl.js': require.resolve('maplibre-gl/dist/maplibre-gl-csp.js'),
    'maplibre-gl-csp-worker.js': require.resolve('maplibre-gl/dist/maplibre-gl-csp-worker.js'),
    'maplibre-gl.css': require.resolve('maplibre-gl/dist/maplibre-gl.css'),
  };
}
