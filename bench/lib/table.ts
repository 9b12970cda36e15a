// Prints aligned plain-text tables on stdout (numbers right-aligned, text left-aligned).

export type Cell = string | number;

/** Formats a number for a table: integers with thousands separators, others with `digits` decimals. */
export function formatNumber(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return '-';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(digits);
}

/** Renders `rows` under `headers` as an aligned table string (no trailing newline). */
export function renderTable(headers: readonly string[], rows: readonly Cell[][]): string {
  const text = rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : cell)));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((row) => (row[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number'));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...text.map(line)].join('\n');
}

/** Prints a table with an optional title line. */
export function printTable(title: string, headers: readonly string[], rows: readonly Cell[][]): void {
  if (title) console.log(`\n${title}`);
  console.log(renderTable(headers, rows));
}
