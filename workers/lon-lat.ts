// A [longitude, latitude] check for the task functions that are also called directly (tests, tools) with
// positions no operation has checked: an import's recorded lines, a split point, a suggestion's ends, a place
// search's centre. Positions from the server arrive validated by the operations' input schemas
// (server/http/schema-keywords.ts `lonLat`); the routing engine itself trusts them.

import type { LonLat } from '../contracts/routing.js';

/** True for a [longitude, latitude] pair of finite degrees within range (more items are allowed). */
export function validLonLat(c: unknown): c is LonLat {
  return (
    Array.isArray(c) &&
    c.length >= 2 &&
    typeof c[0] === 'number' &&
    typeof c[1] === 'number' &&
    Number.isFinite(c[0]) &&
    Number.isFinite(c[1]) &&
    Math.abs(c[0]) <= 180 &&
    Math.abs(c[1]) <= 90
  );
}
