// Turns TypeBox schemas into OpenAPI 3.1 Schema Objects: every subschema named by `$id` is hoisted once into
// components.schemas and replaced by a `$ref`, so the spec's schema names (SegmentGroupCreateParams, …) appear.

import type { TSchema } from '@sinclair/typebox';
import { VALIDATION_ONLY_KEYWORDS } from '../http/schema-keywords.js';

export type JsonSchema = Record<string, unknown>;

/** Reference to a named component schema. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** Collects named schemas while converting; throws TypeError when two different schemas share one `$id`. */
export class SchemaRegistry {
  readonly components: Record<string, JsonSchema> = {};
  readonly #sources = new Map<string, string>();

  /** Registers a hand-written component (already plain JSON Schema). */
  define(name: string, schema: JsonSchema): void {
    if (this.components[name]) throw new TypeError(`openapi: component schema ${name} defined twice`);
    this.components[name] = schema;
    this.#sources.set(name, JSON.stringify(schema));
  }

  /** The OpenAPI form of a TypeBox schema: a `$ref` when it is named, an inline schema otherwise. */
  convert(schema: TSchema | JsonSchema): JsonSchema {
    return this.#walk(schema as unknown as JsonSchema);
  }

  #walk(schema: JsonSchema): JsonSchema {
    const id = typeof schema.$id === 'string' ? schema.$id : undefined;
    const body = this.#convertBody(schema);
    if (!id) return body;
    const fingerprint = JSON.stringify(body);
    const known = this.#sources.get(id);
    if (known === undefined) {
      this.#sources.set(id, fingerprint);
      this.components[id] = body;
    } else if (known !== fingerprint) {
      throw new TypeError(`openapi: two different schemas are named ${id}`);
    }
    return schemaRef(id);
  }

  /**
   * Copies a schema's own JSON keys (TypeBox's symbol keys and the validation-only keywords are dropped),
   * converting nested schemas.
   */
  #convertBody(schema: JsonSchema): JsonSchema {
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$id' || (VALIDATION_ONLY_KEYWORDS as readonly string[]).includes(key)) continue;
      if (key === '$ref' && typeof value === 'string') {
        // Type.Ref('Name') points at a schema by its $id.
        out.$ref = value.startsWith('#') ? value : `#/components/schemas/${value}`;
      } else if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
        out[key] = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, this.#walk(v)]));
      } else if (key === 'items' && Array.isArray(value)) {
        // Draft-07 tuple form (TypeBox Tuple) → 2020-12 prefixItems.
        out.prefixItems = value.map((v: JsonSchema) => this.#walk(v));
      } else if (key === 'additionalItems') {
        if (Array.isArray(schema.items)) out.items = value === false ? false : this.#walk(value as JsonSchema);
      } else if (
        ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'].includes(key) &&
        value !== null &&
        typeof value === 'object'
      ) {
        out[key] = this.#walk(value as JsonSchema);
      } else if (['anyOf', 'allOf', 'oneOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
        out[key] = value.map((v: JsonSchema) => this.#walk(v));
      } else {
        out[key] = value;
      }
    }
    return out;
  }
}
