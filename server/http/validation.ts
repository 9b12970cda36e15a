// Compiles each route's JSON Schemas once (Ajv) and turns failures into one entry per field, each with a
// message key that says what to send instead (sentences in server/i18n/messages.ts).

import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { ApiError, type ErrorEntry, MAX_ERROR_ENTRIES } from '../errors.js';
import type { Language } from '../i18n/messages.js';
import { SCHEMA_KEYWORDS } from './schema-keywords.js';
import { patternMessageKey } from './schema-types.js';

// Ajv and ajv-formats are CommonJS; createRequire avoids default-export interop differences.
const require = createRequire(import.meta.url);
const Ajv = require('ajv').default as typeof import('ajv').default;
const addFormats = require('ajv-formats').default as typeof import('ajv-formats').default;

export type Location = 'body' | 'params' | 'query';

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    allErrors: true, // one entry per failed validation, as the spec asks (capped when rendered)
    coerceTypes: coerce, // query and path values arrive as strings
    useDefaults: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    verbose: true, // failures carry the failing value and schema, which the sentences need
  });
  addFormats(ajv);
  for (const keyword of SCHEMA_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

const bodyAjv = makeAjv(false);
const stringAjv = makeAjv(true);

export type Validator = (value: unknown, lang: Language) => void;

/** A query or path number written the one plain way: Ajv's coercion would also take `1e309`, `0x10`, ` 5`. */
const CANONICAL_NUMBER: Record<'integer' | 'number', RegExp> = {
  integer: /^-?(0|[1-9]\d{0,14})$/,
  number: /^-?(0|[1-9]\d{0,14})(\.\d{1,15})?$/,
};

/** Compiles `schema` for `location`; the returned function throws a 400 ApiError listing the failures. */
export function compileValidator(schema: TSchema, location: Location): Validator {
  const validate: ValidateFunction = (location === 'body' ? bodyAjv : stringAjv).compile(schema);
  const numeric = location === 'body' ? [] : numericProperties(schema);
  return (value) => {
    const early = numeric.length > 0 ? nonCanonicalNumbers(value, numeric, location) : [];
    if (validate(value) && early.length === 0) return;
    const { entries, omitted } = toEntries(validate.errors ?? [], location);
    const reported = new Set(early.map((e) => JSON.stringify(e.path)));
    throw ApiError.validation([...early, ...entries.filter((e) => !reported.has(JSON.stringify(e.path)))], omitted);
  };
}

/**
 * Compiles an operation's input schema (server/core/operation.ts): the same checks and sentences as a request
 * body, with failure paths relative to the input; each transport adds its own prefix.
 */
export function compileInputValidator(schema: TSchema): (value: unknown) => void {
  const validate = compileValidator(schema, 'body');
  return (value) => {
    try {
      validate(value, 'en');
    } catch (error) {
      throw error instanceof ApiError ? error.withPaths((path) => path.slice(2)) : error;
    }
  };
}

function numericProperties(schema: TSchema): [string, 'integer' | 'number', TSchema][] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, s]) => s.type === 'integer' || s.type === 'number')
    .map(([name, s]) => [name, s.type as 'integer' | 'number', s]);
}

function nonCanonicalNumbers(
  value: unknown,
  numeric: [string, 'integer' | 'number', TSchema][],
  location: Location,
): Omit<ErrorEntry, 'code'>[] {
  const entries: Omit<ErrorEntry, 'code'>[] = [];
  const record = (value ?? {}) as Record<string, unknown>;
  for (const [name, type, schema] of numeric) {
    const raw = record[name];
    if (typeof raw !== 'string' || CANONICAL_NUMBER[type].test(raw)) continue;
    entries.push({ path: ['request', location, name], ...rangeSentence(type, schema) });
  }
  return entries;
}

/** "Use a whole number from 1 to 100." and its variants, from the schema's bounds. */
function rangeSentence(type: 'integer' | 'number', schema: TSchema): Pick<ErrorEntry, 'messageKey' | 'messageParams'> {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  const kind = type === 'integer' ? 'integer' : 'number';
  if (minimum !== undefined && maximum !== undefined) {
    return { messageKey: `VALIDATION_FAILED.${kind}_between`, messageParams: { min: minimum, max: maximum } };
  }
  if (minimum !== undefined) return { messageKey: `VALIDATION_FAILED.${kind}_from`, messageParams: { min: minimum } };
  return { messageKey: `VALIDATION_FAILED.${kind}` };
}

/** An integer schema, or an integer-or-null one (an input field GraphQL may send as null). */
function allowsInteger(schema: TSchema | undefined): boolean {
  const type = schema?.type;
  return type === 'integer' || (Array.isArray(type) && type[0] === 'integer');
}

const EXAMPLE_FORMATS = new Set(['uuid', 'date-time', 'date', 'email', 'uri']);

/** Failures about a child of the value (its sentence is the child's, not the value's own `messageKey`). */
const ABOUT_A_CHILD = new Set(['required', 'additionalProperties']);

/** The message key and parameters of one Ajv failure: the schema's own `messageKey` when it names one. */
function sentenceOf(error: ErrorObject): Pick<ErrorEntry, 'messageKey' | 'messageParams'> {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'lonLat') return { messageKey: typeof params.messageKey === 'string' ? params.messageKey : 'VALIDATION_FAILED' };
  const own = (error.parentSchema as { messageKey?: unknown } | undefined)?.messageKey;
  if (typeof own === 'string' && !ABOUT_A_CHILD.has(error.keyword)) return { messageKey: own };
  switch (error.keyword) {
    case 'required':
      return { messageKey: 'VALIDATION_FAILED.required' };
    case 'additionalProperties':
      return { messageKey: 'VALIDATION_FAILED.unknown_field', messageParams: { name: String(params.additionalProperty) } };
    case 'type':
      if (error.instancePath === '' && error.data === undefined) return { messageKey: 'VALIDATION_FAILED.body_required' };
      if (params.type === 'integer' || params.type === 'number') return rangeSentence(params.type, error.parentSchema as TSchema);
      return { messageKey: `VALIDATION_FAILED.type_${String(params.type).split(',')[0]}` };
    case 'enum':
      return { messageKey: 'VALIDATION_FAILED.enum', messageParams: { values: (params.allowedValues as unknown[]).join(', ') } };
    case 'const':
      return { messageKey: 'VALIDATION_FAILED.const', messageParams: { value: JSON.stringify(params.allowedValue) } };
    case 'pattern':
      return { messageKey: patternMessageKey(String(params.pattern)) ?? 'VALIDATION_FAILED.pattern' };
    case 'format':
      return EXAMPLE_FORMATS.has(String(params.format))
        ? { messageKey: `VALIDATION_FAILED.format_${String(params.format).replace('-', '_')}` }
        : { messageKey: 'VALIDATION_FAILED' };
    case 'minimum':
    case 'maximum':
      if (allowsInteger(error.parentSchema as TSchema | undefined)) return rangeSentence('integer', error.parentSchema as TSchema);
      return { messageKey: `VALIDATION_FAILED.${error.keyword}`, messageParams: { limit: Number(params.limit) } };
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { messageKey: `VALIDATION_FAILED.${error.keyword}`, messageParams: { limit: Number(params.limit) } };
    case 'minLength':
    case 'minItems':
      // "at least 1 characters" reads wrong in every language: a limit of one has its own sentence.
      if (Number(params.limit) === 1) return { messageKey: `VALIDATION_FAILED.${error.keyword}_one` };
      return { messageKey: `VALIDATION_FAILED.${error.keyword}`, messageParams: { limit: Number(params.limit) } };
    case 'maxLength':
    case 'maxItems':
      return { messageKey: `VALIDATION_FAILED.${error.keyword}`, messageParams: { limit: Number(params.limit) } };
    case 'anyOf':
    case 'oneOf':
      return { messageKey: 'VALIDATION_FAILED.any_of', messageParams: { forms: describeForms(error.schema) } };
    case 'uniqueItems':
      return { messageKey: 'VALIDATION_FAILED.unique_items' };
    default:
      return { messageKey: 'VALIDATION_FAILED' };
  }
}

/** The accepted shapes of a union, for its sentence: `a list`, `"all"`, `a number`… in JSON terms. */
function describeForms(branches: unknown): string {
  if (!Array.isArray(branches)) return '';
  return branches
    .map((b: { const?: unknown; enum?: unknown[]; type?: unknown }) => {
      if (b.const !== undefined) return JSON.stringify(b.const);
      if (Array.isArray(b.enum)) return b.enum.map((v) => JSON.stringify(v)).join(', ');
      return String(b.type ?? 'value');
    })
    .join(' | ');
}

/**
 * Maps Ajv errors to envelope entries with paths `["request", location, ...]`. Only the first entries are
 * built (see MAX_ERROR_ENTRIES); the rest are counted, so a body with thousands of bad values stays cheap.
 */
export function toEntries(errors: ErrorObject[], location: Location): { entries: Omit<ErrorEntry, 'code'>[]; omitted: number } {
  // anyOf/oneOf report every failed branch and then a summary; keep only the summary for that value.
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  const seen = new Set<string>();
  const entries: Omit<ErrorEntry, 'code'>[] = [];
  let omitted = 0;
  for (const error of errors) {
    if (unions.size > 0 && unions.has(error.instancePath) && /\/(anyOf|oneOf)\/\d+\//.test(error.schemaPath)) continue;
    const path: (string | number)[] = ['request', location, ...pointerToPath(error.instancePath)];
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      path.push(params.missingProperty);
    } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      path.push(params.additionalProperty);
    }
    // One entry per field: a value failing two rules (too short and blank) gets the first sentence.
    const key = path.join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    if (entries.length >= MAX_ERROR_ENTRIES) {
      omitted++;
      continue;
    }
    entries.push({ path, ...sentenceOf(error) });
  }
  return { entries, omitted };
}

function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => {
      const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^(0|[1-9]\d*)$/.test(part) ? Number(part) : part;
    });
}
