// Builds the public OpenAPI 3.1 document of the Studio API from the route table: exactly the routes marked
// `public` (postSession and the 49 Studio operations of DESIGN §6), with their scopes, parameters, bodies,
// success responses and declared errors (spec, Errors → Surface rules and Conflict metadata).

import type { TSchema } from '@sinclair/typebox';
import { BODY_METHODS, type RouteDef } from '../http/route.js';
import { CONFLICT_METADATA, ERROR_ENVELOPE, SUCCESS_ENVELOPE } from './components.js';
import { type JsonSchema, SchemaRegistry, schemaRef } from './schema-registry.js';

/**
 * A response schema carrying this keyword maps each media type the success body is served as to its schema
 * (non-JSON replies such as exports); the published document shows that map instead of the schema itself.
 */
export const RESPONSE_CONTENT_TYPES = 'x-content-types';

export interface OpenApiOptions {
  /** Absolute origin of the Studio API ({base_url}). */
  serverUrl: string;
  /** Absolute origin of the session-minting host ({auth_url}) when it differs from serverUrl. */
  authUrl?: string;
  /** The document's `info.version`. */
  version?: string;
}

const JSON_TYPE = 'application/json';

/** Cairn is not published under an open-source licence (package.json: UNLICENSED). */
export const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } as const;
const PATH_PARAM = /\{([A-Za-z0-9_]+)\}/g;

/** Names of a path's `{param}` segments, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((m) => m[1] as string);
}

/** Whether a route takes a JSON body or declared media types (what the document shows as requestBody). */
function hasRequestBody(route: RouteDef): boolean {
  return route.body !== undefined || (route.contentTypes !== undefined && route.contentTypes.length > 0);
}

/** Writes made with a publishable key name the acting member in X-User-Id. */
export function takesUserIdHeader(route: RouteDef): boolean {
  return route.scope === 'resources' && route.writes && !route.signedInOnly;
}

/** The error statuses an operation declares, ascending. */
export function declaredErrorStatuses(route: RouteDef): number[] {
  const statuses = new Set<number>([401, 403, 404, 500, 504]);
  const hasInput =
    pathParameterNames(route.path).length > 0 ||
    route.params !== undefined ||
    route.query !== undefined ||
    hasRequestBody(route) ||
    BODY_METHODS.has(route.method); // a key write without a valid X-User-Id is a 400
  if (hasInput) statuses.add(400);
  if (route.scope === 'resources') statuses.add(402); // PAYMENT_REQUIRED, or CARD_REQUIRED on writes
  if (route.conflict) statuses.add(409);
  if (hasRequestBody(route)) statuses.add(413);
  if (route.scope === 'any') statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'BAD_REQUEST: the request is malformed (body, content type, parameter), or VALIDATION_FAILED entries, one per failed field.',
  401: 'UNAUTHORIZED: credential missing, unreadable, expired, or invalid for this organization (share-token failures are opaque).',
  402: 'PAYMENT_REQUIRED: the organization does not hold the Studio product; CARD_REQUIRED: a write needs a payment method on file.',
  403: 'FORBIDDEN: the credential is valid but not permitted (scope, origin, role, share token on a write).',
  404: 'NOT_FOUND: no resource visible to this credential.',
  409: 'CONFLICT: the write collides with an existing resource; `extensions.metadata` says with which.',
  413: 'PAYLOAD_TOO_LARGE: the body exceeds the operation’s limit.',
  429: 'TOO_MANY_REQUESTS: a per-minute limit is spent (no Retry-After header).',
  500: 'INTERNAL_ERROR: failure on the service’s side (one generic entry).',
  504: 'GATEWAY_TIMEOUT: the request’s time budget expired. Retrying once is appropriate.',
};

export const SECURITY_SCHEMES = {
  ApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'Publishable key (`pk_…`; also accepted as query `publishable_key`). On POST /v1/sessions: the secret key (`sk_…`).',
  },
  SessionToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Session-Token',
    description: 'Session token (`sess_…`, 5 minutes) minted for the publishable key sent beside it; query `session_token`.',
  },
  ShareToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Share-Token',
    description: 'Read-only share token (`share_` + 32 hex); query `share_token`. Reads only, published versions only.',
  },
  UserToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A signed-in user (`Authorization: Bearer usr_…`); no key needed.',
  },
} as const;

function securityOf(route: RouteDef): Record<string, string[]>[] {
  if (route.scope === 'any') return [{ ApiKey: [] }];
  if (route.signedInOnly) return [{ UserToken: [] }];
  const options: Record<string, string[]>[] = [{ ApiKey: [] }, { ApiKey: [], SessionToken: [] }, { UserToken: [] }];
  if (route.share) options.push({ ShareToken: [] });
  return options;
}

function tagOf(route: RouteDef): string {
  const first = route.path.split('/')[2] ?? '';
  if (first === 'sessions') return 'Sessions';
  if (first === 'zones') return 'Zones';
  if (first === 'itineraries') return 'Itineraries';
  return 'Collections'; // collections, and the organization and user collection listings
}

function describe(route: RouteDef): string {
  const first = route.scope === 'any' ? 'Required scope: any scope; authorized by the secret key' : `Required scope: ${route.scope}`;
  const lines = [first];
  if (route.share) lines.push('', 'Share tokens may call it (published versions only).');
  if (route.signedInOnly) lines.push('', 'Signed-in users only: publishable keys and share tokens are refused (403).');
  if (route.description) lines.push('', route.description);
  return lines.join('\n');
}

/** Properties and required names of an object schema (TypeBox Type.Object). */
function objectFields(schema: TSchema | undefined): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const s = (schema ?? {}) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return { properties: s.properties ?? {}, required: new Set(s.required ?? []) };
}

export function parametersOf(route: RouteDef, registry: SchemaRegistry): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  const params = objectFields(route.params);
  for (const name of pathParameterNames(route.path)) {
    const declared = params.properties[name];
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: declared ? registry.convert(declared) : { type: 'string', format: 'uuid' },
    });
  }
  const query = objectFields(route.query);
  for (const [name, schema] of Object.entries(query.properties)) {
    const converted = registry.convert(schema);
    const parameter: JsonSchema = { name, in: 'query', required: query.required.has(name), schema: converted };
    if (typeof schema.description === 'string') parameter.description = schema.description;
    parameters.push(parameter);
  }
  if (takesUserIdHeader(route)) {
    parameters.push({
      name: 'X-User-Id',
      in: 'header',
      required: false,
      description:
        'Required on writes made with a publishable key: a member with role owner, admin or contributor ' +
        '(missing or unparseable: 400; not a writing member: 403). Ignored for signed-in users.',
      schema: { type: 'string', format: 'uuid' },
    });
  }
  return parameters;
}

export function requestBodyOf(route: RouteDef, registry: SchemaRegistry): JsonSchema | undefined {
  if (!hasRequestBody(route)) return undefined;
  const types = route.contentTypes ?? [JSON_TYPE];
  const content: Record<string, JsonSchema> = {};
  for (const type of types) {
    const jsonLike = type === JSON_TYPE || type.endsWith('+json');
    let schema: JsonSchema;
    if (route.body && jsonLike) schema = registry.convert(route.body);
    else if (jsonLike) schema = { type: 'object' };
    else if (type.startsWith('text/') || type.endsWith('xml')) schema = { type: 'string' };
    else schema = { type: 'string', format: 'binary' }; // archives and octet streams are bytes, not text
    content[type] = { schema };
  }
  const body: JsonSchema = { required: true, content };
  if (route.bodyLimit !== undefined) body.description = `At most ${route.bodyLimit} bytes (413 beyond).`;
  return body;
}

function successOf(route: RouteDef, registry: SchemaRegistry): [string, JsonSchema] {
  const status = route.status ?? 200;
  if (status === 204) return ['204', { description: 'Done; no body.' }];
  let content: Record<string, JsonSchema> = { [JSON_TYPE]: { schema: schemaRef('SuccessEnvelope') } };
  if (route.response) {
    const byType = (route.response as unknown as JsonSchema)[RESPONSE_CONTENT_TYPES];
    if (byType !== null && typeof byType === 'object') {
      content = Object.fromEntries(
        Object.entries(byType as Record<string, JsonSchema>).map(([type, s]) => [type, { schema: registry.convert(s) }]),
      );
    } else {
      content = { [JSON_TYPE]: { schema: registry.convert(route.response) } };
    }
  }
  return [String(status), { description: status === 201 ? 'Created.' : 'OK.', content }];
}

export function errorResponse(status: number, route: RouteDef): JsonSchema {
  let schema: JsonSchema = schemaRef('ErrorEnvelope');
  if (status === 409 && route.conflict) {
    schema = {
      allOf: [
        schemaRef('ErrorEnvelope'),
        {
          type: 'object',
          required: ['extensions'],
          properties: {
            extensions: {
              type: 'object',
              required: ['metadata'],
              properties: { metadata: schemaRef(route.conflict) },
            },
          },
        },
      ],
    };
  }
  return { description: ERROR_DESCRIPTIONS[status] ?? 'Error.', content: { [JSON_TYPE]: { schema } } };
}

function operationOf(route: RouteDef, registry: SchemaRegistry, options: OpenApiOptions): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  const [successStatus, success] = successOf(route, registry);
  responses[successStatus] = success;
  for (const status of declaredErrorStatuses(route)) responses[String(status)] = errorResponse(status, route);
  const operation: JsonSchema = {
    operationId: route.op,
    tags: [tagOf(route)],
    summary: route.summary,
    description: describe(route),
    'x-pkey-scope': route.scope,
    security: securityOf(route),
  };
  const parameters = parametersOf(route, registry);
  if (parameters.length > 0) operation.parameters = parameters;
  const requestBody = requestBodyOf(route, registry);
  if (requestBody) operation.requestBody = requestBody;
  operation.responses = responses;
  if (route.scope === 'any' && options.authUrl && options.authUrl !== options.serverUrl) {
    operation.servers = [{ url: options.authUrl, description: 'Session-minting host ({auth_url})' }];
  }
  return operation;
}

/** The public OpenAPI 3.1 document for `routes` (only those marked `public` are listed). */
export function buildOpenApiDocument(routes: readonly RouteDef[], options: OpenApiOptions): JsonSchema {
  const registry = new SchemaRegistry();
  registry.define('ErrorEnvelope', ERROR_ENVELOPE);
  registry.define('SuccessEnvelope', SUCCESS_ENVELOPE);
  for (const [name, schema] of Object.entries(CONFLICT_METADATA)) registry.define(name, schema);

  const paths: Record<string, Record<string, JsonSchema>> = {};
  const seen = new Set<string>();
  for (const route of routes) {
    if (!route.public) continue;
    if (seen.has(route.op)) throw new TypeError(`openapi: operationId ${route.op} used twice`);
    if (!route.summary) throw new TypeError(`openapi: public operation ${route.op} needs a summary`);
    seen.add(route.op);
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operationOf(route, registry, options);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Cairn Studio API',
      version: options.version ?? '1.0.0',
      license: LICENSE,
      description:
        'The public Studio API: itineraries, segments, waypoints, segment groups, zones, collections and ' +
        'sessions. Every operation states the scope it requires (`x-pkey-scope` and the first line of its ' +
        'description). Successful responses are `{data, extensions: {metadata}}`; failures use the error envelope.',
    },
    servers: [{ url: options.serverUrl }],
    tags: [
      { name: 'Sessions', description: 'Minting session tokens with a secret key' },
      { name: 'Collections', description: 'Collections and their contents, share links' },
      { name: 'Itineraries', description: 'Itineraries, segments, waypoints, segment groups, locks, import and export' },
      { name: 'Zones', description: 'Zones' },
    ],
    paths,
    components: { schemas: registry.components, securitySchemes: SECURITY_SCHEMES },
  };
}
