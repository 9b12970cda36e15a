// Compares a real answer with the sample a doc shows: the fields shown and the values stated, "…" standing for any.

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * How a doc's sample reads:
 * - `"…"` is any value (an id, a token, a long geometry); `"sess_…"` any string with that prefix (and suffix);
 *   `"…what it is…"` any string;
 * - a timestamp is any timestamp (they differ on every run);
 * - a number is stated to as many decimals as it is written with, so 2058.8 accepts 2058.78 and 0.044 accepts 0.0443;
 * - an object lists the fields it shows (the answer may have more);
 * - an array lists every element, unless its last element is `"…"`: then only its first ones.
 * Returns one line per disagreement, naming where (`$.data.zones[0].name`).
 */
export function sampleMismatches(actual: unknown, sample: unknown, at = '$'): string[] {
  if (typeof sample === 'string') return stringMismatch(actual, sample, at);
  if (typeof sample === 'number') {
    if (typeof actual !== 'number') return [`${at}: the doc shows ${sample}, the answer has ${show(actual)}`];
    return Math.abs(actual - sample) <= tolerance(sample) ? [] : [`${at}: the doc shows ${sample}, the answer has ${actual}`];
  }
  if (Array.isArray(sample)) return arrayMismatches(actual, sample, at);
  if (sample !== null && typeof sample === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: the doc shows an object, the answer has ${show(actual)}`];
    }
    return Object.entries(sample).flatMap(([key, value]) =>
      key in actual
        ? sampleMismatches((actual as Record<string, unknown>)[key], value, `${at}.${key}`)
        : [`${at}.${key}: shown in the doc, absent from the answer`],
    );
  }
  return actual === sample ? [] : [`${at}: the doc shows ${show(sample)}, the answer has ${show(actual)}`];
}

function stringMismatch(actual: unknown, sample: string, at: string): string[] {
  if (sample === '…') return actual === undefined ? [`${at}: absent from the answer`] : [];
  // "…a localized sentence…": any text.
  if (sample.length > 1 && sample.startsWith('…') && sample.endsWith('…')) return typeof actual === 'string' ? [] : [`${at}: not text`];
  const wrong = [`${at}: the doc shows ${show(sample)}, the answer has ${show(actual)}`];
  if (typeof actual !== 'string') return wrong;
  if (ISO_TIME.test(sample)) return ISO_TIME.test(actual) ? [] : wrong;
  const cut = sample.indexOf('…');
  if (cut < 0) return actual === sample ? [] : wrong;
  const [prefix, suffix] = [sample.slice(0, cut), sample.slice(cut + 1)];
  return actual.startsWith(prefix) && actual.endsWith(suffix) && actual.length >= prefix.length + suffix.length ? [] : wrong;
}

function arrayMismatches(actual: unknown, sample: unknown[], at: string): string[] {
  if (!Array.isArray(actual)) return [`${at}: the doc shows a list, the answer has ${show(actual)}`];
  const open = sample.length > 0 && sample[sample.length - 1] === '…';
  const shown = open ? sample.slice(0, -1) : sample;
  if (open ? actual.length < shown.length : actual.length !== shown.length) {
    return [`${at}: the doc shows ${shown.length}${open ? ' or more' : ''} elements, the answer has ${actual.length}`];
  }
  return shown.flatMap((value, i) => sampleMismatches(actual[i], value, `${at}[${i}]`));
}

/** Half a unit of the last decimal the doc writes: the doc's number is the answer rounded there. */
function tolerance(sample: number): number {
  const decimals = (String(sample).split('.')[1] ?? '').length;
  return 0.5 * 10 ** -decimals + 1e-9;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
