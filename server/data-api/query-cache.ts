// The compiled-query cache: each distinct document is parsed, validated, measured against the depth and cost
// limits and compiled by graphql-jit once, keyed by its text, and kept in a bounded LRU. A hit does none of
// that work. A refused document is cached too (as its refusal), so resending it costs a lookup as well.
// graphql-jit compiles one operation at a time: a document's entry holds one compiled query per operation
// name it was asked for.

import { type DocumentNode, type GraphQLError, type GraphQLSchema, Kind, parse, validate } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { ApiError } from '../errors.js';
import { validationEntry } from './graphql-errors.js';
import { LIST_FACTOR, measureDocument, type QueryLimits } from './query-limits.js';

type Entry = { refused: ApiError } | { document: DocumentNode; compiled: Map<string, CompiledQuery> };

export interface QueryCacheOptions extends QueryLimits {
  /** Most documents kept; the least recently used goes first. */
  maxEntries: number;
  /**
   * Most characters of document text kept across all entries (default 8 Mi): many distinct large documents
   * (a body may be 1 MiB) must not hold hundreds of megabytes.
   */
  maxChars?: number;
  /** Most tokens a document may hold before parsing stops (a bound on parse work for huge documents). */
  maxTokens: number;
}

/** A document ready to run: its compiled operation, and the parsed document (to explain refused variables). */
export interface PreparedQuery {
  compiled: CompiledQuery;
  document: DocumentNode;
}

const DEFAULT_MAX_CHARS = 8 * 1024 * 1024;

/** Key of the operation a request runs when it names none (a document with one operation). */
const UNNAMED = '';

export class QueryCache {
  private readonly entries = new Map<string, Entry>();
  /** Characters of the keys in `entries`. */
  private chars = 0;
  /** Parses, validations and compilations done (tests check that a hit does none). */
  readonly stats = { parses: 0, compiles: 0, hits: 0 };

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly options: QueryCacheOptions,
  ) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1)
      throw new TypeError('graphql.maxEntries must be a positive integer');
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The compiled query for `text` and `operationName`, or the ApiError refusing it: 400 BAD_REQUEST when the
   * text does not parse or names no runnable operation, 400 VALIDATION_FAILED when it does not fit the schema
   * or passes a limit (one entry per problem).
   */
  get(text: string, operationName: string | undefined): PreparedQuery {
    let entry = this.entries.get(text);
    if (entry) {
      this.stats.hits++;
      // Map order is insertion order: re-inserting makes this the most recently used.
      this.entries.delete(text);
      this.entries.set(text, entry);
    } else {
      entry = this.prepare(text);
      this.entries.set(text, entry);
      this.chars += text.length;
      const maxChars = this.options.maxChars ?? DEFAULT_MAX_CHARS;
      // Evict the least recently used until both bounds hold (the newest entry stays, whatever its size).
      while (this.entries.size > 1 && (this.entries.size > this.options.maxEntries || this.chars > maxChars)) {
        const oldest = this.entries.keys().next().value as string;
        this.entries.delete(oldest);
        this.chars -= oldest.length;
      }
    }
    if ('refused' in entry) throw entry.refused;
    const key = operationName ?? UNNAMED;
    let compiled: CompiledQuery | ApiError | undefined = entry.compiled.get(key);
    if (!compiled) {
      compiled = this.compile(entry.document, operationName);
      // Only real operations are kept: names that pick none would let one document grow without bound.
      if (!(compiled instanceof ApiError)) entry.compiled.set(key, compiled);
    }
    if (compiled instanceof ApiError) throw compiled;
    return { compiled, document: entry.document };
  }

  private prepare(text: string): Entry {
    this.stats.parses++;
    let document: DocumentNode;
    try {
      document = parse(text, { maxTokens: this.options.maxTokens, noLocation: false });
    } catch (error) {
      const at = (error as GraphQLError).locations?.[0];
      return {
        refused: ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.graphql_syntax', { line: at?.line ?? 1, column: at?.column ?? 1 }),
      };
    }
    const errors = validate(this.schema, document, undefined, { maxErrors: 50 });
    if (errors.length > 0) return { refused: ApiError.validation(errors.map(validationEntry)) };
    // graphql-js 16 validates nothing below a root type the schema lacks: say so before compiling.
    const unsupported = unsupportedOperations(this.schema, document);
    if (unsupported.length > 0) {
      return {
        refused: ApiError.validation(
          unsupported.map((operation) => ({ messageKey: 'VALIDATION_FAILED.graphql_operation_type', messageParams: { operation } })),
        ),
      };
    }
    const { depth, cost } = measureDocument(this.schema, document);
    const refusals = [];
    if (depth > this.options.maxDepth) {
      refusals.push({ messageKey: 'VALIDATION_FAILED.graphql_depth', messageParams: { depth, limit: this.options.maxDepth } });
    }
    if (cost > this.options.maxCost) {
      refusals.push({
        messageKey: 'VALIDATION_FAILED.graphql_cost',
        messageParams: { cost, limit: this.options.maxCost, listFactor: LIST_FACTOR },
      });
    }
    if (refusals.length > 0) return { refused: ApiError.validation(refusals) };
    return { document, compiled: new Map() };
  }

  /** The compiled operation, or the refusal of a name that picks none. */
  private compile(document: DocumentNode, operationName: string | undefined): CompiledQuery | ApiError {
    this.stats.compiles++;
    const compiled = compileQuery(this.schema, document, operationName);
    if (isCompiledQuery(compiled)) return compiled;
    // The document is valid, so what fails here is the choice of operation.
    return operationName === undefined
      ? ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.graphql_pick_operation')
      : ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.graphql_unknown_operation', { name: operationName });
  }
}

/** The operation types (`mutation`, `subscription`) the document uses and the schema has no root type for. */
function unsupportedOperations(schema: GraphQLSchema, document: DocumentNode): string[] {
  const missing = new Set<string>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION && !schema.getRootType(definition.operation)) missing.add(definition.operation);
  }
  return [...missing];
}
