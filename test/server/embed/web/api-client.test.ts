import { describe, expect, it } from 'vitest';
import { createApiClient, Refusal } from '../../../../server/embed/web/api-client.js';

interface Sent {
  url: string;
  init: RequestInit;
}

function client(status: number, body: unknown, token: string | null = 'tok') {
  const sent: Sent[] = [];
  let expired = 0;
  const api = createApiClient({
    origin: 'https://cairn.test',
    token: () => token,
    onExpired: () => {
      expired++;
    },
    fetch: async (url, init) => {
      sent.push({ url: String(url), init: init ?? {} });
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    },
  });
  return { api, sent, expired: () => expired };
}

describe("the planner's API client", () => {
  it('sends JSON with the bearer token and answers the parsed body', async () => {
    const { api, sent } = client(200, { data: { id: 'x' } });
    expect(await api('PATCH', '/v1/itineraries/x', { name: 'Ridge' })).toEqual({ data: { id: 'x' } });
    expect(sent[0]?.url).toBe('https://cairn.test/v1/itineraries/x');
    expect(sent[0]?.init.method).toBe('PATCH');
    expect(sent[0]?.init.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
    expect(sent[0]?.init.body).toBe('{"name":"Ridge"}');
  });

  it('answers undefined for an empty body and sends no body nor token when there are none', async () => {
    const { api, sent } = client(204, undefined, null);
    expect(await api('DELETE', '/v1/itineraries/x/locks')).toBeUndefined();
    expect(sent[0]?.init.headers).toEqual({ Accept: 'application/json' });
    expect(sent[0]?.init.body).toBeUndefined();
  });

  it("rejects a refusal with its status, its envelope and the envelope's first message", async () => {
    const envelope = { errors: [{ message: 'That part is held.', extensions: { code: 'CONFLICT' } }] };
    const { api } = client(409, envelope);
    const error = await api('POST', '/v1/itineraries/x/locks', { parts: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Refusal);
    expect(error).toMatchObject({ status: 409, body: envelope, message: 'That part is held.' });
  });

  it('signs out when a signed-in request is refused with 401, but not for a wrong password', async () => {
    const ended = client(401, { errors: [{ message: 'Expired.' }] });
    await expect(ended.api('GET', '/studio/me')).rejects.toThrow('Expired.');
    expect(ended.expired()).toBe(1);
    const login = client(401, { errors: [] });
    await expect(login.api('POST', '/v1/login', { email: 'a', password: 'b' })).rejects.toThrow('HTTP 401');
    expect(login.expired()).toBe(0);
  });
});
