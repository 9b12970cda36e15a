// `npm run route -- [--region DIR] --activity A --waypoints "lon,lat;lon,lat[;…]" [--avoid TOLLWAY,RESTRICTED_ACCESS]
//   [--alternatives N] [--geometry] [--json]`
// Routes once in-process on a region folder (or the demo region) and prints one JSON object: the first
// route's measures at the top level, and with --alternatives the other routes found under `alternatives`.
// --geometry adds each route's coordinates (lon, lat, ele) as the Data API's directions returns them (the same text:
// 7 decimals of a degree, 0.1 m).
import { parseArgs } from 'node:util';
import { RegionInputError } from '../data/region/region-error.js';
import { Activity, type HazardName } from '../contracts/activity.js';
import { type LonLat, MAX_ALTERNATIVES, type RouteResult } from '../contracts/routing.js';
import { positionsJson } from './positions-json.js';
import { isActivity } from './profiles.js';
import { loadRoutingRegion } from './region-source.js';

const USAGE =
  'usage: npm run route -- [--region DIR] --activity HIKING_AND_TRAIL|WALKING|TRAIL_RUNNING|MOUNTAIN_BIKING|ROAD_CYCLING ' +
  '--waypoints "lon,lat;lon,lat[;...]" [--avoid TOLLWAY,RESTRICTED_ACCESS] [--alternatives 0-3] [--geometry] [--json]';

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
      alternatives: { type: 'string' },
      geometry: { type: 'boolean', default: false },
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
  const alternatives = values.alternatives === undefined ? 0 : Number(values.alternatives);
  if (!Number.isInteger(alternatives) || alternatives < 0 || alternatives > MAX_ALTERNATIVES) {
    fail(`--alternatives must be a whole number from 0 to ${MAX_ALTERNATIVES}`);
  }
  let loaded: ReturnType<typeof loadRoutingRegion>;
  try {
    loaded = loadRoutingRegion(values.region, { log: (line) => process.stderr.write(`${line}\n`) });
  } catch (e) {
    // A missing or broken region is the user's input: one line, as `npm run import` reports it (anything
    // else too, with the stack only when CAIRN_DEBUG is set).
    process.stderr.write(`error: ${(e as Error).message}\n`);
    if (!(e instanceof RegionInputError) && process.env.CAIRN_DEBUG) console.error(e);
    process.exit(1);
  }
  const { engine, source, loadMs } = loaded;
  let t0 = performance.now();
  engine.prepare(values.activity); // nothing left to do: the region's routing came prepared
  const prepareMs = performance.now() - t0;
  t0 = performance.now();
  const result = engine.directions({ activity: values.activity, waypoints, avoid: avoid as HazardName[], alternatives });
  const routeMs = performance.now() - t0;
  if (!result.ok) {
    process.stdout.write(`${JSON.stringify({ ok: false, code: result.code, reason: result.reason, path: result.path ?? null })}\n`);
    process.exitCode = 1;
    return;
  }
  const [first, ...others] = result.routes;
  const out = {
    ok: true,
    region: source,
    activity: values.activity,
    ...summary(first!, values.geometry),
    snapped: first!.snapped.map((s) => ({ lon: round(s.lon, 7), lat: round(s.lat, 7), distance: round(s.distance, 1) })),
    ...(values.alternatives === undefined ? {} : { alternatives: others.map((r) => summary(r, values.geometry)) }),
    timings: { loadMs: round(loadMs, 1), prepareMs: round(prepareMs, 1), routeMs: round(routeMs, 2) },
  };
  process.stdout.write(`${JSON.stringify(out, null, values.json ? 0 : 2)}\n`);
}

/** One route's measures, rounded (0.1 m, 0.1 s), with its coordinates when asked for. */
function summary(r: RouteResult, geometry: boolean) {
  return {
    distance: round(r.distance, 1),
    duration: round(r.duration, 1),
    ascent: round(r.ascent, 1),
    descent: round(r.descent, 1),
    avoidance: r.avoidance,
    advisories: r.advisories.map((a) => ({ ...a, fromDistance: round(a.fromDistance, 1), toDistance: round(a.toDistance, 1) })),
    difficulty: r.trailDifficultyInfo.map((s) => ({ ...s, fromDistance: round(s.fromDistance, 1), toDistance: round(s.toDistance, 1) })),
    coordinateCount: r.coordinates.length / 3,
    ...(geometry ? { coordinates: JSON.parse(positionsJson(r.coordinates)) as number[][] } : {}),
  };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

main();
