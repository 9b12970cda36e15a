// Places and ways looked up in the demo region (the task functions, run on this thread's region).

import { describe, expect, it } from 'vitest';
import { haversine } from '../../data/region/geo.js';
import { Activity } from '../../contracts/activity.js';
import type { PlacesOutput, WaysOutput } from '../../contracts/region-lookup.js';
import { place, places, ways } from '../../workers/region-lookup.js';
import { threadRouting } from '../../workers/region-source.js';

const demo = () => threadRouting().region;
const village = () => {
  const v = [...demo().places].find((p) => p.name === 'Vilanova de Cairn');
  if (!v) throw new Error('the demo village is missing');
  return v;
};

describe('places', () => {
  it('by text: the exact name first, accents and case ignored, with its coordinates, elevation and id', () => {
    const out = places({ text: 'vilanova' }) as PlacesOutput;
    expect(out.places[0]).toMatchObject({ name: 'Vilanova de Cairn', kind: 'village', distance: null });
    const peak = (places({ text: 'pic de cairn' }) as PlacesOutput).places[0]!;
    expect(peak.name).toBe('Pic de Cairn');
    expect(peak.id).toMatch(/^(node|way)\/\d+$/);
    expect(peak.elevation).toBeGreaterThan(1000);
    expect(place({ id: peak.id })).toEqual({ ok: true, place: peak });
  });

  it('ranked by match, then by distance from near; within the radius only', () => {
    const v = village();
    const out = places({ text: 'mirador', near: [v.lon, v.lat], radius: 20_000 }) as PlacesOutput;
    expect([...out.places].map((p) => p.name)).toEqual(expect.arrayContaining(['Mirador del Poble', 'Mirador del Migdia']));
    const distances = [...out.places].map((p) => p.distance as number);
    expect(distances).toEqual([...distances].sort((a, b) => a - b)); // same match rank: nearest first
    const near = places({ near: [v.lon, v.lat], radius: 500, limit: 50 }) as PlacesOutput;
    expect(near.places.length).toBeGreaterThan(0);
    for (const p of near.places) {
      expect(haversine(v.lon, v.lat, p.coordinates[0], p.coordinates[1])).toBeLessThanOrEqual(500);
    }
    expect(near.places[0]!.distance).toBeLessThanOrEqual(near.places.at(-1)!.distance as number);
  });

  it('filters by kind; addresses carry their house number and street', () => {
    const huts = places({ text: 'refugi cabana orri', kinds: ['alpine_hut'] }) as PlacesOutput;
    expect(huts.places).toEqual([]); // every word must match one place
    const alpine = places({
      near: [village().lon, village().lat],
      radius: 50_000,
      kinds: ['alpine_hut', 'wilderness_hut'],
    }) as PlacesOutput;
    expect(new Set([...alpine.places].map((p) => p.kind))).toEqual(new Set(['alpine_hut', 'wilderness_hut']));
    const address = (places({ near: [village().lon, village().lat], kinds: ['address'], limit: 1 }) as PlacesOutput).places[0]!;
    expect(address.houseNumber).not.toBeNull();
    expect(address.street).not.toBeNull();
  });

  it('refuses what it cannot answer, with the field at fault', () => {
    expect(places({})).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', path: ['input', 'text'] });
    expect(places({ text: 'x', limit: 0 })).toMatchObject({ path: ['input', 'limit'] });
    expect(places({ text: 'x', kinds: ['peak', 'castle' as never] })).toMatchObject({ path: ['input', 'kinds', 1] });
    expect(places({ near: [1.5, 42.5], radius: 1e9 })).toMatchObject({ path: ['input', 'radius'] });
    expect(place({ id: 'relation/1' })).toMatchObject({ path: ['input', 'id'] });
    expect(place({ id: 'node/1' })).toEqual({ ok: true, place: null });
  });
});

describe('ways', () => {
  const box = (): [number, number, number, number] => {
    const v = village();
    return [v.lon - 0.01, v.lat - 0.01, v.lon + 0.01, v.lat + 0.01];
  };

  it('each way of the box once, with its tags and every activity that accepts it', () => {
    const out = ways({ bbox: box() }) as WaysOutput;
    expect(out.ok).toBe(true);
    expect(out.ways.length).toBeGreaterThan(3);
    expect(new Set(out.ways.map((w) => w.id)).size).toBe(out.ways.length);
    const tooLarge = (ways({ bbox: [-180, -90, 180, 90] }) as { ok: boolean }).ok;
    expect(tooLarge).toBe(false);
    const path = out.ways.find((w) => w.highway === 'path' || w.highway === 'footway');
    expect(path?.activityCompatible).toContain(Activity.HIKING_AND_TRAIL);
    expect(path?.activityCompatible).not.toContain(Activity.ROAD_CYCLING);
    expect(out.ways.some((w) => w.activityCompatible.length > 1)).toBe(true);
  });

  it('filtered to one activity: only ways it may use, each reporting that activity alone', () => {
    const all = ways({ bbox: box() }) as WaysOutput;
    const cycling = ways({ bbox: box(), activity: Activity.ROAD_CYCLING }) as WaysOutput;
    expect(cycling.ways.length).toBeGreaterThan(0);
    expect(cycling.ways.length).toBeLessThan(all.ways.length);
    for (const w of cycling.ways) expect(w.activityCompatible).toEqual([Activity.ROAD_CYCLING]);
    const accepting = all.ways.filter((w) => w.activityCompatible.includes(Activity.ROAD_CYCLING)).map((w) => w.id);
    expect(cycling.ways.map((w) => w.id).sort()).toEqual(accepting.sort());
  });

  it('refuses a bad box or activity', () => {
    expect(ways({ bbox: [1, 2, 3] as never })).toMatchObject({ path: ['input', 'bbox'] });
    expect(ways({ bbox: [1.6, 42.5, 1.5, 42.6] })).toMatchObject({ path: ['input', 'bbox'] });
    expect(ways({ bbox: box(), activity: 'SKIING' as never })).toMatchObject({ path: ['input', 'activity'] });
  });
});
