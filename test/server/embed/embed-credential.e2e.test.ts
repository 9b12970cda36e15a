// The embed page's own credential over real HTTP (X-Embed-Token, docs/embed.md): minted with the page for the site
// that framed it, it lets the page's own requests (no Origin, Cairn's own Referer) pass a restricted key's origin
// check as that site, never requests from another site; a forged, expired or other-key credential is 401 with its
// sentence, it is renewed for the same site, and it dies with its key.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenSigner } from '../../../server/auth/signed-token.js';
import { admin, createPublishableKey, type Bootstrapped, bootstrap, type ServerUnderTest } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';
import { tamperings } from '../../helpers/token-tampering.js';

const SECRET = 'embed-credential-test-secret-0123456789abcdef';
const SITE = 'https://trails.example';
let server: ServerUnderTest;
let org: Bootstrapped;
let key: { id: string; plaintext: string };
let otherKey: { id: string; plaintext: string };

function restrictedKey(name: string): { id: string; plaintext: string } {
  return createPublishableKey(server, org.organization.id, { name, scopes: 'embedding', origins: SITE });
}

/** The embed page as the framing site's iframe asks for it; its configuration. */
async function framedPage(pk: string, referer = `${SITE}/trip`): Promise<{ status: number; config: any }> {
  const res = await server.fetch(`${server.url}/studio/embed?publishable_key=${pk}&collection_id=${org.collection.id}`, {
    headers: { Accept: 'text/html', Referer: referer },
  });
  const text = await res.text();
  const config = /<script type="application\/json" id="cairn-embed">(.*?)<\/script>/.exec(text)?.[1];
  return { status: res.status, config: config ? JSON.parse(config) : undefined };
}

/** A request as the embed page itself makes it: no Origin on a GET, the page as Referer. */
function fromEmbedPage(pk: string, credential?: string): Record<string, string> {
  return {
    'X-API-Key': pk,
    Referer: `${server.url}/studio/embed?publishable_key=${pk}&collection_id=${org.collection.id}`,
    ...(credential === undefined ? {} : { 'X-Embed-Token': credential }),
  };
}

async function answer(path: string, init: RequestInit): Promise<{ status: number; code?: string; message?: string; data?: any }> {
  const res = await server.fetch(`${server.url}${path}`, init);
  const body = (await res.json()) as any;
  return { status: res.status, code: body.errors?.[0]?.extensions.code, message: body.errors?.[0]?.message, data: body.data };
}
const tiles = (headers: Record<string, string>) => answer('/v1/tiles/trails.json', { headers });
/** The claims of a signed token (its payload, as anyone holding it can read). */
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.slice(4, token.indexOf('.')), 'base64url').toString('utf8'));

const ORIGIN_REFUSED = {
  status: 403,
  code: 'FORBIDDEN',
  message: "This key may not be used from this origin: add the origin to the key's allowed origins.",
};

beforeAll(async () => {
  server = await startInProcess({ SESSION_SECRET: SECRET, SEED_DEMO: '0' }, { routing: true });
  org = bootstrap(server);
  // Without the intelligence product the embed needs no session token: the key and its origins suffice.
  admin(server, 'set', '--org', org.organization.id, 'products=studio,data');
  key = restrictedKey('site');
  otherKey = restrictedKey('other');
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('the embed page’s own credential', () => {
  it('comes with the page framed by an allowed site, bound to its key and to that site', async () => {
    const before = Date.now();
    const { status, config } = await framedPage(key.plaintext);
    expect(status).toBe(200);
    expect(config.embedToken).toMatch(/^emb_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(config.embedTokenUrl).toBe('/studio/embed/token');
    expect(config.embedTokenExpiresAt).toBeGreaterThan(before + 590_000);
    expect(config.embedTokenExpiresAt).toBeLessThanOrEqual(Date.now() + 600_000);
    expect(claimsOf(config.embedToken)).toMatchObject({ kid: key.id, org: org.organization.id, ori: SITE });
  });

  it('lets the page’s own requests pass as the framing site, which are refused without it', async () => {
    const { embedToken } = (await framedPage(key.plaintext)).config;
    expect(await tiles(fromEmbedPage(key.plaintext))).toEqual(ORIGIN_REFUSED);
    expect((await tiles(fromEmbedPage(key.plaintext, embedToken))).status).toBe(200);
    const collection = await answer(`/v1/collections/${org.collection.id}`, { headers: fromEmbedPage(key.plaintext, embedToken) });
    expect(collection.status).toBe(200);
    expect(collection.data.id).toBe(org.collection.id);
  });

  it('never opens the key to another site', async () => {
    const { embedToken } = (await framedPage(key.plaintext)).config;
    expect(embedToken).toMatch(/^emb_/);
    const credentialed = { 'X-API-Key': key.plaintext, 'X-Embed-Token': embedToken };
    expect(await tiles({ ...credentialed, Origin: 'https://phish.example' })).toEqual(ORIGIN_REFUSED);
    expect(await tiles({ ...credentialed, Referer: 'https://phish.example/page' })).toEqual(ORIGIN_REFUSED);
    // A site the key does not allow gets no page, so no credential either.
    expect((await framedPage(key.plaintext, 'https://phish.example/page')).status).toBe(403);
  });

  it('refuses a forged, expired or other key’s credential with 401 and what to do', async () => {
    const { embedToken } = (await framedPage(key.plaintext)).config;
    const invalid = {
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'This embed credential is not valid: reload the embed page to get a new one.',
    };
    // Spaces around a header value are not part of it (HTTP), so "space appended" is the genuine credential there.
    for (const [how, tampered] of Object.entries(tamperings(embedToken)).filter(([name]) => name !== 'space appended')) {
      expect(await tiles(fromEmbedPage(key.plaintext, tampered)), how).toEqual(invalid);
    }
    const now = Math.floor(Date.now() / 1000);
    const claims = { kid: key.id, org: org.organization.id, ori: SITE, iat: now - 900, exp: now + 300 };
    const forged = new TokenSigner('another-deployment-secret-0123456789abcdef').sign('emb', claims);
    expect(await tiles(fromEmbedPage(key.plaintext, forged))).toEqual(invalid);
    // A session token is not an embed credential, even signed with the same secret.
    const asSession = new TokenSigner(SECRET).sign('sess', claims).replace(/^sess_/, 'emb_');
    expect(await tiles(fromEmbedPage(key.plaintext, asSession))).toEqual(invalid);

    const expired = new TokenSigner(SECRET).sign('emb', { ...claims, exp: now - 1 });
    expect(await tiles(fromEmbedPage(key.plaintext, expired))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'This embed credential has expired: reload the embed page to get a new one.',
    });
    expect(await tiles(fromEmbedPage(otherKey.plaintext, embedToken))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'This embed credential was made for another publishable key: send it with the key of the page it came with.',
    });
  });

  it('is renewed by the page for the same site before it ends; an expired one is not', async () => {
    const { embedToken } = (await framedPage(key.plaintext)).config;
    // A same-origin POST carries Cairn's own Origin.
    const renew = (credential: string) =>
      answer('/studio/embed/token', { method: 'POST', headers: { ...fromEmbedPage(key.plaintext, credential), Origin: server.url } });
    const renewed = await renew(embedToken);
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.data.expires_at)).toBeGreaterThan(Date.now() + 590_000);
    expect(claimsOf(renewed.data.token)).toMatchObject({ kid: key.id, ori: SITE });
    expect((await tiles(fromEmbedPage(key.plaintext, renewed.data.token))).status).toBe(200);

    const now = Math.floor(Date.now() / 1000);
    const expired = new TokenSigner(SECRET).sign('emb', { kid: key.id, org: org.organization.id, ori: SITE, iat: now - 900, exp: now - 1 });
    expect(await renew(expired)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    // Without a credential the page's renewal is its own origin's request, which the key does not allow.
    expect(
      await answer('/studio/embed/token', { method: 'POST', headers: { ...fromEmbedPage(key.plaintext), Origin: server.url } }),
    ).toEqual(ORIGIN_REFUSED);
  });

  it('dies with its key', async () => {
    const doomed = restrictedKey('doomed');
    const { embedToken } = (await framedPage(doomed.plaintext)).config;
    expect((await tiles(fromEmbedPage(doomed.plaintext, embedToken))).status).toBe(200);
    admin(server, 'revoke-key', '--id', doomed.id);
    expect(await tiles(fromEmbedPage(doomed.plaintext, embedToken))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});
