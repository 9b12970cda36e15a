import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan } from '../../lib/json-depth.js';

describe('jsonNestsDeeperThan', () => {
  it('counts objects and arrays opened inside one another, up to the limit and past it', () => {
    expect(jsonNestsDeeperThan(`${'['.repeat(3)}${']'.repeat(3)}`, 3)).toBe(false);
    expect(jsonNestsDeeperThan(`${'['.repeat(4)}${']'.repeat(4)}`, 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('[[1],[2],[3],[4],[5],[6]]', 2)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(jsonNestsDeeperThan(`["${'[{'.repeat(10)}"]`, 1)).toBe(false);
    expect(jsonNestsDeeperThan('["\\"[[[[", "\\\\", ["x"]]', 2)).toBe(false);
    expect(jsonNestsDeeperThan('["\\\\", [["x"]]]', 2)).toBe(true);
  });
});
