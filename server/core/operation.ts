// What an operation is: one transport-free function of (caller, validated input) that returns a domain
// result or throws a typed failure (ApiError) whose paths are relative to its own input. Each operation
// declares its scope, whether it writes and what it may be reached with; that declaration is the one
// source for REST routing, 405 `Allow`, the OpenAPI document and access control. An operation that declares
// its input schema is checked against it on every call (GraphQL, MCP tools, the agent alike); transports
// (server/http/rest.ts, GraphQL, MCP, the agent) add only their own framing.

import { type Evaluate, type TObject, type TOptional, type TProperties, type TSchema, type TString, Type } from '@sinclair/typebox';
import type { Access } from '../auth/access.js';
import { ApiError, type ErrorEntry } from '../errors.js';
import type { RouteScope } from '../http/route.js';
import { compileInputValidator } from '../http/validation.js';
import type { Language } from '../i18n/messages.js';
import type { CancelSignal } from '../../lib/cancel-signal.js';

/**
 * The credentials an operation accepts: a publishable key, a key with a session token, a share link, a
 * signed-in user, or a secret key presented to the operation itself (session minting).
 */
export type Reach = 'key' | 'session' | 'share' | 'user' | 'secret';

/** Studio operations: keys (with or without a session) and signed-in users. */
export const STUDIO_REACH: readonly Reach[] = ['key', 'session', 'user'];
/** Studio reads a share link may also reach. */
export const SHARED_READ_REACH: readonly Reach[] = ['key', 'session', 'user', 'share'];
/** A secret key, checked by the operation itself (session minting). */
export const SECRET_REACH: readonly Reach[] = ['secret'];
/** Only a signed-in user (share-link minting and the like). */
export const SIGNED_IN_REACH: readonly Reach[] = ['user'];

/** What a transport knows about the call besides the caller and the input. */
export interface OperationContext {
  /** Aborted when the caller goes away or the call's time budget is spent (an AbortSignal, or the request's own). */
  signal?: CancelSignal;
  /** The origin the caller reached the server on (absolute links when PUBLIC_*_URL is not set). */
  origin: string;
  /** The caller's language, for sentences an operation writes itself (a file's problems on import). */
  lang: Language;
}

/** A file an operation receives as it was sent (an import): its content and media type. */
export interface UploadedFile {
  /** Bytes, or the parsed document when the transport already parsed JSON. */
  content: unknown;
  /** Lower-cased media type without parameters (`application/gpx+xml`); empty when none was given. */
  mediaType: string;
}

/** What an operation declares (`defineOperation` makes it an Operation). */
export interface OperationDeclaration<I = unknown, O = unknown, S extends TSchema = TSchema> {
  /** The operationId (DESIGN §6): REST operationId, log tag, and later the GraphQL field's and MCP tool's key. */
  readonly id: string;
  readonly scope: RouteScope;
  /** Changes state: needs a writer (X-User-Id with a key), never reachable by a share link. */
  readonly writes: boolean;
  readonly reach: readonly Reach[];
  /**
   * The input's schema (TypeBox, with the validation keywords of server/http/schema-keywords.ts): checked before
   * `run` on every call, whichever transport makes it; failure paths are relative to the input.
   */
  readonly input?: S;
  /** The input's cross-field rules, which a schema cannot state: one entry per broken rule, after the schema passed. */
  refine?(input: I): Omit<ErrorEntry, 'code'>[];
  run(caller: Access, input: I, context: OperationContext): Promise<O>;
}

/** A declared operation: `run` checks the input against the declared schema; `runValidated` trusts it. */
export interface Operation<I = unknown, O = unknown, S extends TSchema = TSchema> extends OperationDeclaration<I, O, S> {
  /**
   * Runs an input the transport has already checked against this operation's `input` itself, part by part (REST,
   * whose path and query arrive as strings): the schema is not checked twice, the cross-field `refine` still is.
   */
  runValidated(caller: Access, input: I, context: OperationContext): Promise<O>;
}

/**
 * The parts an input is made of, named after where a REST request carries them: path parameters, query string,
 * body. Every transport but REST sends the input as one object (`inputObject` merges the parts); REST checks each
 * part as HTTP carries it (strings coerced in the path and query, a body required when declared) and routes
 * failure paths back to it.
 */
export interface InputParts {
  params?: TObject;
  query?: TObject;
  body?: TObject;
  /** The field that receives the body as a file, as it was sent (an import): REST reads no JSON body then. */
  file?: string;
  /** Fields read from request headers (field → lower-case header name): a credential the operation checks itself. */
  headers?: Record<string, string>;
}

/** A file as an operation receives it (see UploadedFile). */
const UploadedFileSchema = Type.Object(
  { content: Type.Unknown(), mediaType: Type.String({ maxLength: 200 }) },
  { additionalProperties: false, description: 'the file as it was sent: its content and media type' },
);

type PropsOf<T> = T extends TObject<infer P> ? P : Record<never, never>;
type FileProps<P extends InputParts> = P['file'] extends string ? { [K in P['file']]: typeof UploadedFileSchema } : Record<never, never>;
type HeaderProps<P extends InputParts> =
  P['headers'] extends Record<string, string> ? { [K in keyof P['headers']]: TOptional<TString> } : Record<never, never>;
type MergedParts<P extends InputParts> = Evaluate<
  PropsOf<P['params']> & PropsOf<P['query']> & PropsOf<P['body']> & FileProps<P> & HeaderProps<P>
>;

const PARTS = Symbol('cairn.inputParts');

/**
 * An operation's input as one object of its parts' fields (the same property objects, so what REST publishes
 * does not change); any other field is refused. A field may live in one part only. Transports that shape their
 * arguments differently (an MCP tool) build theirs from it.
 */
export function inputObject<P extends InputParts>(parts: P): TObject<MergedParts<P>> {
  const properties: TProperties = {};
  for (const part of [parts.params, parts.query, parts.body]) {
    for (const [name, schema] of Object.entries(part?.properties ?? {})) {
      if (name in properties) throw new TypeError(`input field ${name} is declared in two parts`);
      properties[name] = schema;
    }
  }
  if (parts.file !== undefined) {
    if (parts.body) throw new TypeError('an input takes its body as a file or as fields, not both');
    if (parts.file in properties) throw new TypeError(`input field ${parts.file} is declared in two parts`);
    properties[parts.file] = UploadedFileSchema;
  }
  for (const name of Object.keys(parts.headers ?? {})) {
    if (name in properties) throw new TypeError(`input field ${name} is declared in two parts`);
    properties[name] = Type.Optional(Type.String({ maxLength: 8192 }));
  }
  const merged = Type.Object(properties, { additionalProperties: false }) as TObject<MergedParts<P>>;
  Object.defineProperty(merged, PARTS, { value: Object.freeze({ ...parts }), enumerable: false });
  return merged;
}

/** The parts `schema` was made of by `inputObject`, if it was. */
export function inputPartsOf(schema: TSchema | undefined): Readonly<InputParts> | undefined {
  return schema ? ((schema as { [PARTS]?: InputParts })[PARTS] ?? undefined) : undefined;
}

/**
 * Declares an operation (checks the declaration once, at start-up). The declared input schema stays typed on the
 * result, so a transport can publish it (an MCP tool's `inputSchema`).
 */
export function defineOperation<I, O, S extends TSchema = TSchema>(operation: OperationDeclaration<I, O, S>): Operation<I, O, S> {
  if (operation.reach.length === 0) throw new TypeError(`operation ${operation.id}: reach must name at least one credential`);
  if (operation.writes && operation.reach.includes('share')) {
    throw new TypeError(`operation ${operation.id}: a share link never writes, so a write cannot be reached with one`);
  }
  if (operation.refine && !operation.input) throw new TypeError(`operation ${operation.id}: refine needs an input schema`);
  if (!operation.input) return Object.freeze({ ...operation, runValidated: operation.run });
  const check = compileInputValidator(operation.input);
  const { refine, run } = operation;
  const refined = (caller: Access, input: I, context: OperationContext): Promise<O> => {
    const broken = refine?.(input) ?? [];
    if (broken.length > 0) throw ApiError.validation(broken);
    return run.call(operation, caller, input, context);
  };
  return Object.freeze({
    ...operation,
    async run(caller: Access, input: I, context: OperationContext): Promise<O> {
      check(input);
      return refined(caller, input, context);
    },
    async runValidated(caller: Access, input: I, context: OperationContext): Promise<O> {
      return refined(caller, input, context);
    },
  });
}

/** The input schema `operation` declares (a transport publishing it as its own); throws at start-up when it has none. */
export function declaredInput<S extends TSchema>(operation: Operation<never, unknown, S>): S {
  if (!operation.input) throw new TypeError(`operation ${operation.id} declares no input schema`);
  return operation.input;
}

/** A page of a listing, as operations return it (the transport renders the pagination). */
export interface PageResult<T> {
  items: T[];
  total: number;
  page: { limit: number; offset: number };
}
