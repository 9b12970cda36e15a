// GeoJSON positions as JSON text, written in the worker: formatting ~1,000 doubles costs ~170 µs with
// JSON.stringify and makes ~20 KB of short-lived numbers and arrays, which is most of what a directions
// answer would cost the main thread. Longitude and latitude are written to 7 decimals (1 cm, the precision
// OpenStreetMap stores), elevation to 0.1 m; digits are written as bytes, trailing zeros dropped.

import type { DirectionsOutput, EncodedDirectionsOutput, EncodedSuggestionsOutput, SuggestionsOutput } from '../contracts/routing.js';
import type { TaskFailure } from '../contracts/task-failure.js';

const LON_LAT_SCALE = 1e7;
const LON_LAT_PLACES = 7;
const ELE_SCALE = 10;
const ELE_PLACES = 1;

let buffer = Buffer.allocUnsafe(1 << 16);

/** Writes the decimal digits of a whole number 0 ≤ value < 2^31 at `at`; returns the next free index. */
function writeWhole(value: number, at: number): number {
  let length = 1;
  for (let x = value; x >= 10; x = (x / 10) | 0) length++;
  let v = value | 0;
  for (let k = at + length - 1; k >= at; k--) {
    const q = (v / 10) | 0;
    buffer[k] = 48 + v - q * 10;
    v = q;
  }
  return at + length;
}

/**
 * Writes `value` rounded to `places` decimals (`scale` = 10^places), as JSON would print that number. The
 * rounded value is split into a whole part and a fraction below `scale`, both small enough for int32 arithmetic.
 */
function writeFixed(value: number, scale: number, places: number, at: number): number {
  let scaled = Math.round(value * scale);
  if (!Number.isFinite(scaled)) scaled = 0; // never reached for engine output; JSON has no NaN
  if (scaled < 0) {
    buffer[at++] = 45; // '-'
    scaled = -scaled;
  }
  const whole = Math.floor(scaled / scale);
  let fraction = (scaled - whole * scale) | 0;
  at = writeWhole(whole, at);
  if (fraction === 0) return at;
  buffer[at++] = 46; // '.'
  let digits = places;
  for (let q = (fraction / 10) | 0; fraction === q * 10; q = (fraction / 10) | 0) {
    fraction = q;
    digits--;
  }
  for (let k = at + digits - 1; k >= at; k--) {
    const q = (fraction / 10) | 0;
    buffer[k] = 48 + fraction - q * 10;
    fraction = q;
  }
  return at + digits;
}

/** Flat lon,lat,ele (the engine's line format) as the JSON text of GeoJSON positions `[[lon,lat,ele],…]`. */
export function positionsJson(flat: ArrayLike<number>): string {
  const count = Math.floor(flat.length / 3);
  // At most 2 + count × (3 brackets/commas + 3 numbers of ≤ 14 characters + 2 commas).
  const needed = 2 + count * 50;
  if (buffer.length < needed) buffer = Buffer.allocUnsafe(needed * 2);
  let at = 0;
  buffer[at++] = 91; // '['
  for (let i = 0; i < count; i++) {
    if (i > 0) buffer[at++] = 44; // ','
    buffer[at++] = 91;
    at = writeFixed(flat[i * 3]!, LON_LAT_SCALE, LON_LAT_PLACES, at);
    buffer[at++] = 44;
    at = writeFixed(flat[i * 3 + 1]!, LON_LAT_SCALE, LON_LAT_PLACES, at);
    buffer[at++] = 44;
    at = writeFixed(flat[i * 3 + 2]!, ELE_SCALE, ELE_PLACES, at);
    buffer[at++] = 93; // ']'
  }
  buffer[at++] = 93;
  return buffer.toString('latin1', 0, at);
}

/** The directions task's answer: the engine's routes with their lines as positions text. */
export function encodeDirections(out: DirectionsOutput | TaskFailure): EncodedDirectionsOutput | TaskFailure {
  if (!out.ok) return out;
  return {
    ok: true,
    routes: out.routes.map(({ coordinates, ...route }) => ({
      ...route,
      coordinatesJson: positionsJson(coordinates),
      coordinateCount: coordinates.length / 3,
    })),
  };
}

/** The suggestions task's answer: each idea's line as positions text. */
export function encodeSuggestions(out: SuggestionsOutput | TaskFailure): EncodedSuggestionsOutput | TaskFailure {
  if (!out.ok) return out;
  return {
    ok: true,
    suggestions: out.suggestions.map(({ coordinates, ...idea }) => ({ ...idea, coordinatesJson: positionsJson(coordinates) })),
  };
}
