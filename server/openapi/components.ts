// Shared component schemas of the public OpenAPI document: the error envelope (spec, Errors → Envelope) and
// the five conflict metadata schemas (spec, Errors → Conflict metadata).

import { ERROR_CODES } from '../errors.js';
import type { ConflictSchema } from '../http/route.js';
import type { JsonSchema } from './schema-registry.js';

const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const errorPath: JsonSchema = { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } };

export const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  description:
    'Every failure. One entry per failed validation; a 5xx has one generic entry with no path or metadata. ' +
    'Branch on `extensions.code`, never on the localized message.',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['message', 'extensions'],
        properties: {
          message: { type: 'string', description: 'Human-readable, localized by Accept-Language. Not a contract.' },
          path: { ...errorPath, description: 'Field-level entries only: ["request","body"|"params"|"query",…].' },
          extensions: {
            type: 'object',
            required: ['code'],
            properties: {
              code: { type: 'string', enum: [...ERROR_CODES] },
              path: errorPath,
              metadata: {},
            },
          },
        },
      },
    },
    extensions: { type: 'object', properties: { metadata: {} } },
  },
};

const holding = (resource: 'itinerary' | 'collection', what: string): JsonSchema => ({
  type: 'object',
  description: `Conflict metadata of ${what}: \`${resource}.id\` is the ${resource} already holding the name.`,
  required: [resource],
  properties: { [resource]: { type: 'object', required: ['id'], properties: { id: uuid } } },
});

/** The five 409 metadata schemas, by name. */
export const CONFLICT_METADATA: Record<ConflictSchema, JsonSchema> = {
  ResponseMetadataPostItinerary: holding('itinerary', 'creating, importing or duplicating an itinerary'),
  ResponseMetadataPatchItinerary: holding('itinerary', 'renaming an itinerary'),
  ResponseMetadataPostCollection: holding('collection', 'creating a collection'),
  ResponseMetadataPatchCollection: holding('collection', 'renaming a collection'),
  ResponseMetadataLockConflict: {
    type: 'object',
    description:
      'Conflict metadata of a lock-guarded write: `holder.id` is the member holding the lock; ' +
      '00000000-0000-0000-0000-000000000000 means nobody holds it (take the lock first).',
    required: ['holder'],
    properties: { holder: { type: 'object', required: ['id'], properties: { id: uuid } } },
  },
};

/** Success bodies of operations that declare no response schema yet. */
export const SUCCESS_ENVELOPE: JsonSchema = {
  type: 'object',
  description: 'Successful Studio API response: `{data, extensions: {metadata}}`.',
  properties: {
    data: {},
    extensions: { type: 'object', properties: { metadata: { type: 'object' } } },
  },
};
