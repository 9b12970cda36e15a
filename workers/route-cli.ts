// `npm run route -- [--region DIR] --activity A --waypoints "lon,lat;lon,lat[;…]" [--avoid TOLLWAY,RESTRICTED_ACCESS] [--json]`
// Routes once in-process on a region folder (or the demo region) and prints one JSON object.
import { parseArgs } from 'node:util';
import { RegionInputError } from '../data/region/region-error.js';
import type { HazardName, LonLat } from './protocol.js';
import { Activity, isActivity } from './profiles.js';
import { loadRoutingRegion } from './region-source.js';

const USAGE =
  'usage: npm run route -- [--region DIR] --activity HIKING_AND_TRAIL|WALKING|TRAIL_RUNNING|MOUNTAIN_BIKING|ROAD_CYCLING ' +
  '--waypoints "lon,lat;lon,lat[;...]" [--avoid TOLLWAY,RESTRICTED_ACCESS] [--json]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      region: { type: 'string' },
      activity: { type: 'string', default: Activity.HIKING_AND_TRAIL },
      waypoints: { type: 'string' },
      avoid: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!isActivity(values.activity)) fail(`unknown activity ${values.activity}`);
  if (!values.waypoints) fail('--waypoints is required');
  const waypoints = values.waypoints.split(';').map((pair): LonLat => {
    const [lon, lat] = pair.split(',').map(Number);
    if (lon === undefined || lat === undefined || !Number.isFinite(lon) || !Number.isFinite(lat)) fail(`bad waypoint "${pair}"`);
    return [lon, lat];
  });
  const avoid = (values.avoid ? values.avoid.split(',') : []).map((h) => h.trim()).filter(Boolean);
  for (const h of avoid) if (h !== 'TOLLWAY' && h !== 'RESTRICTED_ACCESS') fail(`unknown hazard ${h}`);
  let loaded: ReturnType<typeof loadRoutingRegion>;
  try {
    loaded = loadRoutingRegion(values.region);
  } catch (e) {
    // A missing or broken region is the user's input: one line, as `npm run import` reports it (anything
    // else too, with the stack only when CAIRN_DEBUG is set).
    process.stderr.write(`error: ${(e as Error).message}\n`);
    if (!(e instanceof RegionInputError) && process.env.CAIRN_DEBUG) console.error(e);
    process.exit(1);
  }
  const { engine, source, loadMs } = loaded;
  let t0 = performance.now();
  engine.prepare(values.activity); // profile weights and hierarchies, once per activity
  const prepareMs = performance.now() - t0;
  t0 = performance.now();
  const result = engine.directions({ activity: values.activity, waypoints, avoid: avoid as HazardName[] });
  const routeMs = performance.now() - t0;
  if (!result.ok) {
    process.stdout.write(`${JSON.stringify({ ok: false, code: result.code, reason: result.reason, path: result.path ?? null })}\n`);
    process.exitCode = 1;
    return;
  }
  const r = result.routes[0]!;
  const out = {
    ok: true,
    region: source,
    activity: values.activity,
    distance: round(r.distance, 1),
    duration: round(r.duration, 1),
    ascent: round(r.ascent, 1),
    descent: round(r.descent, 1),
    avoidance: r.avoidance,
    advisories: r.advisories.map((a) => ({ ...a, fromDistance: round(a.fromDistance, 1), toDistance: round(a.toDistance, 1) })),
    difficulty: r.trailDifficultyInfo.map((s) => ({ ...s, fromDistance: round(s.fromDistance, 1), toDistance: round(s.toDistance, 1) })),
    coordinateCount: r.coordinates.length / 3,
    snapped: r.snapped.map((s) => ({ lon: round(s.lon, 7), lat: round(s.lat, 7), distance: round(s.distance, 1) })),
    timings: { loadMs: round(loadMs, 1), prepareMs: round(prepareMs, 1), routeMs: round(routeMs, 2) },
  };
  process.stdout.write(`${JSON.stringify(out, null, values.json ? 0 : 2)}\n`);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

main();
