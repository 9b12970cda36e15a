// OAuth 2.1 for the MCP server over real HTTP, driven by the official SDK's own client auth (discovery from the
// 401's WWW-Authenticate, dynamic registration or a client ID metadata document, PKCE, code exchange, refresh),
// with the sign-in and consent forms submitted as a browser would. Then its failures: a wrong PKCE verifier, a
// reused code (which also revokes what it issued), a redirect URI the client never registered, a revoked key,
// a rotated refresh token presented again, and the token kept to its surface.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../../helpers/mcp-client.js';
import { admin, type Bootstrapped, bootstrap, callAs, login, type RunningServer, startServer } from '../../helpers/server.js';
import { insideOneMinute } from '../../helpers/clock-minute.js';

const REDIRECT = 'http://localhost:53682/callback';

/** An authorization request as a client sends it: PKCE S256 of `verifier`, to REDIRECT unless told otherwise. */
function authorizeUrl(clientId: string, verifier: string, extra: Record<string, string> = {}): URL {
  const url = new URL(`${server.url}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return url;
}

let server: RunningServer;
let org: Bootstrapped;
let certDir: string;
let metadataHost: HttpsServer;
let metadataUrl: string;

/** An MCP client's OAuth state, in memory: what a real client would keep on disk. */
class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(readonly clientMetadataUrl?: string) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Trail assistant',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'state-123';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replaceAll('&amp;', '&');
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});

/** What the member does in the browser: sign in, pick a key, allow. Returns where the server sent the browser back. */
async function signInAndConsent(
  authorizationUrl: URL,
  who = org,
  choose?: (keyIds: string[]) => string,
  clientName = 'Trail assistant',
): Promise<URL> {
  const signIn = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(signIn.status).toBe(200);
  expect(signIn.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  const signInHtml = await signIn.text();
  expect(signInHtml).toContain(clientName);
  const consent = await fetch(
    `${server.url}/oauth/authorize`,
    form({ stage: 'sign_in', ticket: hidden(signInHtml, 'ticket')!, email: who.owner.email, password: who.owner.password }),
  );
  expect(consent.status).toBe(200);
  const consentHtml = await consent.text();
  const keyIds = [...consentHtml.matchAll(/name="key_id" id="[^"]*" value="([^"]*)"/g)].map((m) => m[1] as string);
  const back = await fetch(
    `${server.url}/oauth/authorize`,
    form({
      stage: 'consent',
      ticket: hidden(consentHtml, 'ticket')!,
      key_id: choose ? choose(keyIds) : who.publishableKey.id,
      decision: 'allow',
    }),
  );
  expect(back.status).toBe(302);
  return new URL(back.headers.get('location')!);
}

/** Connects with OAuth from nothing: the SDK discovers, registers (or uses its metadata URL), and is sent to sign in. */
async function authorize(provider: MemoryProvider, choose?: (keyIds: string[]) => string): Promise<void> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
  await expect(new Client({ name: 't', version: '1' }).connect(transport)).rejects.toThrow(/Unauthorized/i);
  expect(provider.authorizationUrl).toBeDefined();
  const back = await signInAndConsent(provider.authorizationUrl!, org, choose);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('state-123');
  expect(back.searchParams.get('iss')).toBe(server.url);
  await transport.finishAuth(back.searchParams.get('code')!);
}

async function connected(provider: MemoryProvider): Promise<Client> {
  const client = new Client({ name: 't', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider }));
  return client;
}

const token = (fields: Record<string, string>) =>
  fetch(`${server.url}/oauth/token`, { ...form(fields), redirect: 'follow' }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

/** `tools/list` over raw HTTP with an access token: what these tests read is the status and the challenge. */
const listToolsWith = (accessToken: string) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

/** A manual authorization with a known verifier (the failure cases need the raw code). */
async function rawCode(clientId: string, verifier: string): Promise<string> {
  const url = authorizeUrl(clientId, verifier, { state: 's' });
  const back = await signInAndConsent(url);
  return back.searchParams.get('code')!;
}

async function registered(): Promise<string> {
  const res = await fetch(`${server.url}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Trail assistant', redirect_uris: [REDIRECT] }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

beforeAll(async () => {
  // A client ID metadata document must be served over https: a self-signed localhost certificate the server trusts.
  certDir = mkdtempSync(join(tmpdir(), 'cairn-oauth-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  metadataHost = createServer(
    { key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) },
    (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          client_id: metadataUrl,
          client_name: 'Trail assistant',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
        }),
      );
    },
  );
  await new Promise<void>((resolve) => metadataHost.listen(0, '127.0.0.1', resolve));
  metadataUrl = `https://localhost:${(metadataHost.address() as { port: number }).port}/client.json`;
  server = await startServer({ SEED_DEMO: '0', OAUTH_PRIVATE_CLIENT_URLS: '1', NODE_EXTRA_CA_CERTS: join(certDir, 'cert.pem') });
  org = bootstrap(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  metadataHost?.close();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

describe('OAuth discovery', () => {
  it('a 401 from /mcp points at the protected-resource metadata, which names the authorization server', async () => {
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toBe(`Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
    const resource = await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${server.url}/mcp`, authorization_servers: [server.url], scopes_supported: ['mcp'] });
    const as = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      registration_endpoint: `${server.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      client_id_metadata_document_supported: true,
    });
  });

  it('a forged bearer token is 401 with error="invalid_token" in the challenge', async () => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer mcp_abc.def' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});

describe('OAuth with dynamic registration, driven by the SDK client', () => {
  const provider = new MemoryProvider();

  it('registers, signs in, consents, exchanges the code and calls tools as the member', async () => {
    await authorize(provider);
    expect(provider.info?.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(provider.saved?.access_token).toMatch(/^mcp_/);
    expect(provider.saved?.refresh_token).toMatch(/^mcpr_/);
    const client = await connected(provider);
    const listed = await client.callTool({ name: 'list_collections', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(JSON.stringify(listed.structuredContent)).toContain(org.collection.id);
    // The member (the owner) writes through it: the itinerary is attributed to them.
    const created = await client.callTool({
      name: 'create_itinerary_from_route',
      arguments: {
        name: 'OAuth walk',
        collection_id: org.collection.id,
        activity: 'HIKING_AND_TRAIL',
        waypoints: [
          [1.551, 42.4952],
          [1.5603, 42.4999],
        ],
      },
    });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    await client.close();
  });

  it('refreshes: a new access token and a rotated refresh token; the old refresh token, presented again, revokes the family', async () => {
    const before = provider.saved!;
    expect(await auth(provider, { serverUrl: new URL(`${server.url}/mcp`) })).toBe('AUTHORIZED');
    const after = provider.saved!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    const client = await connected(provider);
    expect((await client.listTools()).tools.length).toBe(12);
    await client.close();

    const replay = await token({ grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: provider.info!.client_id });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({
      error: 'invalid_grant',
      errors: [{ extensions: { code: 'VALIDATION_FAILED' }, path: ['request', 'body', 'refresh_token'] }],
    });
    const current = await token({ grant_type: 'refresh_token', refresh_token: after.refresh_token!, client_id: provider.info!.client_id });
    expect(current.body.error).toBe('invalid_grant');
  });
});

describe('OAuth with a client ID metadata document', () => {
  it('uses the https URL as client_id without registering, reading the document it serves', async () => {
    const provider = new MemoryProvider(metadataUrl);
    await authorize(provider);
    expect(provider.info?.client_id).toBe(metadataUrl);
    const client = await connected(provider);
    const places = await client.callTool({ name: 'search_places', arguments: { text: 'Refugi', limit: 3 } });
    expect(places.isError, JSON.stringify(places.content)).toBeFalsy();
    await client.close();
  });
});

describe('OAuth failures', () => {
  it('a wrong PKCE verifier is invalid_grant', async () => {
    const clientId = await registered();
    const verifier = randomBytes(32).toString('base64url');
    const code = await rawCode(clientId, verifier);
    const wrong = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: randomBytes(32).toString('base64url'),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant', errors: [{ path: ['request', 'body', 'code_verifier'] }] });
  });

  it('a code redeems once; presented again it is refused and the tokens it gave are revoked', async () => {
    const clientId = await registered();
    const verifier = randomBytes(32).toString('base64url');
    const code = await rawCode(clientId, verifier);
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier };
    const first = await token(exchange);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp' });
    const second = await token(exchange);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: clientId });
    expect(refreshed.body.error).toBe('invalid_grant');
    const call = await listToolsWith(first.body.access_token);
    expect(call.status).toBe(401);
    expect(((await call.json()) as any).errors[0].message).toContain('presented twice');
  });

  it('a redirect URI the client never registered is shown as an error page, never redirected to', async () => {
    const clientId = await registered();
    const url = authorizeUrl(clientId, 'x'.repeat(43), { redirect_uri: 'https://attacker.example/callback' });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('not one the client registered');
  });

  it('without PKCE S256 the page says so and offers the way back, without redirecting on its own', async () => {
    const clientId = await registered();
    const url = new URL(`${server.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'plain',
      state: 'k',
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toContain('PKCE is required');
    const back = new URL(/href="([^"]*)">Return to the application/.exec(html)![1]!.replaceAll('&amp;', '&'));
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('k');
  });

  it('a state too long for the pages to carry is refused up front', async () => {
    const clientId = await registered();
    const url = authorizeUrl(clientId, 'x'.repeat(43), { state: 's'.repeat(2000) });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('at most 512 characters');
  });

  it('a native app registered on loopback may come back on any port; the token request repeats that exact URI', async () => {
    const registration = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'Desktop app', redirect_uris: ['http://127.0.0.1/callback'] }),
    });
    const clientId = ((await registration.json()) as { client_id: string }).client_id;
    const verifier = randomBytes(32).toString('base64url');
    const redirectUri = 'http://127.0.0.1:49152/callback';
    const url = authorizeUrl(clientId, verifier, { redirect_uri: redirectUri });
    const back = await signInAndConsent(url, org, undefined, 'Desktop app');
    expect(back.origin).toBe('http://127.0.0.1:49152');
    const exchanged = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(exchanged.status).toBe(200);
    // Another path on loopback is another URI.
    url.searchParams.set('redirect_uri', 'http://127.0.0.1:49152/elsewhere');
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(400);
  });

  it('a client that registered for a secret must send it (form or Basic), and PKCE still', async () => {
    const registration = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'Trail assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' }),
    });
    expect(registration.status).toBe(201);
    const client = (await registration.json()) as { client_id: string; client_secret: string; token_endpoint_auth_method: string };
    expect(client).toMatchObject({ token_endpoint_auth_method: 'client_secret_post', client_secret: expect.stringMatching(/^mcps_/) });
    const verifier = randomBytes(32).toString('base64url');
    const code = await rawCode(client.client_id, verifier);
    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.client_id,
      code_verifier: verifier,
    };
    const without = await token(exchange);
    expect(without.status).toBe(401);
    expect(without.body.error).toBe('invalid_client');
    // The refused request did not burn the code: the client authenticates first.
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
    const res = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic },
      body: new URLSearchParams(exchange).toString(),
    });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { refresh_token: string };
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(refreshed.status).toBe(200);
  });

  it('registration refuses a script or plain-http redirect URI with the field named', async () => {
    for (const uri of ['javascript:alert(1)', 'http://example.com/cb', 'https://example.com/cb#frag']) {
      const res = await fetch(`${server.url}/oauth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [uri] }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_redirect_uri', errors: [{ path: ['request', 'body', 'redirect_uris'] }] });
    }
  });

  it('a revoked key ends its tokens at once: /mcp is 401 and refreshing is refused', async () => {
    const own = bootstrap(server);
    const clientId = await registered();
    const verifier = randomBytes(32).toString('base64url');
    const url = authorizeUrl(clientId, verifier);
    const code = (await signInAndConsent(url, own)).searchParams.get('code')!;
    const tokens = (
      await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier })
    ).body;
    const call = () => listToolsWith(tokens.access_token);
    expect((await call()).status).toBe(200);
    admin(server, 'revoke-key', '--id', own.publishableKey.id);
    const refused = await call();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it("a viewer's token reads, and a tool that writes says the member consented as a viewer", async () => {
    const email = 'oauth-viewer@mcp.test';
    const viewer = admin(server, 'create-user', '--email', email, '--password', 'viewer-pass-1').user.id;
    admin(server, 'add-member', '--org', org.organization.id, '--user', viewer, '--role', 'viewer');
    const clientId = await registered();
    const verifier = randomBytes(32).toString('base64url');
    const asViewer = { ...org, owner: { id: viewer, email, password: 'viewer-pass-1' } };
    const code = (await signInAndConsent(authorizeUrl(clientId, verifier), asViewer)).searchParams.get('code')!;
    const tokens = (
      await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier })
    ).body;
    const client = await connectMcp(server, { Authorization: `Bearer ${tokens.access_token}` });
    expect((await client.callTool({ name: 'list_collections', arguments: {} })).isError).toBeFalsy();
    const refused = await client.callTool({
      name: 'create_itinerary_from_route',
      arguments: {
        name: 'Viewer walk',
        activity: 'WALKING',
        waypoints: [
          [1.551, 42.4952],
          [1.5603, 42.4999],
        ],
      },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]?.text).toBe(
      'FORBIDDEN: You connected as a viewer, who only reads: a write needs a member with role owner, admin or contributor (an owner or admin can change your role).',
    );
    await client.close();
  });

  it('a token whose key lost the mcp scope answers 403 with an insufficient_scope challenge', async () => {
    const own = bootstrap(server);
    const clientId = await registered();
    const verifier = randomBytes(32).toString('base64url');
    const code = (await signInAndConsent(authorizeUrl(clientId, verifier), own)).searchParams.get('code')!;
    const tokens = (
      await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier })
    ).body;
    const session = await login(server, own.owner.email, own.owner.password);
    await callAs(server, session, 'PATCH', `/v1/management/keys/${own.publishableKey.id}`, { scopes: ['embedding', 'data'] });
    const refused = await listToolsWith(tokens.access_token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="mcp", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('the consent lists only keys holding mcp; an MCP token does not open the Data API', async () => {
    const dataOnly = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'Data only', '--scopes', 'data');
    const clientId = await registered();
    const verifier = randomBytes(32).toString('base64url');
    let offered: string[] = [];
    const url = authorizeUrl(clientId, verifier);
    const back = await signInAndConsent(url, org, (ids) => {
      offered = ids;
      return org.publishableKey.id;
    });
    expect(offered).toContain(org.publishableKey.id);
    expect(offered).not.toContain(dataOnly.api_key.id);
    const tokens = (
      await token({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
      })
    ).body;
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    const body = (await graphql.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('UNAUTHORIZED');
  });
});

describe('OAuth sign-in throttling', () => {
  it('after 10 failed sign-ins a minute from one address, the page makes the caller wait', async () => {
    const clientId = await registered();
    const url = authorizeUrl(clientId, 'x'.repeat(43));
    const ticket = hidden(await (await fetch(url)).text(), 'ticket')!;
    // The counter's window is the clock minute: start well inside one.
    await insideOneMinute(5_000);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await fetch(
        `${server.url}/oauth/authorize`,
        form({ stage: 'sign_in', ticket, email: org.owner.email, password: 'wrong-password' }),
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10), String(statuses)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // Even the right password waits now.
    const right = await fetch(
      `${server.url}/oauth/authorize`,
      form({ stage: 'sign_in', ticket, email: org.owner.email, password: org.owner.password }),
    );
    expect(right.status).toBe(429);
  }, 15_000);
});
