// Every MCP tool on real OpenStreetMap data: the server runs on an Andorra import (with its SRTM tile) and the SDK's
// own client, with the header pair and a member named in X-User-Id, calls each tool once and checks the answer is
// about Andorra. Skipped, saying why, when ../shared/data is absent.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRegion } from '../../../data/region/import-region.js';
import { MCP_TOOL_NAMES } from '../../../server/mcp/tool-names.js';
import { ANDORRA_HGT, ANDORRA_PBF, haveData } from '../../data/region/shared-data.js';
import { type Bootstrapped, bootstrap, ownerCalls, type RunningServer, startServer } from '../../helpers/server.js';

const present = haveData(ANDORRA_PBF, ANDORRA_HGT);
let regionDir = '';
let server: RunningServer;
let org: Bootstrapped;
let client: Client;
const called = new Set<string>();

// Andorra la Vella's centre and Escaldes-Engordany, a walk apart.
const CAPITAL = [1.5218, 42.5063];
const ESCALDES = [1.5347, 42.5097];

async function tool(name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  called.add(name);
  return result.structuredContent;
}

beforeAll(async () => {
  if (!present) return;
  regionDir = mkdtempSync(join(tmpdir(), 'cairn-mcp-andorra-'));
  await importRegion({ osm: ANDORRA_PBF, dem: [ANDORRA_HGT], out: regionDir });
  server = await startServer({ SEED_DEMO: '0', REGION_PATH: regionDir });
  org = bootstrap(server);
  client = new Client({ name: 'cairn-andorra', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { 'X-API-Key': org.publishableKey.key, 'X-Secret-Key': org.secretKey.key, 'X-User-Id': org.owner.id } },
    }),
  );
}, 180_000);
afterAll(async () => {
  await client?.close();
  await server?.stop();
  if (regionDir) rmSync(regionDir, { recursive: true, force: true });
});

describe.skipIf(!present)('every MCP tool on the Andorra import', () => {
  it('plans, searches, analyses and writes on real data', async () => {
    const places = await tool('search_places', { text: 'Comapedrosa', limit: 5 });
    expect(places.places[0].name).toContain('Comapedrosa');
    // High in the Pyrenees, by the SRTM tile (the peak and its refuge both).
    expect(Math.max(...[...places.places].map((p: any) => p.elevation ?? 0))).toBeGreaterThan(2200);

    const planned = await tool('plan_route', { activity: 'WALKING', waypoints: [CAPITAL, ESCALDES] });
    const route = planned.routes[0];
    expect(route.distance).toBeGreaterThan(800);
    expect(route.geometry.coordinates[0][2]).toBeGreaterThan(900); // elevations from the SRTM tile

    const ideas = await tool('suggest_routes', { activity: 'HIKING_AND_TRAIL', start: CAPITAL, distance: 5000, limit: 2 });
    expect(ideas.suggestions.length).toBeGreaterThan(0);
    const analysis = await tool('analyze_geometry', {
      activity: 'WALKING',
      coordinates: route.geometry.coordinates.slice(0, 20).map((c: number[]) => [c[0], c[1]]),
    });
    expect(analysis.analysis.distance).toBeGreaterThan(0);
    const area = await tool('reachable_area', { activity: 'WALKING', center: CAPITAL, ranges: [600] });
    expect(area.isochrones).toHaveLength(1);

    // A zone of the organization around the capital, found by the point.
    const zone = (
      await ownerCalls(server, org)('POST', '/v1/zones', {
        name: 'Old town',
        level: 'INFO',
        mode: 'CIRCLE',
        geometry: { type: 'Point', coordinates: CAPITAL },
        radius_m: 300,
        privacy: 'public',
      })
    ).data;
    expect((await tool('search_zones', { point: CAPITAL })).zones.map((z: any) => z.id)).toContain(zone.id);

    const made = await tool('create_itinerary_from_route', {
      name: 'Capital to Escaldes',
      activity: 'WALKING',
      waypoints: [CAPITAL, ESCALDES],
      collection_id: org.collection.id,
      publish: true,
    });
    const itineraryId = made.itinerary.id;
    const extended = await tool('add_segment', { itinerary_id: itineraryId, to: CAPITAL });
    expect(extended.itinerary.segments).toHaveLength(2);
    expect((await tool('get_itinerary', { itinerary_id: itineraryId, version: 'draft' })).itinerary.segments).toHaveLength(2);
    expect((await tool('list_collections', {})).collections.map((c: any) => c.id)).toContain(org.collection.id);
    expect((await tool('get_collection', { collection_id: org.collection.id })).collection.id).toBe(org.collection.id);
    expect((await tool('list_itineraries', { collection_id: org.collection.id })).itineraries.map((i: any) => i.id)).toContain(itineraryId);

    expect([...called].sort()).toEqual([...MCP_TOOL_NAMES].sort());
  }, 120_000);
});
