// MCP tool results a model can use, over real HTTP with the official SDK client: the text content carries the
// structured result as JSON (so ids reach a client that shows its model the text only), summaries have no empty
// fields, every tool declares its annotations and output schema, and every refusal says what to do: the acting
// member's X-User-Id (missing, malformed, not a member, a viewer) refuses writes while the connection reads, an
// unpublished itinerary asks for its draft, an unknown tool is named, a missing argument is named.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../../helpers/mcp-client.js';
import { admin, type Bootstrapped, bootstrap, callAs, login, ownerCalls, type RunningServer, startServer } from '../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;
let keyPair: Record<string, string>;
let reader: Client;
let viewer: string;
const clients: Client[] = [];

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = await connectMcp(server, headers);
  clients.push(client);
  return client;
}

type Result = Awaited<ReturnType<Client['callTool']>>;
const texts = (result: Result) => (result.content as { type: string; text: string }[]).map((c) => c.text);
/** The structured result as a model reads it: the JSON text block of the content, nothing else. */
function jsonFromText(result: Result): any {
  const json = texts(result).find((t) => t.startsWith('{'));
  expect(json, `no JSON in the text content: ${JSON.stringify(result.content)}`).toBeDefined();
  return JSON.parse(json as string);
}
/** A refusal as a model reads it: the one text block. */
const refusalText = (result: Result) => {
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  return texts(result).join('\n');
};

const route = {
  name: 'Ridge line',
  activity: 'HIKING_AND_TRAIL',
  waypoints: [
    [1.551, 42.4952],
    [1.5603, 42.4999],
  ],
};

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  keyPair = { 'X-API-Key': org.publishableKey.key, 'X-Secret-Key': org.secretKey.key };
  const call = ownerCalls(server, org);
  const id = (await call('POST', '/v1/itineraries', { name: 'Filed walk', privacy: 'private', collection_id: org.collection.id })).data.id;
  await call('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: [1.551, 42.4952], to: [1.5603, 42.4999] });
  await call('POST', `/v1/itineraries/${id}/publish`);
  viewer = admin(server, 'create-user', '--email', 'viewer@results.test', '--password', 'viewer-pass-1').user.id;
  admin(server, 'add-member', '--org', org.organization.id, '--user', viewer, '--role', 'viewer');
  reader = await connect(keyPair);
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await server?.stop();
});

describe('tool results in the text content', () => {
  it('a model goes from list_collections to get_itinerary with ids read from the text content only', async () => {
    const listed = await reader.callTool({ name: 'list_collections', arguments: {} });
    expect(texts(listed)[0]).toMatch(/^\d+ of \d+ collections$/);
    const collection = jsonFromText(listed).collections.find((c: any) => c.name === org.collection.name);
    const itineraries = jsonFromText(await reader.callTool({ name: 'list_itineraries', arguments: { collection_id: collection.id } }));
    const filed = itineraries.itineraries.find((i: any) => i.name === 'Filed walk');
    const got = await reader.callTool({ name: 'get_itinerary', arguments: { itinerary_id: filed.id } });
    expect(got.isError, JSON.stringify(got.content)).toBeFalsy();
    expect(jsonFromText(got).itinerary).toMatchObject({ id: filed.id, name: 'Filed walk', segments: [{ engine: 'smart' }] });
    expect(jsonFromText(got)).toEqual(got.structuredContent);
  });

  it("create_itinerary_from_route's text content holds the new itinerary's id, which add_segment then extends", async () => {
    const owner = await connect({ ...keyPair, 'X-User-Id': org.owner.id });
    const made = await owner.callTool({ name: 'create_itinerary_from_route', arguments: route });
    expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
    const id = jsonFromText(made).itinerary.id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const added = await owner.callTool({ name: 'add_segment', arguments: { itinerary_id: id, to: [1.5703, 42.5049] } });
    expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
    expect(jsonFromText(added).itinerary).toMatchObject({ id, segments: [{}, {}] });
  });

  it('the search_places summary names every place, an address by its street and number, with no empty field', async () => {
    const village = jsonFromText(await reader.callTool({ name: 'search_places', arguments: { text: 'Vilanova de Cairn', limit: 1 } }))
      .places[0];
    const near = await reader.callTool({ name: 'search_places', arguments: { near: village.coordinates, limit: 5 } });
    const places = jsonFromText(near).places as any[];
    expect(places.every((p) => p.name !== '')).toBe(true);
    const summary = texts(near)[0] as string;
    expect(summary).toMatch(/^5 place\(s\): /);
    expect(summary).toMatch(/Carrer (Major|de la Font) \d+ \(address\)/);
    for (const label of summary.replace(/^[^:]*: /, '').split('; ')) expect(label).toMatch(/^\S.* \([a-z_]+\)$/);
  });
});

describe('tool declarations', () => {
  it('every tool declares its annotations as they are and an output schema its results meet', async () => {
    const { tools } = await reader.listTools();
    expect(tools).toHaveLength(12);
    const writes = ['add_segment', 'create_itinerary_from_route'];
    for (const tool of tools) {
      const write = writes.includes(tool.name);
      expect(tool.annotations, tool.name).toEqual({
        readOnlyHint: !write,
        destructiveHint: false,
        idempotentHint: !write,
        openWorldHint: false,
      });
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object', properties: { error: { type: 'object' } } });
    }
    expect(tools.find((t) => t.name === 'get_itinerary')?.outputSchema?.properties?.itinerary).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['id', 'segments', 'waypoints']),
    });
    // The SDK client checks each structuredContent against the declared schema: results and refusals pass.
    const ok = await reader.callTool({ name: 'get_collection', arguments: { collection_id: org.collection.id } });
    expect(ok.isError, JSON.stringify(ok.content)).toBeFalsy();
    const refused = await reader.callTool({ name: 'get_collection', arguments: { collection_id: '0b0e8e43-1111-4222-8333-444455556666' } });
    expect((refused.structuredContent as any).error.code).toBe('NOT_FOUND');
  });
});

describe('refusals that say what to do', () => {
  it('without X-User-Id the connection reads, and a write names the header and the roles that may write', async () => {
    expect((await reader.callTool({ name: 'list_collections', arguments: {} })).isError).toBeFalsy();
    const text = refusalText(await reader.callTool({ name: 'create_itinerary_from_route', arguments: route }));
    expect(text).toBe(
      'FORBIDDEN: A write needs X-User-Id (beside the key pair) naming a member with role owner, admin or contributor; none was sent, so this connection only reads.',
    );
  });

  it("a viewer's X-User-Id reads, and a write says the member is a viewer", async () => {
    const asViewer = await connect({ ...keyPair, 'X-User-Id': viewer });
    expect((await asViewer.callTool({ name: 'list_collections', arguments: {} })).isError).toBeFalsy();
    const text = refusalText(await asViewer.callTool({ name: 'create_itinerary_from_route', arguments: { ...route, name: 'Viewer' } }));
    expect(text).toBe('FORBIDDEN: A write needs X-User-Id of a member with role owner, admin or contributor; this member is a viewer.');
  });

  it('a malformed X-User-Id does not fail the connection: reads answer, a write says it is not a uuid', async () => {
    const malformed = await connect({ ...keyPair, 'X-User-Id': `{${org.owner.id}}` });
    expect((await malformed.callTool({ name: 'list_collections', arguments: {} })).isError).toBeFalsy();
    const refused = await malformed.callTool({ name: 'create_itinerary_from_route', arguments: { ...route, name: 'Braces' } });
    expect((refused.structuredContent as any).error.code).toBe('BAD_REQUEST');
    expect(refusalText(refused)).toContain('this X-User-Id is not a uuid: send the member id as Cairn returns it');
  });

  it('an X-User-Id of no member reads, and a write says so; nothing is created', async () => {
    const stranger = bootstrap(server).owner.id;
    const outsider = await connect({ ...keyPair, 'X-User-Id': stranger });
    expect((await outsider.callTool({ name: 'list_collections', arguments: {} })).isError).toBeFalsy();
    const refused = await outsider.callTool({ name: 'create_itinerary_from_route', arguments: { ...route, name: 'Outsider' } });
    expect((refused.structuredContent as any).error.code).toBe('FORBIDDEN');
    expect(refusalText(refused)).toContain('this X-User-Id names no member of the organization');
    const listed = await callAs(server, await login(server, org.owner.email, org.owner.password), 'GET', '/v1/itineraries?limit=100');
    expect(JSON.stringify(listed.data)).toContain('Filed walk');
    expect(JSON.stringify(listed.data)).not.toContain('Outsider');
  });

  it('an X-User-Id in upper case names the same member, as on REST', async () => {
    const upper = await connect({ ...keyPair, 'X-User-Id': org.owner.id.toUpperCase() });
    const made = await upper.callTool({ name: 'create_itinerary_from_route', arguments: { ...route, name: 'Upper case' } });
    expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
  });

  it('an unpublished itinerary read as published asks for version draft', async () => {
    const owner = ownerCalls(server, org);
    const draft = (await owner('POST', '/v1/itineraries', { name: 'Draft only', privacy: 'private' })).data.id;
    const refused = await reader.callTool({ name: 'get_itinerary', arguments: { itinerary_id: draft } });
    expect(refusalText(refused)).toBe('NOT_FOUND: This itinerary is not published: ask for version draft, or publish it first.');
    const asked = await reader.callTool({ name: 'get_itinerary', arguments: { itinerary_id: draft, version: 'draft' } });
    expect(asked.isError, JSON.stringify(asked.content)).toBeFalsy();
  });

  it('an unknown tool is named, with the tools there are', async () => {
    const text = refusalText(await reader.callTool({ name: 'delete_everything', arguments: {} }));
    expect(text).toMatch(/^NOT_FOUND: There is no tool named "delete_everything": use one of list_collections, .*search_zones\.$/);
  });

  it('a missing argument is named in the sentence', async () => {
    const refused = await reader.callTool({ name: 'plan_route', arguments: { waypoints: route.waypoints } });
    expect(refusalText(refused)).toBe('VALIDATION_FAILED: activity: This field is required here.');
    expect((refused.structuredContent as any).error.errors[0].path).toEqual(['activity']);
  });
});

describe('POST /mcp over raw HTTP', () => {
  const post = (headers: Record<string, string>, body: string) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  it('malformed JSON answers a JSON-RPC parse error', async () => {
    const res = await post(keyPair, '{"jsonrpc":"2.0","id":1,"method":');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'The request body is not valid JSON.' },
      id: null,
    });
  });

  it('a 401 challenge names the scope and the resource metadata', async () => {
    const res = await post({}, '{}');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="mcp"`,
    );
  });

  it('a key without the mcp scope answers 403 with an insufficient_scope challenge', async () => {
    const dataOnly = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'data', '--scopes', 'data');
    const res = await post({ 'X-API-Key': dataOnly.api_key.key, 'X-Secret-Key': org.secretKey.key }, '{}');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="mcp", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(((await res.json()) as any).errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
