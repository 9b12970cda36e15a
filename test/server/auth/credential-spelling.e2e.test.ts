// Every credential passes only in the one spelling Cairn issues, over real HTTP: tampered session and user
// tokens answer 401 where the token as issued answers 200, and re-cased or padded keys, share tokens and
// user ids are refused rather than normalized.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, login, type ServerUnderTest } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';
import { tamperings } from '../../helpers/token-tampering.js';

let server: ServerUnderTest;
let A: Bootstrapped;
/** A publishable key with the management scope: its routes need a session token, and answer 200 with one. */
let managementKey: string;
let sessionToken: string;
let userToken: string;
let shareToken: string;

/** The names of the tamperings (the same for every token). */
const TAMPERINGS = Object.keys(tamperings('sess_payload.signature'));

beforeAll(async () => {
  server = await startInProcess({ SEED_DEMO: '0' });
  A = bootstrap(server);
  managementKey = admin(server, 'create-key', '--org', A.organization.id, '--type', 'pk', '--name', 'Ops', '--scopes', 'management').api_key
    .key as string;
  const minted = await server.fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': A.secretKey.key },
    body: JSON.stringify({ publishable_key: managementKey }),
  });
  expect(minted.status).toBe(201);
  sessionToken = ((await minted.json()) as { data: { token: string } }).data.token;
  userToken = await login(server, A.owner.email, A.owner.password);
  const shared = await server.fetch(`${server.url}/v1/collections/${A.collection.id}/share`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${userToken}` },
  });
  expect(shared.status).toBe(201);
  shareToken = ((await shared.json()) as { data: { token: string } }).data.token;
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** Status and error code of one request. */
async function call(path: string, init: RequestInit = {}): Promise<{ status: number; code: string | undefined }> {
  const res = await server.fetch(server.url + path, init);
  const text = await res.text();
  const code = text.startsWith('{"errors"') ? (JSON.parse(text).errors[0].extensions.code as string) : undefined;
  return { status: res.status, code };
}

const OK = { status: 200, code: undefined };
const UNAUTHORIZED = { status: 401, code: 'UNAUTHORIZED' };
const organization = '/v1/management/organization';

/** The key with every letter in the other case. */
const swapCase = (s: string) => s.replace(/[A-Za-z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));

describe('session tokens', () => {
  const withSession = (token: string) => call(organization, { headers: { 'X-API-Key': managementKey, 'X-Session-Token': token } });
  const inQuery = (token: string) =>
    call(`${organization}?session_token=${encodeURIComponent(token)}`, { headers: { 'X-API-Key': managementKey } });

  it('the token as minted answers 200 in the header and in the query', async () => {
    expect(await withSession(sessionToken)).toEqual(OK);
    expect(await inQuery(sessionToken)).toEqual(OK);
  });

  for (const name of TAMPERINGS) {
    it(`a session token with ${name} answers 401 UNAUTHORIZED`, async () => {
      const tampered = tamperings(sessionToken)[name] as string;
      // HTTP strips whitespace around a header value, so a trailing space can only be sent in the query.
      if (name !== 'space appended') expect(await withSession(tampered)).toEqual(UNAUTHORIZED);
      expect(await inQuery(tampered)).toEqual(UNAUTHORIZED);
    });
  }
});

describe('user tokens', () => {
  const withUser = (authorization: string) => call(organization, { headers: { Authorization: authorization } });

  it('the token as issued answers 200, whatever the case of the scheme name', async () => {
    expect(await withUser(`Bearer ${userToken}`)).toEqual(OK);
    expect(await withUser(`bearer ${userToken}`)).toEqual(OK);
  });

  for (const name of TAMPERINGS.filter((n) => n !== 'space appended')) {
    it(`a user token with ${name} answers 401 UNAUTHORIZED`, async () => {
      expect(await withUser(`Bearer ${tamperings(userToken)[name]}`)).toEqual(UNAUTHORIZED);
    });
  }

  it('a user token after a tab instead of a space answers 401', async () => {
    expect(await withUser(`Bearer\t${userToken}`)).toEqual(UNAUTHORIZED);
  });
});

describe('keys, share tokens and user ids', () => {
  const collection = () => `/v1/collections/${A.collection.id}`;

  it('a publishable key in another case, padded or with spaces answers 401; as issued it answers 200', async () => {
    const key = A.publishableKey.key;
    expect(await call(collection(), { headers: { 'X-API-Key': key } })).toEqual(OK);
    expect(await call(`${collection()}?publishable_key=${key}`)).toEqual(OK);
    expect(swapCase(key)).not.toBe(key);
    expect(await call(collection(), { headers: { 'X-API-Key': swapCase(key) } })).toEqual(UNAUTHORIZED);
    expect(await call(collection(), { headers: { 'X-API-Key': key.toUpperCase() } })).toEqual(UNAUTHORIZED);
    expect(await call(collection(), { headers: { 'X-API-Key': `${key}=` } })).toEqual(UNAUTHORIZED);
    expect(await call(`${collection()}?publishable_key=%20${key}%20`)).toEqual(UNAUTHORIZED);
    expect(await call(`${collection()}?publishable_key=${key}%0A`)).toEqual(UNAUTHORIZED);
  });

  it('a secret key in another case or padded mints nothing (404 NOT_FOUND); as issued it mints', async () => {
    const mint = (secret: string) =>
      call('/v1/sessions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': secret },
        body: JSON.stringify({ publishable_key: A.publishableKey.key }),
      });
    expect(await mint(swapCase(A.secretKey.key))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await mint(`${A.secretKey.key}=`)).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await mint(A.secretKey.key)).toEqual({ status: 201, code: undefined });
  });

  it('a share token in upper case or with spaces answers 401; as minted it answers 200', async () => {
    expect(await call(collection(), { headers: { 'X-Share-Token': shareToken } })).toEqual(OK);
    expect(await call(`${collection()}?share_token=${shareToken}`)).toEqual(OK);
    const upper = `share_${shareToken.slice('share_'.length).toUpperCase()}`;
    expect(upper).not.toBe(shareToken);
    expect(await call(collection(), { headers: { 'X-Share-Token': upper } })).toEqual(UNAUTHORIZED);
    expect(await call(collection(), { headers: { 'X-Share-Token': shareToken.toUpperCase() } })).toEqual(UNAUTHORIZED);
    expect(await call(`${collection()}?share_token=%20${shareToken}`)).toEqual(UNAUTHORIZED);
    expect(await call(`${collection()}?share_token=${shareToken}%09`)).toEqual(UNAUTHORIZED);
  });

  it('an X-User-Id in braces answers 400 BAD_REQUEST; in upper case it names the same member (uuids are case-insensitive)', async () => {
    const write = (userId: string, name: string) =>
      call('/v1/collections', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': A.publishableKey.key, 'X-User-Id': userId },
        body: JSON.stringify({ name, privacy: 'private' }),
      });
    expect(await write(A.owner.id.toUpperCase(), 'Upper')).toEqual({ status: 201, code: undefined });
    expect(await write(`{${A.owner.id}}`, 'Braces')).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(await write(A.owner.id, 'As issued')).toEqual({ status: 201, code: undefined });
  });
});
