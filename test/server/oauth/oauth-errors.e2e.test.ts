// The OAuth endpoints' refusals over real HTTP, each in OAuth's own form (an RFC 6749 / RFC 7591 `error` with a
// description saying what to do) even when the request never reached the endpoint's own checks: JSON sent to the
// token endpoint, registration JSON that does not parse, bodies too large, the registration rate limit (429);
// and registration answering only the scope it grants.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerUnderTest } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';

let server: ServerUnderTest;

beforeAll(async () => {
  server = await startInProcess({ SEED_DEMO: '0' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function post(path: string, contentType: string, body: string): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await server.fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': contentType }, body });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const register = (metadata: unknown) => post('/oauth/register', 'application/json', JSON.stringify(metadata));

describe('the token endpoint', () => {
  it('a JSON body answers invalid_request saying to send the form encoding', async () => {
    const answer = await post('/oauth/token', 'application/json', JSON.stringify({ grant_type: 'authorization_code', code: 'x' }));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({
      error: 'invalid_request',
      error_description: 'Send the token request as application/x-www-form-urlencoded parameters (RFC 6749 section 4.1.3), not JSON.',
      errors: [{ extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('a body over the limit answers invalid_request with the limit', async () => {
    const answer = await post('/oauth/token', 'application/x-www-form-urlencoded', `grant_type=refresh_token&x=${'a'.repeat(20_000)}`);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('16384 bytes') });
  });

  it('an unsupported grant answers unsupported_grant_type naming the grants there are', async () => {
    const answer = await post('/oauth/token', 'application/x-www-form-urlencoded', 'grant_type=password&username=a&password=b');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'unsupported_grant_type',
      error_description: 'Use grant_type authorization_code or refresh_token.',
    });
  });
});

describe('registration', () => {
  it('JSON that does not parse answers invalid_client_metadata', async () => {
    const answer = await post('/oauth/register', 'application/json', '{"redirect_uris": [');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: 'Send the client metadata as one JSON object, with Content-Type application/json (RFC 7591 section 3.1).',
    });
  });

  it('a form-encoded body answers invalid_client_metadata', async () => {
    const answer = await post('/oauth/register', 'application/x-www-form-urlencoded', 'redirect_uris=https://client.example/cb');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_client_metadata');
  });

  it('answers the one scope it grants, not the ones asked for', async () => {
    const answer = await register({ redirect_uris: ['https://client.example/cb'], scope: 'mcp offline_access admin' });
    expect(answer.status).toBe(201);
    expect(answer.body.scope).toBe('mcp');
    const without = await register({ redirect_uris: ['https://client.example/cb'] });
    expect(without.body.scope).toBe('mcp');
  });

  it('past 30 registrations a minute from one address answers 429 with too_many_requests', async () => {
    // The window is the clock minute: a minute that turns while this runs starts a new count, so go on to the first refusal.
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof register>> | undefined;
    while (!refused && statuses.length <= 62) {
      const answer = await register({ redirect_uris: ['https://client.example/cb'] });
      statuses.push(answer.status);
      if (answer.status !== 201) refused = answer;
    }
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get('retry-after')).toBeNull();
    expect(refused?.body).toMatchObject({
      error: 'too_many_requests',
      error_description: 'Too many client registrations from this address this minute: wait a minute and try again.',
      errors: [{ extensions: { code: 'TOO_MANY_REQUESTS' } }],
    });
  });
});
