// Request schemas of the collection operations (DESIGN §6, §16).

import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../http/schema-types.js';

export const Privacy = StringEnum(['public', 'private']);

export const CollectionCreateParams = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    privacy: Privacy,
    scope: Type.Optional(StringEnum(['organization', 'personal'])),
  },
  { additionalProperties: false, $id: 'CollectionCreateParams' },
);
