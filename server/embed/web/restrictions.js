// The restriction question: a placement that routes through a toll way or an access-restricted way asks first.

/** @typedef {import('./types.js').Itinerary} Itinerary */

/**
 * What to ask about the segments `changed` (their ids) of `view`, or null when none crosses a restriction.
 * @param {Itinerary} view
 * @param {string[]} changed
 * @returns {{ kinds: string[], text: string } | null}
 */
export function restrictionQuestion(view, changed) {
  const crossing = view.segments.filter((s) => changed.includes(s.id) && s.hazards.length > 0);
  if (crossing.length === 0) return null;
  const kinds = [...new Set(crossing.flatMap((s) => s.hazards.map((h) => h.kind)))];
  const words = kinds.map((k) => (k === 'TOLLWAY' ? 'a toll way' : 'an access-restricted way')).join(' and ');
  return { kinds, text: `This placement routes through ${words}. Keep it?` };
}
