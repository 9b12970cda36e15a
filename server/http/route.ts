// What a route is: data (method, path, schemas, scope, limits) plus a small handler.
// The route table built from these is the single source for dispatch, 405 `Allow` and the OpenAPI document.

import type { TSchema } from '@sinclair/typebox';
import type { ApiError } from '../errors.js';
import type { Language } from '../i18n/messages.js';
import type { SocketSession } from './sockets.js';
import type { CancelSignal } from '../../lib/cancel-signal.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** Surface scopes of the spec, `any` for the session-minting call, `public` for unauthenticated documents. */
export type RouteScope = 'embedding' | 'tiles' | 'resources' | 'data' | 'mcp' | 'management' | 'any' | 'public';

export interface RequestContext<P = Record<string, string>, Q = Record<string, unknown>, B = unknown, A = unknown> {
  method: HttpMethod;
  /** The route pattern that matched, e.g. `/v1/itineraries/{itinerary_id}` (safe to log). */
  route: string;
  op: string;
  params: P;
  query: Q;
  body: B;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  requestId: string;
  lang: Language;
  remoteAddress: string;
  /** Aborted when the client goes away or the time budget is spent (an AbortController, made when first read). */
  signal: AbortSignal;
  /** The same cancellation without an AbortController: what operations and the pool listen to. */
  cancel: CancelSignal;
  /** Who is calling, as decided by the access layer (`{ kind: 'none' }` on public routes). */
  access: A;
}

/** Extra response headers: an object, or name/value pairs (pairs can be built once and reused). */
export type ReplyHeaders = Record<string, string> | readonly (readonly [string, string])[];

/** What a handler returns: a JSON value to serialize, bytes with their content type, a stream, or an accepted WebSocket. */
export type Reply =
  | { status?: number; headers?: ReplyHeaders; json: unknown }
  | { status?: number; headers?: ReplyHeaders; body: Uint8Array | string; contentType: string }
  | { status?: undefined; headers?: undefined; upgrade: SocketSession }
  /** Text written as it comes (server-sent events); the iterator is told to stop (`return()`) when the client goes. */
  | { status?: number; headers?: ReplyHeaders; contentType: string; stream: AsyncIterable<string> };

/** The 409 metadata schemas of the spec (Errors → Conflict metadata). */
export type ConflictSchema =
  | 'ResponseMetadataPostItinerary'
  | 'ResponseMetadataPatchItinerary'
  | 'ResponseMetadataPostCollection'
  | 'ResponseMetadataPatchCollection'
  | 'ResponseMetadataLockConflict';

export interface RouteDef {
  /** The operationId (DESIGN §6): the log tag and the OpenAPI operationId. */
  op: string;
  method: HttpMethod;
  /** Path pattern with `{name}` parameters, as written in the OpenAPI document. */
  path: string;
  scope: RouteScope;
  /** Changes state (an operation's declaration): needs a writer, and share links are refused with 403. */
  writes: boolean;
  summary?: string;
  /** In the public OpenAPI document (the 50 Studio operations). */
  public?: boolean;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** Accepted request content types (default `application/json`). */
  contentTypes?: string[];
  /** Maximum request body in bytes (default: config.bodyLimit, 1 MiB). */
  bodyLimit?: number;
  /** Time budget of this operation in ms (default: config.requestBudgetMs); imports of large files need more. */
  budgetMs?: number;
  /** Status of a successful reply when the handler does not set one. */
  status?: number;
  /** Schema of the successful response body (the OpenAPI document's 2xx). */
  response?: TSchema;
  /** The 409 this operation may answer, by the name of its metadata schema. */
  conflict?: ConflictSchema;
  /** Longer description for the OpenAPI document (the `Required scope:` line is added from `scope`). */
  description?: string;
  /** Accepts share tokens (read-only Studio reads, tiles, embed); from the operation's reach. */
  share?: boolean;
  /** A page a browser navigates to (the embed): its errors are a small HTML page when the request accepts HTML. */
  htmlErrors?: boolean;
  /**
   * An endpoint of a protocol with its own error form (OAuth, JSON-RPC): the pipeline's refusals of this route
   * (content type, JSON, body size…) in that form, or undefined to answer the spec's envelope.
   */
  errorReply?: (error: ApiError, lang: Language) => Reply | undefined;
  /** Accepts signed-in users (`Authorization: Bearer usr_…`) beside keys; from the operation's reach. */
  users?: boolean;
  /**
   * A browser opens it where it cannot set headers (the live channel's WebSocket): the user token may come as the
   * reserved query parameter `auth_token`.
   */
  userTokenInQuery?: boolean;
  /** Answers a WebSocket handshake with a session (`Reply` { upgrade }). */
  websocket?: boolean;
  /** Only a signed-in user (`Authorization: Bearer usr_…`) may call it (share-link minting and the like); from the operation's reach. */
  signedInOnly?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: each handler takes the context its own schemas validated; the table holds them all
  handler: (ctx: RequestContext<any, any, any>) => Reply | Promise<Reply>;
}

export const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
