// Compiles each route's JSON Schemas once (Ajv) and turns failures into one localized entry per field.

import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { ApiError, type ErrorEntry } from '../errors.js';
import type { Language } from '../i18n/messages.js';

// Ajv, ajv-formats and ajv-i18n are CommonJS; createRequire avoids default-export interop differences.
const require = createRequire(import.meta.url);
const Ajv = require('ajv').default as typeof import('ajv').default;
const addFormats = require('ajv-formats').default as typeof import('ajv-formats').default;
type Localize = (errors?: ErrorObject[] | null) => void;
const localizers = require('ajv-i18n') as Record<string, Localize>;

export type Location = 'body' | 'params' | 'query';

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    allErrors: true, // one entry per failed validation, as the spec asks
    coerceTypes: coerce, // query and path values arrive as strings
    useDefaults: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const stringAjv = makeAjv(true);

export type Validator = (value: unknown, lang: Language) => void;

/** Compiles `schema` for `location`; the returned function throws a 400 ApiError listing every failure. */
export function compileValidator(schema: TSchema, location: Location): Validator {
  const validate: ValidateFunction = (location === 'body' ? bodyAjv : stringAjv).compile(schema);
  return (value, lang) => {
    if (validate(value)) return;
    throw ApiError.validation(toEntries(validate.errors ?? [], location, lang));
  };
}

/** Maps Ajv errors to envelope entries with paths `["request", location, ...]`. */
export function toEntries(
  errors: ErrorObject[],
  location: Location,
  lang: Language,
): Omit<ErrorEntry, 'code'>[] {
  // Localize a copy: compiled validators share their errors array between calls.
  const copies = errors.map((e) => ({ ...e }));
  (localizers[lang] ?? localizers.en)?.(copies);
  // anyOf/oneOf report every failed branch and then a summary; keep only the summary for that value.
  const unions = new Set(
    copies.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath),
  );
  const seen = new Set<string>();
  const entries: Omit<ErrorEntry, 'code'>[] = [];
  for (const error of copies) {
    if (unions.has(error.instancePath) && /\/(anyOf|oneOf)\/\d+\//.test(error.schemaPath)) continue;
    const path: (string | number)[] = ['request', location, ...pointerToPath(error.instancePath)];
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      path.push(params.missingProperty);
    } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      path.push(params.additionalProperty);
    }
    const key = `${path.join('\u0000')}|${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({ path, message: error.message ?? 'invalid' });
  }
  return entries;
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
