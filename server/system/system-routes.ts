// Operational routes outside the public API: health and readiness probes and the embed page's static assets.

import { readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ApiError } from '../errors.js';
import type { RouteDef } from '../http/route.js';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ico': 'image/x-icon',
};

/** Loads every file of `dir` into memory once; assets are few and small. */
interface Asset {
  bytes: Uint8Array;
  type: string;
  /** Response headers, built once. */
  headers: readonly (readonly [string, string])[];
  etag: string;
}

function loadAssets(dirs: readonly string[], extra: Record<string, string>): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const files = new Map<string, string>();
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // no folder: only the other folders' files and the extra files
    }
    for (const name of names) files.set(name, join(dir, name));
  }
  for (const [name, path] of Object.entries(extra)) files.set(name, path);
  for (const [name, path] of files) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const bytes = new Uint8Array(readFileSync(path));
    let hash = 2166136261;
    for (const b of bytes) hash = Math.imul(hash ^ b, 16777619) >>> 0;
    const etag = `"${hash.toString(16)}-${bytes.length}"`;
    assets.set(name, {
      bytes,
      type,
      etag,
      headers: [
        ['Cache-Control', 'public, max-age=3600'],
        ['ETag', etag],
      ],
    });
  }
  return assets;
}

/** Whether the node serves all it should, and what it serves (or what it cannot). */
export interface Readiness {
  ready: boolean;
  [detail: string]: unknown;
}

/**
 * Serves the files of `assetDirs` (one flat namespace: the pages' modules import each other by relative name) and
 * `extra`, files from elsewhere under a name of their own (MapLibre GL JS from its installed package). Only the types
 * above are served: the front end's templates and type declarations stay private.
 */
export function systemRoutes(
  assetDirs: readonly string[],
  extra: Record<string, string> = {},
  readiness: () => Readiness = () => ({ ready: true }),
): RouteDef[] {
  const assets = loadAssets(assetDirs, extra);
  return [
    {
      // For a load balancer: 503 while a region found in the regions folder could not be loaded, so a node that serves
      // a partial set takes no traffic (/healthz stays 200: the process is alive).
      op: 'getReadiness',
      method: 'GET',
      path: '/readyz',
      scope: 'public',
      writes: false,
      handler: () => {
        const { ready, ...details } = readiness();
        return { status: ready ? 200 : 503, json: { status: ready ? 'ready' : 'not_ready', ...details } };
      },
    },
    {
      op: 'getHealth',
      method: 'GET',
      path: '/healthz',
      scope: 'public',
      writes: false,
      handler: () => ({ json: { status: 'ok' } }),
    },
    {
      op: 'getStudioAsset',
      method: 'GET',
      path: '/studio/assets/{name}',
      scope: 'public',
      writes: false,
      handler: ({ params, headers }) => {
        const asset = assets.get(params.name as string);
        if (!asset) throw new ApiError('NOT_FOUND');
        if (headers['if-none-match'] === asset.etag) {
          return { status: 304, body: '', contentType: asset.type, headers: asset.headers };
        }
        return { body: asset.bytes, contentType: asset.type, headers: asset.headers };
      },
    },
  ];
}
