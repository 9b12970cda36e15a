import { describe, expect, it } from 'vitest';
import { credentialedRequests, itineraryBounds, trailStyle } from '../../../../server/embed/web/map-style.js';
import type { Itinerary } from '../../../../server/embed/web/types.js';

describe('the map style of the embed page and the planner', () => {
  it('draws the trail tiles of this origin', () => {
    const style = trailStyle('https://cairn.test');
    expect(style.sources.trails).toEqual({ type: 'vector', url: 'https://cairn.test/v1/tiles/trails.json' });
    expect(style.layers.map((l) => l.id)).toEqual([
      'background',
      'trails-contours',
      'trails-roads',
      'trails-paths',
      'trails-hazards',
      'trails-places',
    ]);
  });

  it('leaves the trails out when the embed may not show them', () => {
    const style = trailStyle('https://cairn.test', false);
    expect(style.sources).toEqual({});
    expect(style.layers.map((l) => l.id)).toEqual(['background']);
  });

  it("bounds an itinerary's lines, and has no bounds for one without", () => {
    const line = (coordinates: number[][]) => ({ geometry: { type: 'LineString', coordinates } });
    const view = {
      segments: [
        line([
          [1.5, 42.5, 1200],
          [1.6, 42.4],
        ]),
        line([[1.55, 42.6]]),
      ],
    } as unknown as Itinerary;
    expect(itineraryBounds(view)).toEqual([
      [1.5, 42.4],
      [1.6, 42.6],
    ]);
    expect(itineraryBounds({ segments: [] } as unknown as Itinerary)).toBeNull();
  });

  it("sends the page's credentials to this origin only", () => {
    const request = credentialedRequests('https://cairn.test', () => ({ 'X-API-Key': 'pk' }));
    expect(request('https://cairn.test/v1/tiles/trails.json')).toEqual({
      url: 'https://cairn.test/v1/tiles/trails.json',
      headers: { 'X-API-Key': 'pk' },
    });
    expect(request('https://cairn.test.evil/x')).toEqual({ url: 'https://cairn.test.evil/x' });
  });
});
