// Bodies and queries a hostile client sends: control characters in text, blank names, numbers no listing
// can serve, a body with 150,000 bad coordinates. Each is a 400 in the envelope that names the field and
// says what to send, and a refused write changes nothing.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bootstrapped, bootstrap, type RunningServer, startServer } from '../../helpers/server.js';

let server: RunningServer;
let A: Bootstrapped;
let itineraryId: string;
let zoneId: string;
let db: Database.Database;

const writer = () => ({ 'X-API-Key': A.publishableKey.key, 'X-User-Id': A.owner.id, 'Content-Type': 'application/json' });

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = writer()) {
  const res = await fetch(server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), json: text ? JSON.parse(text) : undefined };
}

/** Row counts of the studio tables: a refused write must leave every one as it was. */
function counts(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const table of ['collections', 'itineraries', 'segments', 'waypoints', 'zones', 'collection_itineraries']) {
    out[table] = (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  }
  return out;
}

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  A = bootstrap(server);
  db = new Database(join(server.dataDir, 'platform.db'), { readonly: true });
  itineraryId = (await send('POST', '/v1/itineraries', { name: 'Ridge' })).json.data.id;
  zoneId = (
    await send('POST', '/v1/zones', {
      name: 'Rockfall',
      level: 'WARNING',
      mode: 'CIRCLE',
      geometry: { type: 'Point', coordinates: [1.5, 42.5] },
      radius_m: 50,
      privacy: 'public',
    })
  ).json.data.id;
}, 60_000);
afterAll(async () => {
  db?.close();
  await server?.stop();
});

describe('text fields', () => {
  const badNames = {
    NUL: '\u0000x',
    'NUL inside': 'a\u0000b',
    'a line feed': 'two\nlines',
    DEL: 'x\u007F',
    'a C1 control': 'x\u0085',
    'a line separator': 'x\u2028y',
    'a lone surrogate': 'x\uD800',
    'only spaces': '   ',
    'only a tab': '\t',
  };
  const creates: [string, string, Record<string, unknown>][] = [
    ['a collection', '/v1/collections', { privacy: 'private' }],
    ['an itinerary', '/v1/itineraries', {}],
    [
      'a zone',
      '/v1/zones',
      { level: 'INFO', mode: 'CIRCLE', geometry: { type: 'Point', coordinates: [1.5, 42.5] }, radius_m: 10, privacy: 'private' },
    ],
  ];

  for (const [what, path, rest] of creates) {
    it(`creating ${what} with a name holding control characters or only blanks is a 400 at the name, and nothing is stored`, async () => {
      const before = counts();
      for (const [label, name] of Object.entries(badNames)) {
        const res = await send('POST', path, { ...rest, name });
        expect(res.status, label).toBe(400);
        expect(res.json.errors, label).toHaveLength(1);
        expect(res.json.errors[0].path, label).toEqual(['request', 'body', 'name']);
        expect(res.json.errors[0].extensions.code).toBe('VALIDATION_FAILED');
        expect(res.json.errors[0].message, label).toMatch(/control characters/);
      }
      expect(counts()).toEqual(before);
    });
  }

  it('duplicating, renaming and patching refuse the same names', async () => {
    const before = counts();
    expect((await send('POST', `/v1/itineraries/${itineraryId}/duplicate`, { name: '\u0000' })).json.errors[0].path).toEqual([
      'request',
      'body',
      'name',
    ]);
    expect((await send('PATCH', `/v1/itineraries/${itineraryId}`, { name: 'a\u0000b' })).status).toBe(400);
    expect((await send('PATCH', `/v1/zones/${zoneId}`, { name: ' ' })).status).toBe(400);
    expect(counts()).toEqual(before);
    expect((await send('GET', `/v1/itineraries/${itineraryId}`)).json.data.name).toBe('Ridge');
  });

  it('a description keeps its line breaks and tabs, but not other control characters', async () => {
    const ok = await send('PATCH', `/v1/itineraries/${itineraryId}`, { description: 'Day 1:\n\tridge\r\nDay 2' });
    expect(ok.status).toBe(200);
    expect(ok.json.data.description).toBe('Day 1:\n\tridge\r\nDay 2');
    const bad = await send('PATCH', `/v1/itineraries/${itineraryId}`, { description: 'bell\u0007' });
    expect(bad.json.errors[0].path).toEqual(['request', 'body', 'description']);
  });

  it("a body that is not valid UTF-8 (a lone surrogate's bytes, a stray 0xFF) is a 400, never stored with replacement characters", async () => {
    const before = counts();
    for (const bad of [Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff])]) {
      const body = Buffer.concat([Buffer.from('{"name":"a'), bad, Buffer.from('b","privacy":"private"}')]);
      const res = await fetch(`${server.url}/v1/collections`, { method: 'POST', headers: writer(), body });
      const json = (await res.json()) as any;
      expect(res.status).toBe(400);
      expect(json.errors[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' }, message: expect.stringMatching(/UTF-8/) });
    }
    expect(counts()).toEqual(before);
  });

  it('a name with accents, emoji and inner spaces is stored exactly', async () => {
    const res = await send('POST', '/v1/collections', { name: ' Pic de l’Estanyó 🏔 ', privacy: 'private' });
    expect(res.status).toBe(201);
    expect(res.json.data.name).toBe(' Pic de l’Estanyó 🏔 ');
  });
});

describe('pagination values', () => {
  const lists = () => [
    `/v1/organizations/${A.organization.id}/collections`,
    `/v1/users/${A.owner.id}/collections`,
    '/v1/itineraries',
    `/v1/itineraries/${itineraryId}/collections`,
    `/v1/zones/${zoneId}/collections`,
    `/v1/collections/${A.collection.id}/itineraries`,
    `/v1/collections/${A.collection.id}/zones`,
    '/v1/zones',
  ];
  const bad: [string, string][] = [
    ['limit', '1e309'],
    ['limit', 'Infinity'],
    ['limit', '-Infinity'],
    ['limit', 'NaN'],
    ['limit', '1.0'],
    ['limit', '%205'],
    ['limit', '0x10'],
    ['limit', ''],
    ['limit', '101'],
    ['limit', '0'],
    ['offset', '1e19'],
    ['offset', '9223372036854775807'],
    ['offset', '-1'],
    ['offset', '1000001'],
    ['offset', '1e3'],
  ];

  it('every paginated listing answers 400 at the parameter, never 500, for numbers it cannot serve', async () => {
    for (const list of lists()) {
      for (const [name, value] of bad) {
        const res = await send('GET', `${list}?${name}=${value}`, undefined, { 'X-API-Key': A.publishableKey.key });
        expect(res.status, `${list}?${name}=${value}`).toBe(400);
        expect(res.json.errors[0].path, `${list}?${name}=${value}`).toEqual(['request', 'query', name]);
        expect(res.json.errors[0].message).toMatch(name === 'limit' ? /from 1 to 100/ : /from 0 to 1000000|at least 0/);
      }
      const ok = await send('GET', `${list}?limit=100&offset=1000000`, undefined, { 'X-API-Key': A.publishableKey.key });
      expect(ok.status, list).toBe(200);
      expect(ok.json.extensions.metadata.pagination).toMatchObject({ limit: 100, offset: 1000000 });
    }
  });
});

describe('huge invalid bodies', () => {
  it('150,000 invalid coordinates answer a small 400: at most 50 entries, the last counting the rest', async () => {
    const coordinates = Array.from({ length: 150_000 }, () => [0]); // about 600 KB
    const before = counts();
    const res = await send('POST', `/v1/itineraries/${itineraryId}/segments`, { engine: 'freehand', coordinates });
    expect(res.status).toBe(400);
    expect(res.bytes).toBeLessThan(20_000);
    expect(res.json.errors.length).toBeLessThanOrEqual(50);
    expect(res.json.errors.at(-1).message).toMatch(/more values failed validation/);
    expect(counts()).toEqual(before);
  });

  it('10,000 coordinates with bad values list 49 of them and count the rest', async () => {
    const coordinates = Array.from({ length: 10_000 }, (_, i) => [i % 2 ? 'east' : 1.5, 'north']);
    const res = await send('POST', `/v1/itineraries/${itineraryId}/segments`, { engine: 'freehand', coordinates });
    expect(res.status).toBe(400);
    expect(res.json.errors).toHaveLength(50);
    expect(res.json.errors[0].path.slice(0, 4)).toEqual(['request', 'body', 'coordinates', 0]);
    expect(res.json.errors[49].message).toMatch(/^\d[\d,]* more values failed validation/);
  });

  it('a freehand line over 10,000 positions is refused by its size with the limit in the sentence', async () => {
    const coordinates = Array.from({ length: 10_001 }, (_, i) => [1.5 + i * 1e-6, 42.5]);
    const res = await send('POST', `/v1/itineraries/${itineraryId}/segments`, { engine: 'freehand', coordinates });
    expect(res.status).toBe(400);
    expect(res.json.errors[0]).toMatchObject({
      path: ['request', 'body', 'coordinates'],
      message: expect.stringMatching(/at most 10000 items/),
    });
  });
});

describe('sentences that say what to send', () => {
  it('an enum failure lists the allowed values', async () => {
    const res = await send('POST', '/v1/collections', { name: 'x', privacy: 'secret' });
    expect(res.json.errors[0].message).toBe('Use one of: public, private.');
  });

  it('a colour failure shows the #RRGGBB form, not a regular expression', async () => {
    const res = await send('PATCH', `/v1/itineraries/${itineraryId}/segment-groups/${crypto.randomUUID()}`, undefined);
    expect(res.status).toBe(405);
    const group = await send('POST', `/v1/itineraries/${itineraryId}/segment-groups`, {
      name: 'g',
      color: 'red',
      segment_ids: [crypto.randomUUID()],
    });
    const entry = group.json.errors.find((e: any) => e.path.at(-1) === 'color');
    expect(entry.message).toMatch(/#RRGGBB/);
    expect(entry.message).not.toMatch(/\^|\$/);
  });

  it('a missing body says a JSON object is needed; an unknown field is named', async () => {
    const missing = await send('POST', '/v1/collections', undefined);
    expect(missing.json.errors[0].message).toBe('This operation needs a JSON object as its request body.');
    const unknown = await send('POST', '/v1/collections', { name: 'x', privacy: 'public', colour: 'red' });
    expect(unknown.json.errors[0].message).toMatch(/"colour" is not accepted/);
  });

  it('a union failure names the accepted forms', async () => {
    const res = await send('POST', `/v1/itineraries/${itineraryId}/locks`, { parts: 'some' });
    expect(res.json.errors[0].message).toMatch(/"all"/);
    expect(res.json.errors[0].message).not.toMatch(/anyOf/);
  });

  it('validation sentences come in the caller’s language', async () => {
    const res = await send('POST', '/v1/collections', { name: 'x', privacy: 'secret' }, { ...writer(), 'Accept-Language': 'es' });
    expect(res.json.errors[0].message).toBe('Use uno de estos valores: public, private.');
  });
});
