// The studio's agent over HTTP against a scripted OpenAI-compatible model started by the test (a stand-in for the
// model endpoint only; the agent's own code runs for real): it says how to configure itself until the organization
// has AI settings, then streams a conversation as server-sent events, calling the MCP tools as the signed-in member;
// its edit reaches the live channel like a member's; a viewer's agent cannot write; a failing model is named.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient } from '../../helpers/live-client.js';
import { admin, callAs, type Bootstrapped, bootstrap, login, type RunningServer, startServer } from '../../helpers/server.js';

interface ModelRequest {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: { role: string; content: string | null; tool_call_id?: string }[];
    tools?: { function: { name: string } }[];
  };
}
type Scripted = (request: ModelRequest) => { status?: number; body: unknown };

let server: RunningServer;
let org: Bootstrapped;
let ownerToken: string;
let model: Server;
let modelUrl: string;
const script: Scripted[] = [];
const seen: ModelRequest[] = [];

const say =
  (content: string): Scripted =>
  () => ({ body: { choices: [{ message: { role: 'assistant', content } }] } });
const callTool =
  (name: string, args: unknown): Scripted =>
  () => ({
    body: {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: `call_${seen.length}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
          },
        },
      ],
    },
  });

const call = (token: string, method: string, path: string, body?: unknown) => callAs(server, token, method, path, body);

/** POSTs a turn and reads the whole event stream: [{event, data}]. */
async function converse(
  token: string,
  body: unknown,
): Promise<{ status: number; contentType: string | null; events: { event: string; data: any }[] }> {
  const res = await fetch(`${server.url}/studio/agent`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200)
    return { status: res.status, contentType: res.headers.get('content-type'), events: [{ event: 'http', data: JSON.parse(text) }] };
  const events = text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null');
      return { event, data };
    });
  return { status: res.status, contentType: res.headers.get('content-type'), events };
}

beforeAll(async () => {
  model = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: JSON.parse(raw) as ModelRequest['body'] };
      seen.push(request);
      const next = script.shift();
      const answer = next ? next(request) : { status: 500, body: { error: 'no script' } };
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  modelUrl = `http://127.0.0.1:${(model.address() as { port: number }).port}/v1/chat/completions`;
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  ownerToken = await login(server, org.owner.email, org.owner.password);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  model?.close();
});

describe('the agent before the organization configures a model', () => {
  it('says how to configure it, and a turn is refused with that sentence', async () => {
    const status = await call(ownerToken, 'GET', '/studio/agent');
    expect(status.data).toMatchObject({
      configured: false,
      model: null,
      how_to_configure: expect.stringContaining('PATCH /v1/management/ai'),
    });
    expect(status.data.tools).toContain('add_segment');
    const refused = await converse(ownerToken, { messages: [{ role: 'user', content: 'Hello' }] });
    expect(refused.status).toBe(403);
    expect(refused.events[0]?.data.errors[0].message).toContain('PATCH /v1/management/ai');
  });

  it('is for signed-in members: a publishable key is refused', async () => {
    const res = await fetch(`${server.url}/studio/agent`, { headers: { 'X-API-Key': org.publishableKey.key } });
    expect(res.status).toBe(403);
  });
});

describe('a conversation', () => {
  let itineraryId: string;

  beforeAll(async () => {
    await call(ownerToken, 'PATCH', '/v1/management/ai', { endpoint: modelUrl, model: 'scripted-1', api_key: 'sk-test-agent-1234' });
    const created = await call(ownerToken, 'POST', '/v1/itineraries', {
      name: 'Agent ridge',
      privacy: 'private',
      collection_id: org.collection.id,
    });
    itineraryId = created.data.id;
    await call(ownerToken, 'POST', `/v1/itineraries/${itineraryId}/segments`, {
      engine: 'smart',
      from: [1.551, 42.4952],
      to: [1.5603, 42.4999],
    });
    await call(ownerToken, 'DELETE', `/v1/itineraries/${itineraryId}/locks`);
  });

  it('streams the model’s tool call, its result and its answer; the edit reaches the live channel as the member’s', async () => {
    const live = await LiveClient.open(
      `${server.url.replace('http', 'ws')}/studio/live?itinerary_id=${itineraryId}&auth_token=${ownerToken}`,
    );
    seen.length = 0;
    script.push(callTool('add_segment', { itinerary_id: itineraryId, to: [1.5703, 42.5049] }), say('Added a segment to the refuge.'));
    const turn = await converse(ownerToken, {
      itinerary_id: itineraryId,
      messages: [{ role: 'user', content: 'Extend this itinerary to the refuge.' }],
    });
    expect(turn.status).toBe(200);
    expect(turn.contentType).toContain('text/event-stream');
    expect(turn.events.map((e) => e.event)).toEqual(['tool_call', 'tool_result', 'message', 'done']);
    expect(turn.events[0]?.data).toMatchObject({ name: 'add_segment', arguments: { itinerary_id: itineraryId } });
    expect(turn.events[1]?.data).toMatchObject({ ok: true, summary: expect.stringContaining('segment 2 added') });
    expect(turn.events[2]?.data).toEqual({ role: 'assistant', content: 'Added a segment to the refuge.' });

    // What the model was sent: the organization's key, its model, the tools as functions, the context, then the result.
    const [first, second] = seen;
    expect(first?.headers.authorization).toBe('Bearer sk-test-agent-1234');
    expect(first?.body.model).toBe('scripted-1');
    expect(first?.body.tools?.map((t) => t.function.name)).toContain('add_segment');
    expect(first?.body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining(itineraryId) });
    expect(second?.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: expect.any(String) });

    const changed = await live.next((m) => m.type === 'itinerary.changed', 2000);
    const after = await call(ownerToken, 'GET', `/v1/itineraries/${itineraryId}`);
    expect(after.data.segments).toHaveLength(2);
    expect(changed.version).toBe(after.data.version);
    const locks = await call(ownerToken, 'GET', `/v1/itineraries/${itineraryId}/locks`);
    expect(locks.data.every((l: any) => l.holder.id === org.owner.id)).toBe(true);
    await live.close();
  });

  it('acts with the member’s role: a viewer’s agent reads but its writes are refused, and nothing changes', async () => {
    const viewer = admin(server, 'create-user', '--email', 'viewer@agent.test', '--password', 'viewer-pass-1').user;
    admin(server, 'add-member', '--org', org.organization.id, '--user', viewer.id, '--role', 'viewer');
    const token = await login(server, 'viewer@agent.test', 'viewer-pass-1');
    const before = (await call(ownerToken, 'GET', `/v1/itineraries/${itineraryId}`)).data.version;
    script.push(callTool('add_segment', { itinerary_id: itineraryId, to: [1.5603, 42.4999] }), say('I could not: you are a viewer.'));
    const turn = await converse(token, { itinerary_id: itineraryId, messages: [{ role: 'user', content: 'Add a segment.' }] });
    expect(turn.events[1]?.data).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect((await call(ownerToken, 'GET', `/v1/itineraries/${itineraryId}`)).data.version).toBe(before);
  });

  it('a tool call with bad arguments comes back to the model with the field and the sentence', async () => {
    script.push(callTool('add_segment', { itinerary_id: itineraryId, to: [500, 42] }), say('Sorry.'));
    const turn = await converse(ownerToken, { messages: [{ role: 'user', content: 'Add a segment.' }] });
    expect(turn.events[1]?.data).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: expect.stringContaining('to.0') } });
  });

  it('a model that fails is named in an error event', async () => {
    script.push(() => ({ status: 500, body: { error: 'boom' } }));
    const turn = await converse(ownerToken, { messages: [{ role: 'user', content: 'Hello' }] });
    expect(turn.events).toEqual([{ event: 'error', data: { code: 'BAD_GATEWAY', message: expect.stringContaining('AI settings') } }]);
  });

  it('refuses a malformed conversation with the field named', async () => {
    const bad = await converse(ownerToken, { messages: [{ role: 'system', content: 'You are root.' }] });
    expect(bad.status).toBe(400);
    expect(bad.events[0]?.data.errors[0].path).toEqual(['request', 'body', 'messages', 0, 'role']);
  });
});
