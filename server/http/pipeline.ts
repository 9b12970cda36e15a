// The request lifecycle, independent of the socket library:
// framing → match → (preflight) → authenticate → read body → decompress → parse → validate → handler →
// serialize → log.
// Each step fails with its own code; the whole run sits under the request time budget.
//
// Hot-path notes: a request whose steps all complete synchronously (no body, sync access check, sync
// handler) is answered without allocating a promise, a timer or an AbortController; only requests that
// go asynchronous register a deadline with the shared sweeper.

import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { ApiError, isServerError } from '../errors.js';
import { negotiateLanguage } from '../i18n/accept-language.js';
import type { Language } from '../i18n/messages.js';
import { containsCredential, type Logger } from '../logger.js';
import { bodyDecoder } from './body-encoding.js';
import { checkedSession } from './checked-socket.js';
import { preflightHeaders, simpleCorsHeaders } from './cors.js';
import { DeadlineSweeper } from './deadlines.js';
import { asApiError } from './envelope.js';
import { framingRefusal } from './framing.js';
import type { RequestAbort } from './request-abort.js';
import { parseBody, parseQueryInto, type QueryCredentials } from './request-body.js';
import type { SocketSession } from './sockets.js';
import { acceptsHtml, errorResponse, htmlErrorResponse, type Refusal, refusalResponse, replyToResponse, tooLarge } from './responses.js';
import { BODY_METHODS, type HttpMethod, type RequestContext, type RouteDef } from './route.js';
import type { Router } from './router.js';
import { compileValidator, type Validator } from './validation.js';
import type { CancelSignal } from '../../lib/cancel-signal.js';

/** A request as copied off the socket before any asynchronous work. */
export interface IncomingRequest {
  method: string; // upper-case
  path: string;
  query: string; // raw, without "?"
  headers: Record<string, string>; // lower-case names
  /** The client address (may be computed on first read). */
  readonly remoteAddress: string;
  /** Set by the adapter when its parser refused the request (version, head size, Host): answered first. */
  refusal?: Refusal;
  /**
   * Set by an adapter that can complete a WebSocket handshake only before its callback returns (uWebSockets.js): a
   * WebSocket route's checks that need an await then run once the socket is open (checked-socket.ts).
   */
  upgradeInCallback?: boolean;
}

export interface OutgoingResponse {
  status: number;
  headers: [string, string][];
  body: string | Uint8Array;
  /** Close the connection after this response (e.g. a body over the limit still arriving). */
  closeConnection?: boolean;
  /** HEAD: headers and Content-Length only. */
  omitBody?: boolean;
  /** The handler accepted a WebSocket upgrade: the adapter completes the handshake and drives this session. */
  upgrade?: SocketSession;
  /** A body written as it comes (after the status and headers), then the response ends; `body` is empty. */
  stream?: AsyncIterable<string>;
}

/** Starts reading the request body with a byte limit; must be called before the first await. */
export type StartBody = (limit: number) => Promise<Buffer>;

/** Runs after matching, before the body is parsed; throws ApiError to refuse. Filled by the access layer. */
export type Authenticate = (route: RouteDef, request: IncomingRequest, credentials: QueryCredentials) => unknown;

export interface PipelineDeps {
  router: Router;
  config: Config;
  logger: Logger;
  authenticate?: Authenticate;
}

export type Handle = (request: IncomingRequest, startBody: StartBody, abort: RequestAbort) => OutgoingResponse | Promise<OutgoingResponse>;

interface CompiledRoute {
  params?: Validator;
  query?: Validator;
  body?: Validator;
  contentTypes: Set<string>;
  bodyLimit: number;
  budgetMs: number;
  status: number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const JSON_TYPE = 'application/json';
const NO_ACCESS = Object.freeze({ kind: 'none' });
/** Shared empties for requests without path parameters or a query (nothing writes into them). */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_CREDENTIALS: QueryCredentials = Object.freeze({});

// Request ids: a random prefix per process and a counter. Unique, cheap, and not a secret.
const ID_PREFIX = randomBytes(6).toString('base64url');
let idCounter = 0;
function nextRequestId(): string {
  idCounter++;
  return `${ID_PREFIX}-${idCounter.toString(36)}`;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** What a handler sees; `signal` is a getter so the AbortController exists only when asked for. */
class Context implements RequestContext {
  constructor(
    readonly method: HttpMethod,
    readonly route: string,
    readonly op: string,
    readonly params: Record<string, string>,
    readonly query: Record<string, unknown>,
    readonly body: unknown,
    readonly headers: Record<string, string>,
    readonly requestId: string,
    readonly lang: Language,
    private readonly request: IncomingRequest,
    private readonly abortState: RequestAbort,
    readonly access: unknown,
  ) {}

  get remoteAddress(): string {
    return this.request.remoteAddress;
  }

  get signal(): AbortSignal {
    return this.abortState.signal;
  }

  get cancel(): CancelSignal {
    return this.abortState;
  }
}

export function createPipeline(deps: PipelineDeps): Handle {
  const { router, config, logger } = deps;
  const authenticate = deps.authenticate;
  const sweeper = new DeadlineSweeper();
  const compiled = new Map<RouteDef, CompiledRoute>();
  for (const route of router.routes) {
    compiled.set(route, {
      params: route.params ? compileValidator(route.params, 'params') : undefined,
      query: route.query ? compileValidator(route.query, 'query') : undefined,
      body: route.body ? compileValidator(route.body, 'body') : undefined,
      contentTypes: new Set(route.contentTypes ?? [JSON_TYPE]),
      bodyLimit: route.bodyLimit ?? config.bodyLimit,
      budgetMs: route.budgetMs ?? config.requestBudgetMs,
      status: route.status ?? 200,
    });
  }

  /** One request in flight: its state, and the steps as methods (no closures allocated per request). */
  class Exchange {
    label = '(unmatched)';
    route: RouteDef | undefined;
    spec: CompiledRoute | undefined;
    params: Record<string, string> = NO_PARAMS;
    bodyPromise: Promise<Buffer> | undefined;
    bodyTooLarge = false;
    query: Record<string, string | string[]> = NO_PARAMS;

    constructor(
      readonly request: IncomingRequest,
      readonly abort: RequestAbort,
      readonly started: number,
      readonly requestId: string,
      readonly lang: Language,
    ) {}

    finish(response: OutgoingResponse): OutgoingResponse {
      response.headers.push(['X-Request-Id', this.requestId]);
      const origin = this.request.headers.origin;
      if (origin && !response.headers.some(([k]) => k === 'Access-Control-Allow-Origin')) {
        response.headers.push(...simpleCorsHeaders(origin));
      }
      if (this.request.method === 'HEAD') response.omitBody = true;
      logger.request(this.request.method, this.label, response.status, performance.now() - this.started, this.requestId);
      return response;
    }

    budgetMs(): number {
      return this.spec?.budgetMs ?? config.requestBudgetMs;
    }

    fail(error: ApiError, extra?: [string, string][]): OutgoingResponse {
      return this.finish(errorResponse(error, this.lang, extra));
    }

    /** Any thrown value as a response; unexpected ones are logged with the request id. */
    failure(thrown: unknown): OutgoingResponse {
      const error = asApiError(thrown);
      if (error.code === 'INTERNAL_ERROR') {
        logger.error('unhandled error', {
          requestId: this.requestId,
          op: this.route?.op,
          error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
        });
      }
      if (this.route?.htmlErrors && acceptsHtml(this.request.headers.accept)) return htmlErrorResponse(error, this.lang);
      const closeConnection = error.code === 'PAYLOAD_TOO_LARGE';
      const own = this.route?.errorReply?.(error, this.lang);
      if (own) return { ...replyToResponse(own, error.status), closeConnection };
      return errorResponse(error, this.lang, undefined, closeConnection);
    }

    /** Steps from authentication on; synchronous until one of them returns a promise. */
    execute(): OutgoingResponse | Promise<OutgoingResponse> {
      const route = this.route as RouteDef;
      // A fresh query object only when something may be written into it (parameters, schema defaults).
      const raw = this.request.query;
      if (raw || this.spec?.query) this.query = {};
      const credentials = raw ? parseQueryInto(raw, this.query) : NO_CREDENTIALS;
      const access = authenticate ? authenticate(route, this.request, credentials) : NO_ACCESS;
      if (!isPromise(access)) return this.afterAuth(access);
      if (this.handshakeNow()) {
        // The handshake is answered before the stores are read: a malformed query is still refused over HTTP.
        access.catch(() => undefined); // refused here, the access check's own outcome is nobody's
        const spec = this.spec as CompiledRoute;
        spec.params?.(this.params, this.lang);
        spec.query?.(this.query, this.lang);
      }
      return access.then((a) => this.afterAuth(a));
    }

    /** A WebSocket handshake the adapter can complete only before its callback returns (uNetworking/uWebSockets#1928). */
    handshakeNow(): boolean {
      return this.route?.websocket === true && this.request.upgradeInCallback === true && !!this.request.headers['sec-websocket-key'];
    }

    /**
     * Completes the handshake now: the socket opens and hears the pipeline's outcome (the route's session, or a
     * refusal as a close code) once the checks that need an await ran. Logged then, with that outcome.
     */
    handshakeFirst(outcome: Promise<OutgoingResponse>): OutgoingResponse {
      return { status: 101, headers: [], body: '', upgrade: checkedSession(this.await(outcome), this.abort) };
    }

    afterAuth(access: unknown): OutgoingResponse | Promise<OutgoingResponse> {
      const spec = this.spec as CompiledRoute;
      if (this.bodyTooLarge) throw tooLarge(spec.bodyLimit);
      if (this.bodyPromise) {
        const decode = bodyDecoder(this.request.headers['content-encoding']);
        const body = decode ? this.bodyPromise.then((raw) => decode(raw, spec.bodyLimit)) : this.bodyPromise;
        return body.then((raw) => this.afterBody(access, parseBody(raw, this.request.headers['content-type'], spec.contentTypes)));
      }
      return this.afterBody(access, undefined);
    }

    afterBody(access: unknown, body: unknown): OutgoingResponse | Promise<OutgoingResponse> {
      const route = this.route as RouteDef;
      const spec = this.spec as CompiledRoute;
      spec.params?.(this.params, this.lang);
      spec.query?.(this.query, this.lang);
      spec.body?.(body, this.lang);
      const ctx = new Context(
        route.method,
        route.path,
        route.op,
        this.params,
        this.query,
        body,
        this.request.headers,
        this.requestId,
        this.lang,
        this.request,
        this.abort,
        access,
      );
      const reply = route.handler(ctx);
      if (isPromise(reply)) return reply.then((r) => replyToResponse(r, spec.status));
      return replyToResponse(reply, spec.status);
    }

    /** A 5xx produced after the budget is spent is restated as 504; a 4xx never is. */
    settle(response: OutgoingResponse): OutgoingResponse {
      if (isServerError(response.status) && performance.now() - this.started > this.budgetMs()) {
        this.abort.abort(new ApiError('GATEWAY_TIMEOUT'));
        return this.fail(new ApiError('GATEWAY_TIMEOUT'));
      }
      return this.finish(response);
    }

    /** Waits for an asynchronous outcome, racing it against the request's deadline. */
    await(outcome: Promise<OutgoingResponse>): Promise<OutgoingResponse> {
      return new Promise((resolve) => {
        let settled = false;
        const deadline = {
          at: this.started + this.budgetMs(),
          expire: () => {
            if (settled) return;
            settled = true;
            this.abort.abort(new ApiError('GATEWAY_TIMEOUT'));
            resolve(this.fail(new ApiError('GATEWAY_TIMEOUT')));
          },
        };
        sweeper.add(deadline);
        outcome
          .then(undefined, (thrown: unknown) => this.failure(thrown))
          .then((response) => {
            if (settled) return;
            settled = true;
            sweeper.delete(deadline);
            resolve(this.settle(response));
          });
      });
    }
  }

  return function handle(request, startBody, abort) {
    const started = performance.now();
    const headers = request.headers;
    const incomingId = headers['x-request-id'];
    // An incoming id is echoed when it is plain, and never when it looks like a credential (it is logged).
    const requestId =
      incomingId !== undefined && REQUEST_ID.test(incomingId) && !containsCredential(incomingId) ? incomingId : nextRequestId();
    const ex = new Exchange(request, abort, started, requestId, negotiateLanguage(headers['accept-language']));

    const refusal = request.refusal ?? framingRefusal(headers);
    if (refusal) {
      ex.label = '(refused)';
      return ex.finish(refusalResponse(refusal, ex.lang));
    }

    // Preflight and plain OPTIONS are answered for every known path.
    if (request.method === 'OPTIONS') {
      const allow = router.allowedMethods(request.path);
      if (!allow) return ex.fail(new ApiError('NOT_FOUND'));
      ex.label = '(options)';
      const origin = headers.origin;
      const answer: [string, string][] =
        origin && headers['access-control-request-method'] ? preflightHeaders(origin, allow) : [['Allow', allow]];
      return ex.finish({ status: 204, headers: answer, body: '' });
    }

    const match = router.match(request.method, request.path);
    if (match.kind === 'not-found') return ex.fail(new ApiError('NOT_FOUND'));
    if (match.kind === 'method-not-allowed') {
      ex.label = '(method)';
      return ex.fail(new ApiError('METHOD_NOT_ALLOWED'), [['Allow', match.allow]]);
    }
    const route = match.route;
    const spec = compiled.get(route) as CompiledRoute;
    ex.route = route;
    ex.spec = spec;
    ex.params = match.params;
    ex.label = route.path;

    // The body must start streaming now (uWS delivers it only to a handler attached synchronously).
    if (BODY_METHODS.has(route.method)) {
      const declared = Number(headers['content-length'] ?? '0');
      if (Number.isFinite(declared) && declared > spec.bodyLimit) {
        ex.bodyTooLarge = true;
      } else {
        ex.bodyPromise = startBody(spec.bodyLimit);
        // A rejection is handled when awaited, or ignored if the run ended first.
        ex.bodyPromise.catch(() => undefined);
      }
    }

    let outcome: OutgoingResponse | Promise<OutgoingResponse>;
    try {
      outcome = ex.execute();
    } catch (thrown) {
      outcome = ex.failure(thrown);
    }
    if (!isPromise(outcome)) return ex.settle(outcome);
    return ex.handshakeNow() ? ex.handshakeFirst(outcome) : ex.await(outcome);
  };
}

export type { HttpMethod };
