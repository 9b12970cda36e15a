// The zone geometry rules on their own: one entry per fault, paths relative to the zone input.

import { describe, expect, it } from 'vitest';
import { checkZoneShape, type ZoneShape } from '../../../../server/studio/zones/zone-geometry.js';

const none = { radius: false, width: false };
const paths = (shape: ZoneShape, given = none) => checkZoneShape(shape, given).map((e) => (e.path ?? []).join('.'));
const ring = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 0],
];

describe('checkZoneShape', () => {
  it('accepts a closed polygon, with holes and elevations', () => {
    const hole = [
      [0.2, 0.2, 5],
      [0.4, 0.2, 5],
      [0.4, 0.4, 5],
      [0.2, 0.2, 5],
    ];
    expect(paths({ mode: 'POLYGON', geometry: { type: 'Polygon', coordinates: [ring, hole] }, radiusM: null, widthM: null })).toEqual([]);
  });

  it('a ring closed in lon/lat but not in elevation is open', () => {
    const open = [
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
      [0, 0, 2],
    ];
    expect(paths({ mode: 'POLYGON', geometry: { type: 'Polygon', coordinates: [open] }, radiusM: null, widthM: null })).toEqual([
      'geometry.coordinates.0',
    ]);
  });

  it('an empty polygon, a ring that is not a list and a position of the wrong arity are each one entry', () => {
    expect(paths({ mode: 'POLYGON', geometry: { type: 'Polygon', coordinates: [] }, radiusM: null, widthM: null })).toEqual([
      'geometry.coordinates',
    ]);
    const bad = [[[0, 0], [1], [1, 1, 1, 1], [0, 0]], 'ring'];
    expect(paths({ mode: 'POLYGON', geometry: { type: 'Polygon', coordinates: bad }, radiusM: null, widthM: null })).toEqual([
      'geometry.coordinates.0.1',
      'geometry.coordinates.0.2',
      'geometry.coordinates.1',
    ]);
  });

  it('non-finite or non-numeric coordinates are refused', () => {
    expect(paths({ mode: 'CIRCLE', geometry: { type: 'Point', coordinates: ['9', 47] }, radiusM: 3, widthM: null })).toEqual([
      'geometry.coordinates',
    ]);
  });

  it('a stored radius is dropped silently when the mode changes, a given one is an error', () => {
    const line = {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    };
    expect(paths({ mode: 'CORRIDOR', geometry: line, radiusM: null, widthM: 4 })).toEqual([]);
    expect(paths({ mode: 'CORRIDOR', geometry: line, radiusM: null, widthM: 4 }, { radius: true, width: false })).toEqual(['radius_m']);
    expect(paths({ mode: 'CORRIDOR', geometry: line, radiusM: null, widthM: null })).toEqual(['width_m']);
  });

  it('every entry has a path relative to the zone input (the transport adds its own prefix)', () => {
    const entries = checkZoneShape({ mode: 'CIRCLE', geometry: { type: 'Polygon', coordinates: [] }, radiusM: null, widthM: null }, none);
    expect(entries.map((e) => e.path?.[0])).toEqual(['geometry', 'radius_m']);
  });
});
