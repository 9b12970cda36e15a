// Picks the response language from an Accept-Language header (RFC 9110 §12.5.4 quality values).

import { LANGUAGES, type Language } from './messages.js';

const SUPPORTED = new Set<string>(LANGUAGES);
const cache = new Map<string, Language>();
const CACHE_LIMIT = 256;

/** The best supported language for the header, or `en`. Tags match on their primary subtag (`fr-CH` → `fr`). */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  const hit = cache.get(header);
  if (hit) return hit;
  let best: Language = 'en';
  let bestQ = 0;
  let wildcardQ = 0;
  for (const part of header.split(',')) {
    const [rawTag, ...rawParams] = part.trim().split(';');
    const tag = (rawTag ?? '').trim().toLowerCase();
    if (!tag) continue;
    let q = 1;
    for (const p of rawParams) {
      const [k, v] = p.trim().split('=');
      if (k === 'q' && v !== undefined) {
        const n = Number(v);
        q = Number.isFinite(n) && n >= 0 && n <= 1 ? n : 0;
      }
    }
    if (tag === '*') {
      wildcardQ = Math.max(wildcardQ, q);
      continue;
    }
    const primary = tag.split('-')[0] ?? '';
    // Strictly greater keeps the first of equal-quality tags, as the header lists them in preference order.
    if (q > bestQ && SUPPORTED.has(primary)) {
      best = primary as Language;
      bestQ = q;
    }
  }
  if (bestQ === 0 && wildcardQ === 0) best = 'en';
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(header, best);
  return best;
}
