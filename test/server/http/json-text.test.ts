// Reply text with pieces that are already JSON (a route's positions, formatted in a worker) spliced in.

import { describe, expect, it } from 'vitest';
import { jsonText, RawJson } from '../../../server/http/json-text.js';

describe('jsonText', () => {
  it('is JSON.stringify for a value without raw pieces', () => {
    const value = { a: [1, 2.5, 'x'], b: { c: null, d: 'quote " and \\ and \u0000' } };
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it('writes each raw piece as its text, wherever it sits, in order', () => {
    const first = new RawJson('[[1.5,2,3],[4,5,6]]');
    const second = new RawJson('{"k":[true,null]}');
    const text = jsonText({ routes: [{ coordinates: first, name: 'a' }, { coordinates: second }], tail: [first] });
    expect(text).toBe(
      '{"routes":[{"coordinates":[[1.5,2,3],[4,5,6]],"name":"a"},{"coordinates":{"k":[true,null]}}],"tail":[[[1.5,2,3],[4,5,6]]]}',
    );
    expect(JSON.parse(text).tail[0]).toEqual([
      [1.5, 2, 3],
      [4, 5, 6],
    ]);
  });

  it('leaves strings that merely look like a marker alone', () => {
    const value = { s: '\u0000deadbeef:0', t: new RawJson('1') };
    expect(JSON.parse(jsonText(value))).toEqual({ s: '\u0000deadbeef:0', t: 1 });
  });

  it('gives the parsed value to any other serializer, so a library that stringifies it is still right', () => {
    const value = { coordinates: new RawJson('[[1,2,3]]') };
    expect(JSON.parse(JSON.stringify(value))).toEqual({ coordinates: [[1, 2, 3]] });
  });

  it('nests: a serialization inside a toJSON does not lose the outer pieces', () => {
    const inner = { toJSON: () => jsonText({ x: new RawJson('[9]') }) };
    expect(JSON.parse(jsonText({ a: new RawJson('[1]'), b: inner, c: new RawJson('[2]') }))).toEqual({ a: [1], b: '{"x":[9]}', c: [2] });
  });
});
