// The REST adapter: binds an operation to a method and path. It alone knows HTTP: it assembles the
// operation's input from path parameters, query and body, checking each part as HTTP carries it against the
// part of the operation's declared input (server/core/operation.ts `inputObject`) it comes from, prefixes
// failure paths with `["request","params"|"query"|"body",…]`, and wraps results in the spec's envelope
// with pagination metadata. The operation's declaration (scope, writes, reach) becomes the route's.

import type { TObject, TSchema } from '@sinclair/typebox';
import type { Access } from '../auth/access.js';
import { type Operation, inputPartsOf, type PageResult, type UploadedFile } from '../core/operation.js';
import { derivedOf } from '../../data/deep-freeze.js';
import { ApiError, type ErrorPath } from '../errors.js';
import { operationContext } from './operation-context.js';
import { JSON_CONTENT_TYPE } from './responses.js';
import type { ConflictSchema, HttpMethod, Reply, RequestContext, RouteDef } from './route.js';

type Source = 'params' | 'query' | 'body';

/** How a result becomes a response: the envelope of one resource, a page, 204, or a custom reply. */
export type RestReply<O> = 'one' | 'page' | 'empty' | ((result: O, ctx: RequestContext) => Reply);

export interface RestBinding<O> {
  method: HttpMethod;
  path: string;
  /** In the public OpenAPI document (default true; the management surface is not). */
  public?: boolean;
  /** Required of public operations (the OpenAPI document's summary). */
  summary?: string;
  description?: string;
  /** The route's parts when the operation declares no input made of parts (see `inputObject`); else taken from it. */
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** Input properties read from request headers (lower-case names): a credential an operation checks itself. */
  headers?: Record<string, string>;
  /** The input property that receives the body as an UploadedFile (imports); failures there point at `request.body`. */
  rawBody?: string;
  contentTypes?: string[];
  bodyLimit?: number;
  budgetMs?: number;
  /** Status of a success (default 200; 204 with `reply: 'empty'`). */
  status?: number;
  response?: TSchema;
  conflict?: ConflictSchema;
  reply?: RestReply<O>;
}

const EMPTY_METADATA = Object.freeze({});

/**
 * The envelope of a shared result (a cached view, frozen by `freezeShared`), encoded once and kept in the
 * result's own box: a cached view is sent as the same bytes every time. Other results are encoded per call.
 */
function envelopeOnce(value: object): Uint8Array | undefined {
  const derived = derivedOf(value);
  if (!derived) return undefined;
  let bytes = derived.restEnvelope as Uint8Array | undefined;
  if (bytes === undefined) {
    bytes = Buffer.from(`{"data":${JSON.stringify(value)},"extensions":{"metadata":{}}}`);
    derived.restEnvelope = bytes;
  }
  return bytes;
}

/** `extensions.metadata` of a page. */
export function pageMetadata(page: { limit: number; offset: number }, total: number) {
  return { pagination: { limit: page.limit, offset: page.offset, total } };
}

function propertyNames(schema: TSchema | undefined): string[] {
  return schema && typeof schema.properties === 'object' ? Object.keys(schema.properties as object) : [];
}

function uploadedFile(ctx: RequestContext): UploadedFile {
  const mediaType = (ctx.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return { content: ctx.body, mediaType };
}

/**
 * The route of `operation` at `binding`'s method and path. An operation whose input is made of parts is checked
 * once, by the request pipeline against those parts; the binding then names no parts of its own.
 */
export function rest<I, O>(operation: Operation<I, O>, binding: RestBinding<O>): RouteDef {
  const parts = inputPartsOf(operation.input);
  if (parts && (binding.params || binding.query || binding.body)) {
    throw new TypeError(`operation ${operation.id}: its input declares the request's parts; the REST binding may not`);
  }
  if (parts && (binding.rawBody || binding.headers)) {
    throw new TypeError(`operation ${operation.id}: its input names its file and header fields`);
  }
  if (operation.input && !parts) {
    throw new TypeError(`operation ${operation.id}: a REST route needs an input made of parts (inputObject)`);
  }
  const params = parts ? parts.params : binding.params;
  const query = parts ? parts.query : binding.query;
  const body = parts ? parts.body : binding.body;
  const rawBody = parts ? parts.file : binding.rawBody;
  const headers = parts ? parts.headers : binding.headers;
  // Checked by the pipeline against the very schema the operation declares: not a second time in the operation.
  const call = parts ? operation.runValidated : operation.run;
  const sources = new Map<string, Source>();
  for (const name of propertyNames(query)) sources.set(name, 'query');
  for (const name of propertyNames(params)) sources.set(name, 'params');

  /** An input-relative path as the REST envelope shows it. */
  const restPath = (path: ErrorPath): ErrorPath => {
    const [head, ...rest] = path;
    if (head === undefined || head === rawBody) return ['request', 'body'];
    const source = typeof head === 'string' ? (sources.get(head) ?? 'body') : 'body';
    return ['request', source, head, ...rest];
  };

  const status = binding.status ?? (binding.reply === 'empty' ? 204 : 200);
  const render = (result: O, ctx: RequestContext): Reply => {
    const reply = binding.reply ?? 'one';
    if (typeof reply === 'function') return reply(result, ctx);
    if (reply === 'empty') return { status, json: null };
    if (reply === 'page') {
      const { items, total, page } = result as PageResult<unknown>;
      return { status, json: { data: items, extensions: { metadata: pageMetadata(page, total) } } };
    }
    // A shared result is immutable (a cached view): serialized once, not per request.
    const encoded = typeof result === 'object' && result !== null ? envelopeOnce(result) : undefined;
    if (encoded) return { status, body: encoded, contentType: JSON_CONTENT_TYPE };
    return { status, json: { data: result, extensions: { metadata: EMPTY_METADATA } } };
  };

  const inputOf = (ctx: RequestContext): I => {
    const input: Record<string, unknown> = { ...ctx.query };
    if (rawBody) input[rawBody] = uploadedFile(ctx);
    else if (ctx.body !== null && typeof ctx.body === 'object' && !Array.isArray(ctx.body)) Object.assign(input, ctx.body);
    Object.assign(input, ctx.params);
    for (const [name, header] of Object.entries(headers ?? {})) input[name] = ctx.headers[header];
    return input as I;
  };

  return {
    op: operation.id,
    method: binding.method,
    path: binding.path,
    scope: operation.scope,
    writes: operation.writes,
    share: operation.reach.includes('share'),
    users: operation.reach.includes('user'),
    signedInOnly: operation.reach.every((reach) => reach === 'user' || reach === 'share'),
    public: binding.public ?? true,
    summary: binding.summary,
    description: binding.description,
    params,
    query,
    body,
    contentTypes: binding.contentTypes,
    bodyLimit: binding.bodyLimit,
    budgetMs: binding.budgetMs,
    status,
    response: binding.response,
    conflict: binding.conflict,
    handler: async (ctx) => {
      let result: O;
      try {
        result = await call.call(operation, ctx.access as Access, inputOf(ctx), operationContext(ctx));
      } catch (error) {
        throw error instanceof ApiError ? error.withPaths(restPath) : error;
      }
      return render(result, ctx);
    },
  };
}
