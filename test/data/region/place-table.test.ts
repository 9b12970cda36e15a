// places.bin: what goes in comes out, the search finds places by word prefixes in any script, and a damaged file
// is refused with a sentence naming it.
import { describe, expect, it } from 'vitest';
import { decodePlaceFile, encodePlaceFile, placeTable } from '../../../data/region/place-table.js';
import type { Place } from '../../../data/region/places.js';
import { RegionInputError } from '../../../data/region/region-error.js';

function place(id: number, fields: Partial<Place>): Place {
  return {
    id,
    osmType: 'node',
    osmId: 1000 + id,
    kind: 'peak',
    name: '',
    lon: 9.5 + id / 1000,
    lat: 47.1,
    ele: null,
    eleTag: null,
    houseNumber: null,
    street: null,
    ...fields,
  };
}

const PLACES: Place[] = [
  place(0, { name: 'Piz Buin', ele: 3312.4, eleTag: 3312 }),
  place(1, { name: 'Buin', kind: 'hamlet' }),
  place(2, { name: 'Chamanna Tuoi', kind: 'alpine_hut', osmType: 'way', osmId: 12_000_000_001, ele: 2250 }),
  place(3, { name: '', kind: 'address', street: 'Städtle', houseNumber: '12a' }),
  place(4, { name: 'Gross Litzner', ele: 0 }),
  place(5, { name: 'Ђерам', kind: 'village' }),
  place(6, { name: '𝔄lp 🏔 Hütte', kind: 'wilderness_hut', street: '', houseNumber: '' }),
  place(7, { name: 'Buin Pitschen', eleTag: -1.5 }),
];

describe('places.bin', () => {
  const table = placeTable(PLACES);

  it('gives back every place as it went in, nulls, empty strings, 64-bit ids and ways included', () => {
    expect(table.count).toBe(PLACES.length);
    expect([...table]).toEqual(PLACES);
    expect(table.place(2)).toEqual(PLACES[2]);
    expect(table.named(3)).toBe(false);
    expect(table.named(0)).toBe(true);
    expect(table.find('way', 12_000_000_001)).toBe(2);
    expect(table.find('node', 12_000_000_001)).toBe(-1);
  });

  it('matches every word of the query as a word prefix, accents and case ignored, and ranks the name', () => {
    const names = (q: string) => table.search(q, { limit: 50 }).map((p) => p.name || `${p.street} ${p.houseNumber}`);
    // The exact name first, then names starting with the query, then the rest; then kind and length.
    expect(names('buin')).toEqual(['Buin', 'Buin Pitschen', 'Piz Buin']);
    // Both start with "bui": the peak before the hamlet.
    expect(names('BUI')).toEqual(['Buin Pitschen', 'Buin', 'Piz Buin']);
    expect(names('piz bu')).toEqual(['Piz Buin']);
    expect(names('piz tuoi')).toEqual([]);
    expect(names('stadtle 12')).toEqual(['Städtle 12a']);
    expect(names('ђер')).toEqual(['Ђерам']);
    expect(names('𝔄lp hutte')).toEqual(['𝔄lp 🏔 Hütte']);
    expect(names('!!')).toEqual([]);
    expect(table.search('buin', { kinds: ['hamlet'] }).map((p) => p.id)).toEqual([1]);
    expect(table.search('buin', { limit: 1 }).map((p) => p.id)).toEqual([1]);
    expect(table.matches('buin')).toEqual([
      { id: 0, match: 2 },
      { id: 1, match: 0 },
      { id: 7, match: 1 },
    ]);
  });

  it('is read in place, at any byte offset', () => {
    const bytes = encodePlaceFile(PLACES);
    const shifted = new Uint8Array(bytes.byteLength + 8);
    shifted.set(bytes, 8);
    const inPlace = decodePlaceFile(shifted.subarray(8));
    expect(inPlace.bytes.buffer).toBe(shifted.buffer);
    expect([...inPlace]).toEqual(PLACES);
    const odd = new Uint8Array(bytes.byteLength + 3);
    odd.set(bytes, 3);
    expect([...decodePlaceFile(odd.subarray(3))]).toEqual(PLACES);
  });

  it('refuses a file that is not a place file, of another version, or cut short', () => {
    const bytes = encodePlaceFile(PLACES);
    const refused = (b: Uint8Array) => () => decodePlaceFile(b, 'x/places.bin');
    expect(refused(new TextEncoder().encode('[{"broken"'))).toThrow(new RegionInputError('x/places.bin is too short to be a place file'));
    const garbage = new Uint8Array(bytes);
    garbage[0] = 0x7b;
    expect(refused(garbage)).toThrow('x/places.bin is not a Cairn place file (bad magic)');
    const later = new Uint8Array(bytes);
    new DataView(later.buffer).setUint32(8, 99, true);
    expect(refused(later)).toThrow('x/places.bin has format version 99; this build reads 1 (re-import)');
    expect(refused(bytes.subarray(0, bytes.byteLength - 8))).toThrow(/x\/places\.bin is truncated or has a wrong size/);
    expect(() => encodePlaceFile([place(1, {})])).toThrow(/a place's id is its index/);
    expect(() => encodePlaceFile([place(0, { kind: 'castle' as never })])).toThrow('place 0 has an unknown kind castle');
    // A valid header over damaged contents: an index pointing outside the file.
    const damaged = new Uint8Array(bytes);
    damaged.fill(0xff, 64);
    expect(refused(damaged)).toThrow('x/places.bin is damaged (an index points outside it): re-import the region');
  });
});
