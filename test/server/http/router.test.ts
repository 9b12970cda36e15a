// Path matching: static paths, parameters, and parameters with a fixed suffix (`{y}.mvt`).

import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../server/http/route.js';
import { Router } from '../../../server/http/router.js';

const route = (op: string, path: string): RouteDef => ({
  op,
  method: 'GET',
  path,
  scope: 'public',
  writes: false,
  handler: () => ({ json: null }),
});

describe('Router', () => {
  const router = new Router([
    route('tileJson', '/v1/tiles/trails.json'),
    route('tile', '/v1/tiles/trails/{z}/{x}/{y}.mvt'),
    route('overlay', '/v1/tiles/overlays/itineraries/{itinerary_id}.json'),
  ]);

  it('takes a suffixed parameter without its suffix', () => {
    const found = router.match('GET', '/v1/tiles/trails/3/2/1.mvt');
    expect(found).toMatchObject({ kind: 'found', route: { op: 'tile' }, params: { z: '3', x: '2', y: '1' } });
    expect(router.match('GET', '/v1/tiles/overlays/itineraries/abc.json')).toMatchObject({ params: { itinerary_id: 'abc' } });
  });

  it('does not match a segment without the suffix, with another one, or with nothing before it', () => {
    expect(router.match('GET', '/v1/tiles/trails/3/2/1').kind).toBe('not-found');
    expect(router.match('GET', '/v1/tiles/trails/3/2/1.png').kind).toBe('not-found');
    expect(router.match('GET', '/v1/tiles/trails/3/2/.mvt').kind).toBe('not-found');
    expect(router.match('GET', '/v1/tiles/trails.json')).toMatchObject({ route: { op: 'tileJson' } });
  });

  it('refuses two routes that disagree on a parameter at the same place', () => {
    expect(() => new Router([route('a', '/t/{z}.mvt'), route('b', '/t/{z}.pbf')])).toThrow(TypeError);
  });
});
