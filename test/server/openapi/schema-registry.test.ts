// Converting TypeBox schemas for the OpenAPI document: named schemas hoisted once, tuples in 2020-12 form.

import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { SchemaRegistry } from '../../../server/openapi/schema-registry.js';

describe('SchemaRegistry', () => {
  it('hoists a nested named schema into components and references it', () => {
    const Point = Type.Object({ lon: Type.Number(), lat: Type.Number() }, { $id: 'Point' });
    const Body = Type.Object({ from: Point, to: Point }, { $id: 'Leg' });
    const registry = new SchemaRegistry();
    expect(registry.convert(Body)).toEqual({ $ref: '#/components/schemas/Leg' });
    expect(registry.components.Leg).toMatchObject({
      properties: { from: { $ref: '#/components/schemas/Point' }, to: { $ref: '#/components/schemas/Point' } },
    });
    expect(registry.components.Point).not.toHaveProperty('$id');
  });

  it('refuses two different schemas under one name', () => {
    const registry = new SchemaRegistry();
    registry.convert(Type.Object({ a: Type.String() }, { $id: 'Same' }));
    expect(() => registry.convert(Type.Object({ b: Type.String() }, { $id: 'Same' }))).toThrow(TypeError);
  });

  it('writes tuples as prefixItems and points Type.Ref at the component', () => {
    const registry = new SchemaRegistry();
    const converted = registry.convert(Type.Object({ at: Type.Tuple([Type.Number(), Type.Number()]), p: Type.Ref('Point') }));
    expect(converted).toMatchObject({
      properties: {
        at: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
        p: { $ref: '#/components/schemas/Point' },
      },
    });
  });
});
