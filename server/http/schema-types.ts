// Small TypeBox helpers shared by request schemas.

import { type TUnsafe, Type } from '@sinclair/typebox';

/** A string enum as a single JSON Schema `enum` (one validation error, one OpenAPI enum). */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
