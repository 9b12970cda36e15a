// Pagination of Studio listings (DESIGN §6): query `limit` 1–100 (default 20) and `offset` ≥ 0, answered as
// `extensions.metadata.pagination {limit, offset, total}`. Offsets stop at MAX_OFFSET.

import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Deepest page a listing serves; past it, narrow the listing instead (SQLite takes 64-bit offsets only). */
export const MAX_OFFSET = 1_000_000;

/** The query properties every paginated listing accepts. */
export const PageQueryProperties = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
};

/** A listing's query schema: the page parameters plus `extra`; anything else is a 400. */
export function pageQuery<T extends TProperties = Record<never, never>>(extra: T = {} as T) {
  return Type.Object({ ...PageQueryProperties, ...extra }, { additionalProperties: false });
}

/** The plain page query (no other parameter). */
export const PageQuery = pageQuery();

/** Validated page parameters (Ajv filled the defaults). */
export interface Page {
  limit: number;
  offset: number;
}

export const Pagination = Type.Object(
  { limit: Type.Integer(), offset: Type.Integer(), total: Type.Integer() },
  { additionalProperties: false },
);

/** The page a validated query asks for (defaults again here so handlers never depend on Ajv's). */
export function pageOf(query: { limit?: number; offset?: number }): Page {
  return { limit: query.limit ?? DEFAULT_LIMIT, offset: query.offset ?? 0 };
}

/** `extensions.metadata` of a page. */
export function pageMetadata(page: Page, total: number) {
  return { pagination: { limit: page.limit, offset: page.offset, total } };
}

/** The response of a plain paginated listing of `item`. */
export function listResponse(item: TSchema): TObject {
  return Type.Object({
    data: Type.Array(item),
    extensions: Type.Object({ metadata: Type.Object({ pagination: Pagination }) }),
  });
}

/** The response of a single resource. */
export function itemResponse(item: TSchema): TObject {
  return Type.Object({ data: item, extensions: Type.Object({ metadata: Type.Object({}) }) });
}
