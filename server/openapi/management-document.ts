// Builds the OpenAPI 3.1 document of the management API (/v1/management/…) from the route table: the routes of
// scope `management`, with the same parameters, bodies and error responses as the public document's generator.

import type { RouteDef } from '../http/route.js';
import { ERROR_ENVELOPE } from './components.js';
import {
  declaredErrorStatuses,
  errorResponse,
  LICENSE,
  type OpenApiOptions,
  parametersOf,
  requestBodyOf,
  SECURITY_SCHEMES,
} from './openapi-document.js';
import { type JsonSchema, SchemaRegistry, schemaRef } from './schema-registry.js';

/** Operations that can answer 409: a user already a member, or the organization's last owner. */
const MAY_CONFLICT = new Set(['postManagementMember', 'patchManagementMember', 'deleteManagementMember']);

const TAGS: Record<string, string> = {
  organization: 'Organization',
  settings: 'Settings',
  keys: 'Keys',
  members: 'Members',
  billing: 'Billing',
  usage: 'Usage',
  ai: 'AI',
};

/** Management answers carry `data` alone (no `extensions`). */
const MANAGEMENT_SUCCESS: JsonSchema = {
  type: 'object',
  description: 'Successful management response: `{data}`.',
  required: ['data'],
  properties: { data: {} },
};

const DESCRIPTION =
  'Required scope: management. Call it as a signed-in owner or admin (`Authorization: Bearer usr_…`; name the ' +
  'organization with `organization_id` when you belong to several), or with a publishable key holding the ' +
  '`management` scope together with a session token. Contributors and viewers are refused (403).';

/** Whether a route belongs to the management API (its own document route aside). */
export function isManagementRoute(route: RouteDef): boolean {
  return route.scope === 'management';
}

function operationOf(route: RouteDef, registry: SchemaRegistry): JsonSchema {
  const status = route.status ?? 200;
  const responses: Record<string, JsonSchema> = {
    [String(status)]:
      status === 204
        ? { description: 'Done; no body.' }
        : {
            description: status === 201 ? 'Created.' : 'OK.',
            content: { 'application/json': { schema: schemaRef('ManagementSuccess') } },
          },
  };
  const statuses = new Set(declaredErrorStatuses(route));
  if (MAY_CONFLICT.has(route.op)) statuses.add(409);
  for (const s of [...statuses].sort((a, b) => a - b)) responses[String(s)] = errorResponse(s, route);
  const operation: JsonSchema = {
    operationId: route.op,
    tags: [TAGS[route.path.split('/')[3] ?? ''] ?? 'Organization'],
    summary: route.summary,
    description: route.description ? `${DESCRIPTION}\n\n${route.description}` : DESCRIPTION,
    'x-pkey-scope': route.scope,
    security: [{ ApiKey: [], SessionToken: [] }, { UserToken: [] }],
  };
  const parameters = parametersOf(route, registry);
  if (parameters.length > 0) operation.parameters = parameters;
  const requestBody = requestBodyOf(route, registry);
  if (requestBody) operation.requestBody = requestBody;
  operation.responses = responses;
  return operation;
}

/** The management OpenAPI 3.1 document for `routes` (only those of scope `management` are listed). */
export function buildManagementDocument(routes: readonly RouteDef[], options: OpenApiOptions): JsonSchema {
  const registry = new SchemaRegistry();
  registry.define('ErrorEnvelope', ERROR_ENVELOPE);
  registry.define('ManagementSuccess', MANAGEMENT_SUCCESS);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    if (!isManagementRoute(route)) continue;
    if (!route.summary) throw new TypeError(`openapi: management operation ${route.op} needs a summary`);
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operationOf(route, registry);
  }
  const { ApiKey, SessionToken, UserToken } = SECURITY_SCHEMES;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cairn management API',
      version: options.version ?? '1.0.0',
      license: LICENSE,
      description:
        "An organization's own administration: settings, API keys, members, billing, usage and the agent's model. " +
        'Successful responses are `{data}`; failures use the error envelope. See docs/management.md.',
    },
    servers: [{ url: options.serverUrl }],
    tags: Object.values(TAGS).map((name) => ({ name, description: `${name} of the organization` })),
    paths,
    components: {
      schemas: registry.components,
      securitySchemes: {
        ApiKey: { ...ApiKey, description: 'Publishable key (`pk_…`) with the `management` scope.' },
        SessionToken,
        UserToken,
      },
    },
  };
}
