// Small statistics helpers for bench results: median, percentiles, ratios.

/** Median of `values` (NaN when empty). Does not modify the input. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Percentile `p` (0..100) of `values` by linear interpolation (NaN when empty). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

/** `a / b`, NaN when either side is missing or b is 0. */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : Number.NaN;
}

/** Rounds to `digits` decimals (for results files; keeps JSON readable). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
