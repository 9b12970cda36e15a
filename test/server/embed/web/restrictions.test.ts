import { describe, expect, it } from 'vitest';
import { restrictionQuestion } from '../../../../server/embed/web/restrictions.js';
import type { Itinerary } from '../../../../server/embed/web/types.js';

const itinerary = (hazards: Record<string, string[]>) =>
  ({
    segments: Object.entries(hazards).map(([id, kinds]) => ({ id, hazards: kinds.map((kind) => ({ kind })) })),
  }) as unknown as Itinerary;

describe('the restriction question', () => {
  it('asks nothing when the segments placed cross no restriction', () => {
    expect(restrictionQuestion(itinerary({ a: [], b: [] }), ['a', 'b'])).toBeNull();
  });

  it('asks nothing about a restriction the itinerary already crossed elsewhere', () => {
    expect(restrictionQuestion(itinerary({ a: ['TOLLWAY'], b: [] }), ['b'])).toBeNull();
  });

  it('names a toll way', () => {
    expect(restrictionQuestion(itinerary({ a: ['TOLLWAY'] }), ['a'])).toEqual({
      kinds: ['TOLLWAY'],
      text: 'This placement routes through a toll way. Keep it?',
    });
  });

  it('names each kind once, across every segment placed', () => {
    const question = restrictionQuestion(itinerary({ a: ['TOLLWAY', 'ACCESS_RESTRICTED'], b: ['TOLLWAY'] }), ['a', 'b']);
    expect(question).toEqual({
      kinds: ['TOLLWAY', 'ACCESS_RESTRICTED'],
      text: 'This placement routes through a toll way and an access-restricted way. Keep it?',
    });
  });
});
