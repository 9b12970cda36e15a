// Validation-only keywords of Cairn's input schemas, beside JSON Schema's own: what a plain schema cannot
// say well about positions (a longitude and a latitude each in their range, in one tuple that may carry an
// elevation) and the sentence a field's failure reads as. They are compiled into the validators
// (server/http/validation.ts) and left out of every published schema (OpenAPI, MCP tool list): `publicSchema`.

import type { FuncKeywordDefinition } from 'ajv';

/**
 * `lonLat` on an array schema: its numbers are degrees in range. Checked only on a well-formed value (an array
 * of numbers whose length the schema allows), so a wrong shape gets its own sentence and not two.
 * - `each`: one failure per coordinate out of range, at `[…, 0]` (longitude) or `[…, 1]` (latitude);
 * - `box`: `[west, south, east, north]` with west ≤ east and south ≤ north, one failure at the box itself;
 * - `whole`: one failure at the position itself.
 * A failure at the value itself reads as the schema's `messageKey`, if any.
 */
export type LonLatCheck = 'each' | 'box' | 'whole';

/** Keywords the validators know and published documents leave out. */
export const VALIDATION_ONLY_KEYWORDS = ['lonLat', 'messageKey'] as const;

const LIMITS = [180, 90] as const;

/** Where the value is (Ajv passes it to a keyword's function). */
type DataValidationCxt = { instancePath: string };
type Schema = { minItems?: number; maxItems?: number; messageKey?: string };
type KeywordError = { keyword: string; instancePath: string; params: Record<string, unknown>; parentSchema: Schema };

/** The indexes of `values` out of range: even indexes are longitudes, odd ones latitudes. */
function outOfRange(values: readonly number[]): number[] {
  const bad: number[] = [];
  for (let i = 0; i < values.length && i < (values.length === 4 ? 4 : 2); i++) {
    if (!(Math.abs(values[i]!) <= LIMITS[i % 2]!)) bad.push(i);
  }
  return bad;
}

function wellFormed(data: unknown, schema: Schema): data is number[] {
  if (!Array.isArray(data) || !data.every((v) => typeof v === 'number')) return false;
  return data.length >= (schema.minItems ?? 0) && data.length <= (schema.maxItems ?? Number.POSITIVE_INFINITY);
}

function lonLatValidate(check: LonLatCheck, data: unknown, parentSchema?: Schema, cxt?: DataValidationCxt): boolean {
  const schema = parentSchema ?? {};
  if (!wellFormed(data, schema)) return true;
  const bad = outOfRange(data);
  if (check === 'box' && (data[0]! > data[2]! || data[1]! > data[3]!)) bad.push(-1);
  if (bad.length === 0) return true;
  const at = cxt?.instancePath ?? '';
  const errors: KeywordError[] =
    check === 'each'
      ? bad.map((i) => ({
          keyword: 'lonLat',
          instancePath: `${at}/${i}`,
          params: { messageKey: i % 2 === 0 ? 'VALIDATION_FAILED.longitude' : 'VALIDATION_FAILED.latitude' },
          parentSchema: schema,
        }))
      : [{ keyword: 'lonLat', instancePath: at, params: { messageKey: schema.messageKey }, parentSchema: schema }];
  (lonLatValidate as { errors?: KeywordError[] }).errors = errors;
  return false;
}

/** The keyword definitions an Ajv instance adds (strict mode refuses keywords it does not know). */
export const SCHEMA_KEYWORDS: FuncKeywordDefinition[] = [
  {
    keyword: 'lonLat',
    type: 'array',
    schemaType: 'string',
    errors: 'full',
    validate: lonLatValidate as FuncKeywordDefinition['validate'],
  },
  // An annotation: the sentence of a failure at this value (read by the validators' message table).
  { keyword: 'messageKey', schemaType: 'string' },
];

/** `schema` without the validation-only keywords, at every depth: what a published document shows. */
export function publicSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(publicSchema) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((VALIDATION_ONLY_KEYWORDS as readonly string[]).includes(key)) continue;
    out[key] = publicSchema(value);
  }
  return out as T;
}
