// OpenAPI-driven fuzz test of the real server: for the 50 operations of GET /v1/openapi.json, valid
// requests and typed mutations (wrong types, missing and unknown fields, huge and deep values, control
// characters, non-finite numbers, bad query numbers, foreign and unknown ids, forged and non-canonical
// tokens, odd headers). Every answer must be below 500, every error the spec's envelope with a code that
// matches its status, no certainly-invalid request may get a 2xx, a 2xx must match the declared response
// schema, and no refused request may change the database.
// FUZZ_SEED replays a run; FUZZ_REQUESTS makes it longer (default 3,000, about half a minute here).

import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../data/seeded-random.js';
import { ERRORS } from '../../server/errors.js';
import { type RunningServer, startServer } from '../helpers/server.js';
import { openDigest } from './db-digest.js';
import { type FuzzRequest, type Operation, operationsOf, resolver, type Schema, validRequest } from './generate.js';
import { mutate } from './mutate.js';
import { buildWorld, type World } from './world.js';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default as typeof import('ajv').default;
const addFormats = require('ajv-formats').default as typeof import('ajv-formats').default;

const SEED = Number(process.env.FUZZ_SEED ?? 8_2026);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
/** Operations whose valid form would destroy the world the rest of the run needs; only their mutations run. */
const DESTRUCTIVE = new Set([
  'deleteCollection',
  'deleteItinerary',
  'deleteZone',
  'deleteItinerarySegment',
  'deleteItineraryWaypoint',
  'deleteItinerarySegmentGroup',
  'deleteItineraryLock',
  'postCollectionShareRotate',
  'deleteCollectionShare',
  'postItinerarySegmentMerge',
]);

let server: RunningServer;
let world: World;
let doc: Schema;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  text: string;
}

function send(req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers['Content-Length'] = Buffer.byteLength(req.body);
    const r = httpRequest(`${server.url}${req.path}`, { method: req.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  world = await buildWorld(server);
  doc = JSON.parse((await send({ method: 'GET', path: '/v1/openapi.json', headers: {} })).text);
}, 120_000);
afterAll(async () => {
  agent.destroy();
  await server?.stop();
});

describe('OpenAPI-driven fuzzing', () => {
  it(`${REQUESTS} requests (seed ${SEED}): no 5xx, envelopes with matching codes, no 2xx to invalid input, no change on refusal`, async () => {
    const random = seededRandom(SEED);
    const resolve = resolver(doc);
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats(ajv);
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Schema>))
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    const ops = operationsOf(doc);
    const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
    expect(ops).toHaveLength(50);
    const digest = openDigest(join(server.dataDir, 'platform.db'));
    const failures = new Map<string, string>();
    const kinds = new Map<string, number>();
    const statuses = new Map<number, number>();
    const succeeded = new Set<string>();
    let acceptedChanges = 0;
    const fail = (key: string, detail: () => string) => {
      if (!failures.has(key) && failures.size < 30) failures.set(key, detail());
    };

    for (let n = 0; n < REQUESTS; n++) {
      const op = ops[Math.floor(random() * ops.length)] as Operation;
      const valid = validRequest(op, world, random, resolve);
      const mutation = random() < 0.25 ? undefined : mutate(op, valid, { world, random, resolve });
      // A destructive operation runs only in certainly-refused forms, so the world survives the run.
      if (DESTRUCTIVE.has(op.id) && !mutation?.invalid) continue;
      const req = mutation?.request ?? valid;
      const kind = mutation?.kind ?? 'valid';
      kinds.set(kind.split(' at ')[0] as string, (kinds.get(kind.split(' at ')[0] as string) ?? 0) + 1);
      const before = digest();
      const answer = await send(req);
      const key = `${op.id} · ${kind} · ${answer.status}`;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status < 300) succeeded.add(op.id);
      const detail = () =>
        `${req.method} ${req.path}\n  headers ${JSON.stringify(req.headers).slice(0, 300)}\n  body ${(req.body ?? '').slice(0, 500)}\n  → ${answer.status} ${answer.text.slice(0, 500)}`;

      if (answer.status >= 500) fail(key, detail);
      if (answer.status >= 400) {
        let body: any;
        try {
          body = JSON.parse(answer.text);
        } catch {
          fail(`${key} (not JSON)`, detail);
          continue;
        }
        const entries = body?.errors;
        const envelopeOk =
          Array.isArray(entries) &&
          entries.length > 0 &&
          entries.every(
            (e: any) =>
              typeof e.message === 'string' &&
              e.message.length > 0 &&
              e.extensions?.code in ERRORS &&
              ERRORS[e.extensions.code as keyof typeof ERRORS].status === answer.status,
          );
        if (!envelopeOk) fail(`${key} (envelope)`, detail);
        if (digest() !== before) fail(`${key} (state changed on refusal)`, detail);
      } else if (answer.status >= 200 && answer.status < 300) {
        if (mutation?.invalid) fail(`${key} (2xx to invalid input)`, detail);
        if (op.writes && digest() !== before) acceptedChanges++;
        const declared = op.op.responses?.[String(answer.status)]?.content?.['application/json']?.schema;
        if (declared && answer.text) {
          const schemaKey = `${op.id} ${answer.status}`;
          let check = compiled.get(schemaKey);
          if (!check) compiled.set(schemaKey, (check = ajv.compile(declared)));
          if (!check(JSON.parse(answer.text))) fail(`${key} (response off schema: ${ajv.errorsText(check.errors)})`, detail);
        }
      }
    }
    digest.close();
    console.log(
      `fuzz: ${REQUESTS} requests, seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries(statuses))}; ${succeeded.size} operations answered 2xx; kinds: ${JSON.stringify(Object.fromEntries(kinds))}`,
    );
    // The digest must see what accepted writes change, or "no change on refusal" would prove nothing.
    expect(acceptedChanges, 'accepted writes that changed the digest').toBeGreaterThan(50);
    // The generator must reach the operations for real, or the oracle checks only refusals.
    expect(
      succeeded.size,
      `operations that never answered 2xx: ${ops
        .map((o) => o.id)
        .filter((id) => !succeeded.has(id))
        .join(', ')}`,
    ).toBeGreaterThanOrEqual(30);
    const report = [...failures].map(([k, d]) => `\n● ${k}\n  ${d}`).join('\n');
    expect(failures.size, `seed ${SEED}: ${failures.size} distinct failures${report}`).toBe(0);
  }, 600_000);
});
