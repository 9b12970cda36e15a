// Valid requests for the operations of the OpenAPI document: bodies and queries drawn from their JSON
// Schemas (with a seeded PRNG), path ids from the fuzz world, and the credentials the operation declares.

import type { World } from './world.js';

export type Schema = Record<string, any>;

export interface Operation {
  id: string;
  method: string;
  path: string;
  op: Schema;
  /** The JSON request body schema, $refs resolved one level at a time by `resolve`. */
  body?: Schema;
  bodyTypes: string[];
  query: { name: string; schema: Schema; required: boolean }[];
  writes: boolean;
  signedInOnly: boolean;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Raw body text (already serialized), if any. */
  body?: string;
}

export function operationsOf(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const [method, op] of Object.entries(item)) {
      const content = (op.requestBody?.content ?? {}) as Record<string, { schema: Schema }>;
      const params = (op.parameters ?? []) as { name: string; in: string; required: boolean; schema: Schema }[];
      const security = (op.security ?? []) as Record<string, unknown>[];
      ops.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        op,
        body: content['application/json']?.schema,
        bodyTypes: Object.keys(content),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema, required: p.required })),
        writes: method !== 'get',
        signedInOnly: security.length === 1 && 'UserToken' in (security[0] ?? {}),
      });
    }
  }
  return ops;
}

export function resolver(doc: Schema): (s: Schema) => Schema {
  const resolve = (s: Schema): Schema => {
    if (s && typeof s.$ref === 'string') return resolve(doc.components.schemas[s.$ref.split('/').pop() as string]);
    return s;
  };
  return resolve;
}

/** A value valid for `schema` (as far as a generator can tell; cross-field rules may still refuse it). */
export function valueFor(schema: Schema, random: () => number, resolve: (s: Schema) => Schema, ids: string[], name = ''): unknown {
  const s = resolve(schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[Math.floor(random() * s.enum.length)];
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) return valueFor(branches[Math.floor(random() * branches.length)], random, resolve, ids, name);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [key, sub] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
        if (required.has(key) || random() < 0.5) out[key] = valueFor(sub, random, resolve, ids, key);
      }
      return out;
    }
    case 'array': {
      if (name === 'coordinates' || name === 'point' || name === 'to' || name === 'from') return position(name, random);
      const n = Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 1 + Math.floor(random() * 2)));
      return Array.from({ length: n }, () => valueFor(s.items ?? {}, random, resolve, ids, name));
    }
    case 'integer': {
      const lo = s.minimum ?? 0;
      const hi = Math.min(s.maximum ?? lo + 50, lo + 50);
      return lo + Math.floor(random() * (hi - lo + 1));
    }
    case 'number':
      return (s.exclusiveMinimum ?? s.minimum ?? 0) + 1 + random() * 10;
    case 'boolean':
      return random() < 0.5;
    case 'string':
      if (s.format === 'uuid') return ids[Math.floor(random() * ids.length)];
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'email') return 'someone@example.com';
      if (typeof s.pattern === 'string' && s.pattern.startsWith('^#')) return '#1A7F37';
      return `fuzz ${name} ${Math.floor(random() * 1e9)}`.slice(0, s.maxLength ?? 200);
    default:
      return null;
  }
}

/** A [lon, lat] on the demo valley (or a short line of them for `coordinates`). */
function position(name: string, random: () => number): unknown {
  const p = (): [number, number] => [1.55 + random() * 0.03, 42.49 + random() * 0.02];
  return name === 'coordinates' ? [p(), p()] : p();
}

/** Credentials for a valid call of `op` made by organization A's owner. */
export function credentialsFor(op: Operation, world: World): Record<string, string> {
  const scope = op.op['x-pkey-scope'];
  if (scope === 'any') return { 'X-API-Key': world.A.boot.secretKey.key };
  if (op.signedInOnly) return { Authorization: `Bearer ${world.userToken}` };
  const key = { 'X-API-Key': world.A.boot.publishableKey.key, 'X-Session-Token': world.session };
  return op.writes ? { ...key, 'X-User-Id': world.A.boot.owner.id } : key;
}

/** A valid request for `op`: real ids of organization A in the path, a generated query and body. */
export function validRequest(
  op: Operation,
  world: World,
  random: () => number,
  resolve: (s: Schema) => Schema,
): FuzzRequest & { bodyValue?: unknown } {
  const ids = Object.values(world.A.ids);
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => world.A.ids[name] ?? crypto.randomUUID());
  const query = new URLSearchParams();
  for (const q of op.query) {
    if (q.name === 'organization_id' || q.name === 'user_id') continue;
    if (q.required || random() < 0.3) query.set(q.name, String(valueFor(q.schema, random, resolve, ids, q.name)));
  }
  if (op.id === 'postSession') {
    const bodyValue = { publishable_key: world.A.boot.publishableKey.key };
    return {
      method: op.method,
      path,
      headers: { ...credentialsFor(op, world), 'Content-Type': 'application/json' },
      body: JSON.stringify(bodyValue),
      bodyValue,
    };
  }
  const headers = credentialsFor(op, world);
  const qs = query.toString();
  const full = qs ? `${path}?${qs}` : path;
  if (op.bodyTypes.includes('application/gpx+xml')) {
    const points = Array.from({ length: 5 }, (_, i) => `<trkpt lat="${42.5 + i * 1e-3}" lon="${1.56 + i * 1e-3}"/>`).join('');
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="fuzz"><trk><trkseg>${points}</trkseg></trk></gpx>`;
    return {
      method: op.method,
      path: `${path}?name=${encodeURIComponent(`Import ${Math.floor(random() * 1e9)}`)}`,
      headers: { ...headers, 'Content-Type': 'application/gpx+xml' },
      body: gpx,
    };
  }
  if (!op.body) return { method: op.method, path: full, headers };
  const bodyValue = valueFor(op.body, random, resolve, ids);
  return {
    method: op.method,
    path: full,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(bodyValue),
    bodyValue,
  };
}
