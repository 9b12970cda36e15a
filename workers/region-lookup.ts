// Piscina task module for looking things up in the region (places and ways), on the thread's region
// (./region-source.ts), so the main thread never holds or scans it.
//
// Places: by text (every word a prefix of a word of the name, street or house number), near a point within a
// radius, or both; ranked by how well the text matches (the exact name, then a name that starts with it, then
// the rest), then by distance from `near`. Ways: the ways with an edge in a bounding box, each once, with the
// activities whose profile accepts it.

import { haversine } from '../data/region/geo.js';
import { edgeEnds, edgeHighway, edgeSac, edgeSurface, highwayTag, latOf, lonOf, wayOf } from '../data/region/region-graph.js';
import type { Place } from '../data/region/places.js';
import {
  LOOKUP_LIMITS,
  PLACE_KINDS,
  type PlaceInput,
  type PlaceOutput,
  type PlaceResult,
  type PlacesInput,
  type PlacesOutput,
  type WayResult,
  type WaysInput,
  type WaysOutput,
} from '../contracts/region-lookup.js';
import { normalizeWords, type PlaceMatch } from '../data/region/place-table.js';
import { ACTIVITIES, type Activity } from '../contracts/activity.js';
import { isActivity } from './profiles.js';
import { failure, type TaskFailure } from '../contracts/task-failure.js';
import { routingFor } from './region-source.js';

export function places(input: PlacesInput): PlacesOutput | TaskFailure {
  const { region } = routingFor(input.region);
  const text = input.text?.trim() ?? '';
  if (text === '' && input.near === undefined) return failure('bad_input', 'give text, near, or both', ['input', 'text']);
  const { places: limits, radius: radiusLimits } = LOOKUP_LIMITS;
  if (input.radius !== undefined && !(Number.isFinite(input.radius) && input.radius > 0 && input.radius <= radiusLimits.max))
    return failure('bad_input', `radius is up to ${radiusLimits.max} m`, ['input', 'radius']);
  const limit = input.limit ?? limits.default;
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= limits.max))
    return failure('bad_input', `limit is 1 to ${limits.max}`, ['input', 'limit']);
  for (const [i, kind] of (input.kinds ?? []).entries())
    if (!PLACE_KINDS.includes(kind)) return failure('bad_input', 'unknown place kind', ['input', 'kinds', i]);
  const kinds = input.kinds && input.kinds.length > 0 ? new Set(input.kinds) : null;
  const near = input.near;
  const radius = near ? (input.radius ?? radiusLimits.default) : Number.POSITIVE_INFINITY;

  // Candidates with their match rank: the text index (all its hits), or every place when the text has no word.
  const { places } = region;
  const hits: PlaceMatch[] =
    normalizeWords(text).length === 0 ? Array.from({ length: places.count }, (_, id) => ({ id, match: 0 })) : places.matches(text);
  const ranked: { id: number; match: number; distance: number | null }[] = [];
  for (const { id, match } of hits) {
    const kind = places.kind(id);
    if (!places.named(id) && kind !== 'address') continue;
    if (kinds !== null && !kinds.has(kind)) continue;
    const distance = near ? haversine(near[0], near[1], places.lon(id), places.lat(id)) : null;
    if (distance !== null && distance > radius) continue;
    ranked.push({ id, match, distance });
  }
  ranked.sort((a, b) => a.match - b.match || (a.distance ?? 0) - (b.distance ?? 0) || a.id - b.id);
  const best = ranked.slice(0, limit);
  return { ok: true, places: best.map((hit) => placeResult(places.place(hit.id), hit.distance)), matches: best.map((hit) => hit.match) };
}

export function place(input: PlaceInput): PlaceOutput | TaskFailure {
  const match = /^(node|way)\/(\d{1,20})$/.exec(String(input.id ?? ''));
  if (!match) return failure('bad_input', 'a place id is node/<number> or way/<number>', ['input', 'id']);
  const { places } = routingFor(input.region).region;
  const id = places.find(match[1] as 'node' | 'way', Number(match[2]));
  return { ok: true, place: id >= 0 ? placeResult(places.place(id), null) : null };
}

export function ways(input: WaysInput): WaysOutput | TaskFailure {
  const bbox = input.bbox;
  if (!Array.isArray(bbox) || bbox.length !== 4)
    return failure('bad_input', 'bbox is [west, south, east, north] in degrees', ['input', 'bbox']);
  const [west, south, east, north] = bbox;
  if (!(west < east && south < north)) return failure('bad_input', 'bbox is [west, south, east, north] in degrees', ['input', 'bbox']);
  if (east - west > LOOKUP_LIMITS.waysBboxDeg || north - south > LOOKUP_LIMITS.waysBboxDeg)
    return failure('bad_input', `a bbox side is at most ${LOOKUP_LIMITS.waysBboxDeg} degrees`, ['input', 'bbox']);
  if (input.activity !== undefined && !isActivity(input.activity)) return failure('bad_input', 'unknown activity', ['input', 'activity']);
  const { region, engine } = routingFor(input.region);
  const g = region.graph;
  const activities = input.activity ? [input.activity] : ACTIVITIES;
  const weights = activities.map((a) => engine.prepare(a).weights);
  const { kernel } = engine;
  const grid = kernel.snapGrid;
  const inBox = (lon: number, lat: number) => lon >= west && lon <= east && lat >= south && lat <= north;

  // Each way once, with the activities accepting any of its edges.
  const found = new Map<number, { edge: number; accepted: Set<number> }>();
  const col = (lon: number) => Math.min(grid.w - 1, Math.max(0, Math.floor((lon - grid.west) / grid.cellDeg)));
  const row = (lat: number) => Math.min(grid.h - 1, Math.max(0, Math.floor((lat - grid.south) / grid.cellDeg)));
  for (let r = row(south); r <= row(north); r++) {
    for (let c = col(west); c <= col(east); c++) {
      const cell = r * grid.w + c;
      for (let k = grid.cellStart[cell]!; k < grid.cellStart[cell + 1]!; k++) {
        const e = grid.cellItems[k]!;
        const [a, b] = edgeEnds(g, e);
        if (!inBox(lonOf(g, a), latOf(g, a)) && !inBox(lonOf(g, b), latOf(g, b))) continue;
        const way = wayOf(g, e);
        let entry = found.get(way);
        if (!entry) found.set(way, (entry = { edge: e, accepted: new Set() }));
        // An edge is stored once per direction pair in the grid; a oneway may allow only its reverse.
        const reverse = e ^ 1;
        for (const [i, w] of weights.entries()) {
          if (Number.isFinite(w.cost(e)) || Number.isFinite(w.cost(reverse))) entry.accepted.add(i);
        }
      }
    }
  }
  // By OpenStreetMap id: the same order whatever cells the box covers.
  const all = [...found]
    .filter(([, entry]) => input.activity === undefined || entry.accepted.size > 0)
    .sort(([a], [b]) => g.wayOsmId[a]! - g.wayOsmId[b]!);
  const result = all.slice(0, LOOKUP_LIMITS.ways).map(([way, { edge, accepted }]): WayResult => {
    const sac = edgeSac(g, edge);
    return {
      id: g.wayOsmId[way]!,
      name: g.wayName[way] || null,
      highway: highwayTag(edgeHighway(g, edge)),
      surface: g.surfaces[edgeSurface(g, edge)] || null,
      sacScale: sac > 0 ? `T${sac}` : null,
      activityCompatible: [...accepted].sort((x, y) => x - y).map((i) => activities[i] as Activity),
    };
  });
  return { ok: true, ways: result, truncated: all.length > LOOKUP_LIMITS.ways };
}

/** An address has no name of its own: it is called by its street and number ("Carrer Major 11"), as a map labels it. */
function placeName(p: Place): string {
  return p.name || [p.street, p.houseNumber].filter(Boolean).join(' ');
}

function placeResult(p: Place, distance: number | null): PlaceResult {
  return {
    id: `${p.osmType}/${p.osmId}`,
    name: placeName(p),
    kind: p.kind,
    coordinates: [p.lon, p.lat],
    elevation: p.ele,
    houseNumber: p.houseNumber,
    street: p.street,
    distance: distance === null ? null : Math.round(distance),
  };
}
