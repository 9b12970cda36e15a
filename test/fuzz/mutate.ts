// Typed mutations of a valid request: what a hostile client sends. Each says whether the result is
// certainly invalid (then no 2xx may answer it) or merely odd (then only the envelope rules apply).

import { tamperings } from '../helpers/token-tampering.js';
import type { FuzzRequest, Operation, Schema } from './generate.js';
import type { World } from './world.js';

export interface Mutation {
  kind: string;
  request: FuzzRequest;
  invalid: boolean;
}

type Valid = FuzzRequest & { bodyValue?: unknown };
type Mutator = (
  op: Operation,
  valid: Valid,
  ctx: { world: World; random: () => number; resolve: (s: Schema) => Schema },
) => Mutation | undefined;

const CONTROL = ['\u0000', '\u0001', '\u001b', '\u007f', '\u0085', '\u2028', '\ud800'];

/** The body's object schema and a property to aim at (optionally one with a given trait). */
function target(
  op: Operation,
  valid: Valid,
  resolve: (s: Schema) => Schema,
  random: () => number,
  accept: (s: Schema) => boolean = () => true,
) {
  if (!op.body || typeof valid.bodyValue !== 'object' || valid.bodyValue === null || Array.isArray(valid.bodyValue)) return undefined;
  const schema = resolve(op.body);
  const entries = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(([, s]) => accept(resolve(s)));
  if (entries.length === 0) return undefined;
  const [name, sub] = entries[Math.floor(random() * entries.length)] as [string, Schema];
  return { schema, name, sub: resolve(sub), body: { ...(valid.bodyValue as Record<string, unknown>) } };
}

const withBody = (valid: Valid, body: unknown): FuzzRequest => ({ ...valid, body: typeof body === 'string' ? body : JSON.stringify(body) });
const typeOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type);

const MUTATORS: Mutator[] = [
  function wrongType(op, valid, { random, resolve }) {
    const t = target(op, valid, resolve, random, (s) => typeOf(s) !== undefined && !s.anyOf);
    if (!t) return undefined;
    const type = typeOf(t.sub);
    t.body[t.name] = type === 'string' ? 12345 : type === 'array' ? { not: 'a list' } : type === 'object' ? 'a string' : 'not a number';
    return { kind: `wrong type at ${t.name}`, request: withBody(valid, t.body), invalid: true };
  },
  function missingRequired(op, valid, { random, resolve }) {
    const t = target(op, valid, resolve, random);
    const required: string[] = t?.schema.required ?? [];
    if (!t || required.length === 0) return undefined;
    const name = required[Math.floor(random() * required.length)] as string;
    delete t.body[name];
    return { kind: `missing ${name}`, request: withBody(valid, t.body), invalid: true };
  },
  function unknownField(op, valid, { random, resolve }) {
    const t = target(op, valid, resolve, random);
    if (!t) return undefined;
    t.body.__proto_pollution__ = { admin: true };
    return { kind: 'unknown field', request: withBody(valid, t.body), invalid: true };
  },
  function hugeString(op, valid, { random, resolve }) {
    const t = target(op, valid, resolve, random, (s) => typeOf(s) === 'string');
    if (!t) return undefined;
    t.body[t.name] = 'x'.repeat(100_000);
    return { kind: `100 KB string at ${t.name}`, request: withBody(valid, t.body), invalid: true };
  },
  function hugeArray(op, valid, { random, resolve }) {
    const t = target(op, valid, resolve, random, (s) => typeOf(s) === 'array');
    if (!t) return undefined;
    t.body[t.name] = Array.from({ length: 20_000 }, () => [0]);
    return { kind: `20,000 items at ${t.name}`, request: withBody(valid, t.body), invalid: true };
  },
  function deepNesting(op, valid) {
    if (!op.body) return undefined;
    return { kind: 'nesting depth 10,000', request: withBody(valid, `${'['.repeat(10_000)}${']'.repeat(10_000)}`), invalid: true };
  },
  function controlCharacters(op, valid, { random, resolve }) {
    const t = target(
      op,
      valid,
      resolve,
      random,
      (s) => typeOf(s) === 'string' && (typeof s.pattern === 'string' || typeof s.format === 'string'),
    );
    if (!t) return undefined;
    const c = CONTROL[Math.floor(random() * CONTROL.length)] as string;
    t.body[t.name] = `a${c}b`;
    return {
      kind: `control character U+${c.charCodeAt(0).toString(16).padStart(4, '0')} at ${t.name}`,
      request: withBody(valid, t.body),
      invalid: true,
    };
  },
  function nonFiniteNumber(op, valid, { random, resolve }) {
    const t = target(op, valid, resolve, random, (s) => typeOf(s) === 'number' || typeOf(s) === 'integer');
    if (!t) return undefined;
    t.body[t.name] = 0.5;
    const text = JSON.stringify(t.body).replace(`"${t.name}":0.5`, `"${t.name}":${random() < 0.5 ? '1e309' : '-1e309'}`);
    return { kind: `1e309 at ${t.name}`, request: withBody(valid, text), invalid: true };
  },
  function bareNaN(op, valid) {
    if (!op.body) return undefined;
    return { kind: 'NaN token (not JSON)', request: withBody(valid, '{"value": NaN}'), invalid: true };
  },
  function badPagination(op, valid, { random }) {
    if (!op.query.some((q) => q.name === 'limit')) return undefined;
    const bad = ['limit=1e309', 'limit=Infinity', 'offset=9223372036854775807', 'limit=0x10', 'offset=1e19', 'limit=-1', 'limit=%00'];
    const pick = bad[Math.floor(random() * bad.length)] as string;
    return { kind: `query ${pick}`, request: { ...valid, path: `${valid.path.split('?')[0]}?${pick}` }, invalid: true };
  },
  function notAUuid(op, valid, { world }) {
    const param = Object.keys(world.A.ids).find((name) => op.path.includes(`{${name}}`));
    if (!param) return undefined;
    return {
      kind: `non-uuid ${param}`,
      request: { ...valid, path: valid.path.replace(world.A.ids[param] as string, 'not-a-uuid%00') },
      invalid: true,
    };
  },
  function randomUuid(op, valid, { world }) {
    const param = Object.keys(world.A.ids).find(
      (name) => op.path.includes(`{${name}}`) && name !== 'organization_id' && name !== 'user_id',
    );
    if (!param) return undefined;
    return {
      kind: `unknown ${param}`,
      request: { ...valid, path: valid.path.replace(world.A.ids[param] as string, crypto.randomUUID()) },
      invalid: true,
    };
  },
  function foreignId(op, valid, { world }) {
    if (!op.writes) return undefined; // B's public resources are readable by any key; writes never are
    const param = Object.keys(world.A.ids).find((name) => op.path.includes(`{${name}}`) && name !== 'user_id');
    if (!param) return undefined;
    return {
      kind: `foreign ${param}`,
      request: { ...valid, path: valid.path.replace(world.A.ids[param] as string, world.B.ids[param] as string) },
      invalid: true,
    };
  },
  function forgedSession(_op, valid, { world, random }) {
    if (!valid.headers['X-Session-Token']) return undefined;
    const forms = Object.entries(tamperings(world.session)).filter(([name]) => name !== 'space appended');
    const [name, token] = forms[Math.floor(random() * forms.length)] as [string, string];
    return {
      kind: `session token with ${name}`,
      request: { ...valid, headers: { ...valid.headers, 'X-Session-Token': token } },
      invalid: true,
    };
  },
  function forgedUserToken(_op, valid, { world, random }) {
    if (!valid.headers.Authorization) return undefined;
    const forms = Object.entries(tamperings(world.userToken)).filter(([name]) => name !== 'space appended');
    const [name, token] = forms[Math.floor(random() * forms.length)] as [string, string];
    return {
      kind: `user token with ${name}`,
      request: { ...valid, headers: { ...valid.headers, Authorization: `Bearer ${token}` } },
      invalid: true,
    };
  },
  function shareTokenForms(_op, valid, { world, random }) {
    const forms = [
      world.shareToken.toUpperCase(),
      world.shareToken.replace('share_', 'SHARE_'),
      `${world.shareToken}0`,
      ` ${world.shareToken}x`,
    ];
    const token = forms[Math.floor(random() * forms.length)] as string;
    return {
      kind: 'non-canonical share token',
      request: { method: valid.method, path: valid.path, headers: { 'X-Share-Token': token }, body: valid.body },
      invalid: true,
    };
  },
  function userIdForms(_op, valid, { world, random }) {
    if (!valid.headers['X-User-Id']) return undefined;
    const forms: [string, string][] = [
      ['not-a-uuid', 'junk'],
      ['', 'empty'],
      [world.viewerId, 'viewer'],
      [crypto.randomUUID(), 'stranger'],
      [world.B.boot.owner.id, 'foreign owner'],
    ];
    const [value, label] = forms[Math.floor(random() * forms.length)] as [string, string];
    const headers: Record<string, string> = { ...valid.headers, 'X-User-Id': value };
    delete headers['X-Session-Token'];
    return { kind: `X-User-Id ${label}`, request: { ...valid, headers }, invalid: true };
  },
  function wrongContentType(op, valid, { random }) {
    if (!valid.body) return undefined;
    const type = ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'][
      Math.floor(random() * 4)
    ] as string;
    if (op.bodyTypes.includes(type.split(';')[0] as string)) return undefined;
    return { kind: `Content-Type ${type}`, request: { ...valid, headers: { ...valid.headers, 'Content-Type': type } }, invalid: true };
  },
  function emptyBody(op, valid) {
    if (!op.body || !(op.op.requestBody?.required ?? false)) return undefined;
    return {
      kind: 'empty body',
      request: { ...valid, body: undefined },
      invalid: valid.bodyValue !== undefined && Object.keys(valid.bodyValue as object).length > 0,
    };
  },
  function oddHeaders(_op, valid, { random }) {
    const headers: Record<string, string> = {
      ...valid.headers,
      'Accept-Language': ';;q=x, *-*, zz;q=2',
      'X-Request-Id': 'sess_secret\u0000'.slice(0, 11),
      'X-Junk': 'y'.repeat(8000),
    };
    if (valid.body && random() < 0.5) headers['Content-Type'] = 'application/json; charset=latin1';
    return { kind: 'odd headers', request: { ...valid, headers }, invalid: false };
  },
  function bodyOnRead(op, valid) {
    if (op.method !== 'GET') return undefined;
    return {
      kind: 'body on GET',
      request: { ...valid, headers: { ...valid.headers, 'Content-Type': 'application/json' }, body: '{"x":1}' },
      invalid: false,
    };
  },
];

/** One mutation of `valid`, or undefined when the drawn mutator does not apply to this operation. */
export function mutate(op: Operation, valid: Valid, ctx: Parameters<Mutator>[2]): Mutation | undefined {
  const mutator = MUTATORS[Math.floor(ctx.random() * MUTATORS.length)] as Mutator;
  return mutator(op, valid, ctx);
}
