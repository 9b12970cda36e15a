// The MCP server over real HTTP, driven by the official SDK's own client (Streamable HTTP transport) with the
// header pair: it lists the tools, and each tool answers from the demo region and the organization's content
// with the same rules as REST and GraphQL; refusals are tool errors carrying the spec's code; the key pair is
// checked (a missing or foreign secret key is 401, a key without `mcp` is 403 even with `data`).

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../../helpers/mcp-client.js';
import { admin, type Bootstrapped, bootstrap, ownerCalls, type RunningServer, startServer } from '../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;
let other: Bootstrapped;
let client: Client;
let published: string;

const connect = (headers: Record<string, string>) => connectMcp(server, headers);

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  other = bootstrap(server);
  const call = ownerCalls(server, org);
  published = (await call('POST', '/v1/itineraries', { name: 'Ridge walk', privacy: 'private', collection_id: org.collection.id })).data.id;
  await call('POST', `/v1/itineraries/${published}/segments`, { engine: 'smart', from: [1.551, 42.4952], to: [1.5603, 42.4999] });
  await call('POST', `/v1/itineraries/${published}/publish`);
  client = await connect({ 'X-API-Key': org.publishableKey.key, 'X-Secret-Key': org.secretKey.key });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe('MCP server with the header pair', () => {
  it('lists its tools with JSON Schema inputs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'add_segment',
        'analyze_geometry',
        'create_itinerary_from_route',
        'get_collection',
        'get_itinerary',
        'list_collections',
        'list_itineraries',
        'plan_route',
        'reachable_area',
        'search_places',
        'search_zones',
        'suggest_routes',
      ].sort(),
    );
    const plan = tools.find((t) => t.name === 'plan_route')!;
    expect(plan.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['activity', 'waypoints']) });
  });

  it("reads the organization's collections and itineraries, private ones included (the brokered session)", async () => {
    const list = await client.callTool({ name: 'list_collections', arguments: {} });
    expect(list.isError).toBeFalsy();
    expect((list.structuredContent as any).collections.map((c: any) => c.id)).toContain(org.collection.id);
    const got = await client.callTool({ name: 'get_collection', arguments: { collection_id: org.collection.id } });
    expect((got.structuredContent as any).itineraries.map((i: any) => i.id)).toContain(published);
    const itinerary = await client.callTool({ name: 'get_itinerary', arguments: { itinerary_id: published } });
    expect((itinerary.structuredContent as any).itinerary).toMatchObject({
      id: published,
      name: 'Ridge walk',
      published_version: expect.any(Number),
    });
    expect((itinerary.content as any)[0].text).toMatch(/^Ridge walk: \d+\.\d km/);
  });

  it('plans a route as the Data API does, and finds places and zones', async () => {
    const route = await client.callTool({
      name: 'plan_route',
      arguments: {
        activity: 'HIKING_AND_TRAIL',
        waypoints: [
          [1.551, 42.4952],
          [1.5703, 42.5049],
        ],
        avoid: ['TOLLWAY'],
      },
    });
    expect(route.isError).toBeFalsy();
    const best = (route.structuredContent as any).routes[0];
    expect(best.distance).toBeGreaterThan(500);
    expect(best.geometry.coordinates.length).toBeGreaterThan(2);
    expect(best.geometry.coordinates[0]).toHaveLength(3);
    const places = await client.callTool({ name: 'search_places', arguments: { text: 'Refugi', limit: 3 } });
    expect((places.structuredContent as any).places.length).toBeGreaterThan(0);
    const zones = await client.callTool({ name: 'search_zones', arguments: { point: [1.56, 42.5] } });
    expect((zones.structuredContent as any).zones).toEqual([]);
  });

  it('answers the intelligence tools: route ideas, a line analysed, the reachable area', async () => {
    const ideas = await client.callTool({
      name: 'suggest_routes',
      arguments: { activity: 'WALKING', start: [1.5599, 42.5018], distance: 3000, limit: 2 },
    });
    expect(ideas.isError, JSON.stringify(ideas.content)).toBeFalsy();
    const first = (ideas.structuredContent as any).suggestions[0];
    expect(first.kind).toBe('LOOP');
    expect(first.geometry.coordinates.length).toBeGreaterThan(2);
    const analysis = await client.callTool({
      name: 'analyze_geometry',
      arguments: {
        activity: 'WALKING',
        coordinates: [
          [1.5599, 42.5018],
          [1.5639, 42.5038],
        ],
      },
    });
    expect((analysis.structuredContent as any).analysis.distance).toBeGreaterThan(100);
    const area = await client.callTool({
      name: 'reachable_area',
      arguments: { activity: 'WALKING', center: [1.5599, 42.5018], ranges: [300, 900] },
    });
    expect((area.structuredContent as any).isochrones).toHaveLength(2);
    // Without the intelligence product, the same call is refused with the spec's code.
    admin(server, 'set', '--org', org.organization.id, 'products=studio,data');
    try {
      const refused = await client.callTool({
        name: 'reachable_area',
        arguments: { activity: 'WALKING', center: [1.5599, 42.5018], ranges: [300] },
      });
      expect((refused.structuredContent as any).error.code).toBe('PAYMENT_REQUIRED');
    } finally {
      admin(server, 'set', '--org', org.organization.id, 'products=studio,data,intelligence');
    }
  });

  it('creates an itinerary from a route as the member named in X-User-Id, and only as a writing member', async () => {
    const args = {
      name: 'Via the refuge',
      activity: 'HIKING_AND_TRAIL',
      waypoints: [
        [1.551, 42.4952],
        [1.5603, 42.4999],
        [1.5703, 42.5049],
      ],
      collection_id: org.collection.id,
      privacy: 'public',
      publish: true,
    };
    const asOwner = await connect({ 'X-API-Key': org.publishableKey.key, 'X-Secret-Key': org.secretKey.key, 'X-User-Id': org.owner.id });
    const made = await asOwner.callTool({ name: 'create_itinerary_from_route', arguments: args });
    expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
    const itinerary = (made.structuredContent as any).itinerary;
    expect(itinerary).toMatchObject({ name: 'Via the refuge', published_version: expect.any(Number) });
    expect(itinerary.segments.map((s: any) => s.engine)).toEqual(['smart', 'smart']);
    // It is there for REST too, filed in the collection.
    const listed = await ownerCalls(server, org)('GET', `/v1/collections/${org.collection.id}/itineraries?limit=100`);
    expect(listed.data.map((i: any) => i.id)).toContain(itinerary.id);
    // Without X-User-Id, or as a viewer, the tool refuses (403) and nothing is created.
    const anonymous = await client.callTool({ name: 'create_itinerary_from_route', arguments: { ...args, name: 'Nobody' } });
    expect((anonymous.structuredContent as any).error.code).toBe('FORBIDDEN');
    const viewer = admin(server, 'create-user', '--email', 'viewer@mcp.test', '--password', 'viewer-pass-1').user.id;
    admin(server, 'add-member', '--org', org.organization.id, '--user', viewer, '--role', 'viewer');
    const asViewer = await connect({ 'X-API-Key': org.publishableKey.key, 'X-Secret-Key': org.secretKey.key, 'X-User-Id': viewer });
    const refused = await asViewer.callTool({ name: 'create_itinerary_from_route', arguments: { ...args, name: 'Viewer' } });
    expect((refused.structuredContent as any).error.code).toBe('FORBIDDEN');
    const after = await ownerCalls(server, org)('GET', `/v1/collections/${org.collection.id}/itineraries?limit=100`);
    expect(after.data.map((i: any) => i.name)).not.toContain('Viewer');
    expect(after.data.map((i: any) => i.name)).not.toContain('Nobody');
    // add_segment extends its draft as the member; the viewer's call changes nothing.
    const extended = await asOwner.callTool({ name: 'add_segment', arguments: { itinerary_id: itinerary.id, to: [1.5603, 42.4999] } });
    expect(extended.isError, JSON.stringify(extended.content)).toBeFalsy();
    expect((extended.structuredContent as any).itinerary.segments).toHaveLength(3);
    const viewerAdd = await asViewer.callTool({ name: 'add_segment', arguments: { itinerary_id: itinerary.id, to: [1.551, 42.4952] } });
    expect((viewerAdd.structuredContent as any).error.code).toBe('FORBIDDEN');
    const freehandWithoutLine = await asOwner.callTool({
      name: 'add_segment',
      arguments: { itinerary_id: itinerary.id, engine: 'freehand' },
    });
    expect((freehandWithoutLine.structuredContent as any).error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses bad arguments and unknown ids as tool errors with the code and the argument path', async () => {
    const bad = await client.callTool({ name: 'plan_route', arguments: { activity: 'FLYING', waypoints: [[1.551, 42.4952]] } });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as any).error.code).toBe('VALIDATION_FAILED');
    expect((bad.structuredContent as any).error.errors[0].path).toEqual(['activity']);
    const far = await client.callTool({
      name: 'plan_route',
      arguments: {
        activity: 'WALKING',
        waypoints: [
          [1.551, 42.4952],
          [120, 10],
        ],
      },
    });
    expect((far.structuredContent as any).error).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: ['waypoints', 1] }] });
    const missing = await client.callTool({ name: 'get_itinerary', arguments: { itinerary_id: '0b0e8e43-1111-4222-8333-444455556666' } });
    expect((missing.structuredContent as any).error.code).toBe('NOT_FOUND');
    const foreign = await (await connect({ 'X-API-Key': other.publishableKey.key, 'X-Secret-Key': other.secretKey.key })).callTool({
      name: 'get_itinerary',
      arguments: { itinerary_id: published },
    });
    expect((foreign.structuredContent as any).error.code).toBe('NOT_FOUND');
  });

  it('checks the key pair and the scope before anything runs', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: initialize,
      });
    expect((await post({ 'X-API-Key': org.publishableKey.key })).status).toBe(401);
    expect((await post({ 'X-API-Key': org.publishableKey.key, 'X-Secret-Key': other.secretKey.key })).status).toBe(401);
    const dataOnly = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'data', '--scopes', 'data').api_key
      .key;
    expect((await post({ 'X-API-Key': dataOnly, 'X-Secret-Key': org.secretKey.key })).status).toBe(403);
    const ok = await post({ 'X-API-Key': org.publishableKey.key, 'X-Secret-Key': org.secretKey.key });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result.serverInfo.name).toBe('cairn');
  });
});
