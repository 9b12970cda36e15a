// The request lifecycle, independent of the socket library:
// match → (preflight) → authenticate → read body → parse → validate → handler → serialize → log.
// Each step fails with its own code; the whole run sits under the request time budget.

import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import { ApiError, isServerError } from '../errors.js';
import { negotiateLanguage } from '../i18n/accept-language.js';
import type { Language } from '../i18n/messages.js';
import type { Logger } from '../logger.js';
import { preflightHeaders, simpleCorsHeaders } from './cors.js';
import { asApiError, renderError } from './envelope.js';
import { BODY_METHODS, type HttpMethod, type Reply, type RequestContext, type RouteDef } from './route.js';
import type { Router } from './router.js';
import { compileValidator, type Validator } from './validation.js';

/** A request as copied off the socket before any asynchronous work. */
export interface IncomingRequest {
  method: string; // upper-case
  path: string;
  query: string; // raw, without "?"
  headers: Record<string, string>; // lower-case names
  remoteAddress: string;
}

export interface OutgoingResponse {
  status: number;
  headers: [string, string][];
  body: string | Uint8Array;
  /** Close the connection after this response (e.g. a body over the limit still arriving). */
  closeConnection?: boolean;
  /** HEAD: headers and Content-Length only. */
  omitBody?: boolean;
}

/** Starts reading the request body with a byte limit; must be called before the first await. */
export type StartBody = (limit: number) => Promise<Buffer>;

/** Credentials carried in the query string; reserved names, never filters (spec, Credentials). */
export const RESERVED_QUERY_NAMES = ['publishable_key', 'session_token', 'share_token', 'auth_token'] as const;

/** Runs after matching, before the body is parsed; throws ApiError to refuse. Filled by the access layer. */
export type Authenticate = (
  route: RouteDef,
  request: IncomingRequest,
  credentials: Partial<Record<(typeof RESERVED_QUERY_NAMES)[number], string>>,
) => unknown | Promise<unknown>;

export interface PipelineDeps {
  router: Router;
  config: Config;
  logger: Logger;
  authenticate?: Authenticate;
}

interface CompiledRoute {
  params?: Validator;
  query?: Validator;
  body?: Validator;
  contentTypes: Set<string>;
  bodyLimit: number;
  status: number;
}

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK', 201: '201 Created', 202: '202 Accepted', 204: '204 No Content', 304: '304 Not Modified',
  400: '400 Bad Request', 401: '401 Unauthorized', 402: '402 Payment Required', 403: '403 Forbidden',
  404: '404 Not Found', 405: '405 Method Not Allowed', 409: '409 Conflict', 413: '413 Payload Too Large',
  429: '429 Too Many Requests', 500: '500 Internal Server Error', 501: '501 Not Implemented',
  502: '502 Bad Gateway', 503: '503 Service Unavailable', 504: '504 Gateway Timeout',
};

/** Status line text for a status code. */
export function statusLine(status: number): string {
  return STATUS_TEXT[status] ?? String(status);
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const JSON_TYPE = 'application/json';
const TIMED_OUT = Symbol('timed-out');

export type Handle = (
  request: IncomingRequest,
  startBody: StartBody,
  controller: AbortController,
) => Promise<OutgoingResponse>;

export function createPipeline(deps: PipelineDeps): Handle {
  const { router, config, logger } = deps;
  const compiled = new Map<RouteDef, CompiledRoute>();
  for (const route of router.routes) {
    compiled.set(route, {
      params: route.params ? compileValidator(route.params, 'params') : undefined,
      query: route.query ? compileValidator(route.query, 'query') : undefined,
      body: route.body ? compileValidator(route.body, 'body') : undefined,
      contentTypes: new Set(route.contentTypes ?? [JSON_TYPE]),
      bodyLimit: route.bodyLimit ?? config.bodyLimit,
      status: route.status ?? 200,
    });
  }

  return function handle(request, startBody, controller) {
    const started = performance.now();
    const incomingId = request.headers['x-request-id'];
    const requestId = incomingId && REQUEST_ID.test(incomingId) ? incomingId : randomUUID();
    const lang = negotiateLanguage(request.headers['accept-language']);
    const origin = request.headers.origin;

    const finish = (response: OutgoingResponse, routeLabel: string): OutgoingResponse => {
      response.headers.push(['X-Request-Id', requestId]);
      if (origin && !response.headers.some(([k]) => k === 'Access-Control-Allow-Origin')) {
        response.headers.push(...simpleCorsHeaders(origin));
      }
      if (request.method === 'HEAD') response.omitBody = true;
      logger.request({
        method: request.method,
        route: routeLabel,
        status: response.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        requestId,
      });
      return response;
    };
    const fail = (error: ApiError, routeLabel: string, extra: [string, string][] = []) =>
      finish(errorResponse(error, lang, extra), routeLabel);

    // Preflight and plain OPTIONS are answered for every known path.
    if (request.method === 'OPTIONS') {
      const allow = router.allowedMethods(request.path);
      if (!allow) return Promise.resolve(fail(new ApiError('NOT_FOUND'), '(unmatched)'));
      const headers: [string, string][] =
        origin && request.headers['access-control-request-method']
          ? preflightHeaders(origin, allow)
          : [['Allow', allow]];
      return Promise.resolve(finish({ status: 204, headers, body: '' }, '(options)'));
    }

    const match = router.match(request.method, request.path);
    if (match.kind === 'not-found') return Promise.resolve(fail(new ApiError('NOT_FOUND'), '(unmatched)'));
    if (match.kind === 'method-not-allowed') {
      return Promise.resolve(fail(new ApiError('METHOD_NOT_ALLOWED'), '(method)', [['Allow', match.allow]]));
    }
    const { route, params } = match;
    const spec = compiled.get(route) as CompiledRoute;

    // The body must start streaming now (uWS delivers it only to a handler attached synchronously).
    let bodyPromise: Promise<Buffer> | undefined;
    let bodyTooLarge = false;
    if (BODY_METHODS.has(route.method)) {
      const declared = Number(request.headers['content-length'] ?? '0');
      if (Number.isFinite(declared) && declared > spec.bodyLimit) {
        bodyTooLarge = true;
      } else {
        bodyPromise = startBody(spec.bodyLimit);
        // Attach a no-op catch: a rejection is handled when awaited, or ignored if the run ended first.
        bodyPromise.catch(() => undefined);
      }
    }

    const run = async (): Promise<OutgoingResponse> => {
      const { query, credentials } = parseQuery(request.query);
      const access = deps.authenticate ? await deps.authenticate(route, request, credentials) : { kind: 'none' };
      if (bodyTooLarge) throw tooLarge(spec.bodyLimit);
      let body: unknown;
      if (bodyPromise) body = parseBody(await bodyPromise, request.headers['content-type'], spec);
      spec.params?.(params, lang);
      spec.query?.(query, lang);
      spec.body?.(body, lang);
      const ctx: RequestContext = {
        method: route.method,
        route: route.path,
        op: route.op,
        params,
        query,
        body,
        headers: request.headers,
        requestId,
        lang,
        remoteAddress: request.remoteAddress,
        signal: controller.signal,
        access,
      };
      return replyToResponse(await route.handler(ctx), spec.status);
    };

    const budgetMs = config.requestBudgetMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(resolve, budgetMs, TIMED_OUT);
    });
    const work = run().catch((thrown: unknown) => {
      const error = asApiError(thrown);
      if (error.code === 'INTERNAL_ERROR') {
        logger.error('unhandled error', {
          requestId,
          op: route.op,
          error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
        });
      }
      return errorResponse(error, lang, [], error.code === 'PAYLOAD_TOO_LARGE');
    });
    return Promise.race([work, timeout]).then((outcome) => {
      clearTimeout(timer);
      const overran = performance.now() - started > budgetMs;
      if (outcome === TIMED_OUT || (overran && isServerError(outcome.status))) {
        controller.abort(new ApiError('GATEWAY_TIMEOUT'));
        return fail(new ApiError('GATEWAY_TIMEOUT'), route.path);
      }
      return finish(outcome, route.path);
    });
  };
}

function tooLarge(limit: number): ApiError {
  return ApiError.withMessage('PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', { limit });
}

function errorResponse(
  error: ApiError,
  lang: Language,
  extra: [string, string][],
  closeConnection = false,
): OutgoingResponse {
  const rendered = renderError(error, lang);
  const headers: [string, string][] = [['Content-Type', 'application/json; charset=utf-8'], ...extra];
  return { status: rendered.status, headers, body: rendered.body, closeConnection };
}

function replyToResponse(reply: Reply, defaultStatus: number): OutgoingResponse {
  const headers: [string, string][] = [];
  if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) headers.push([k, v]);
  const status = reply.status ?? defaultStatus;
  if ('json' in reply) {
    headers.push(['Content-Type', 'application/json; charset=utf-8']);
    return { status, headers, body: status === 204 ? '' : JSON.stringify(reply.json) };
  }
  headers.push(['Content-Type', reply.contentType]);
  return { status, headers, body: reply.body };
}

/** Splits the query into application parameters and the reserved credential names. */
function parseQuery(raw: string): {
  query: Record<string, string | string[]>;
  credentials: Partial<Record<(typeof RESERVED_QUERY_NAMES)[number], string>>;
} {
  const query: Record<string, string | string[]> = {};
  const credentials: Partial<Record<(typeof RESERVED_QUERY_NAMES)[number], string>> = {};
  if (!raw) return { query, credentials };
  for (const [key, value] of new URLSearchParams(raw)) {
    if ((RESERVED_QUERY_NAMES as readonly string[]).includes(key)) {
      credentials[key as (typeof RESERVED_QUERY_NAMES)[number]] ??= value;
      continue;
    }
    const prior = query[key];
    if (prior === undefined) query[key] = value;
    else query[key] = Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return { query, credentials };
}

/** Checks the content type and parses JSON bodies; other declared types pass through as a Buffer. */
function parseBody(raw: Buffer, contentTypeHeader: string | undefined, spec: CompiledRoute): unknown {
  // An empty body is "no body": the route's schema (if any) decides whether that is acceptable.
  if (raw.length === 0) return undefined;
  const mediaType = (contentTypeHeader ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!spec.contentTypes.has(mediaType)) {
    throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.content_type', {
      expected: [...spec.contentTypes].join(', '),
    });
  }
  if (mediaType !== JSON_TYPE) return raw;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.invalid_json');
  }
}

export type { HttpMethod };
