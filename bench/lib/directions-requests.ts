// What the Data API and MCP benches send: fixed-seed routable directions between two network nodes 0.5–4 km apart
// (HIKING_AND_TRAIL, avoiding toll and restricted ways), the GraphQL document selecting every field of Route, and
// wrk scripts that POST a list of bodies in turn.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../data/seeded-random.js';
import { Activity } from '../../contracts/activity.js';
import type { DirectionsInput, DirectionsOutput } from '../../contracts/routing.js';
import type { RouteEngine } from '../../workers/route-engine.js';
import { round } from './stats.js';
import { latOf, lonOf } from '../../data/region/region-graph.js';

export const DIRECTIONS_DOCUMENT = `query Directions($input: DirectionsInput!) {
  directions(input: $input) {
    routes {
      distance duration ascent descent
      geometry { type coordinates }
      avoidance
      advisories { kind access isRestriction osmWayId fromIndex toIndex fromDistance toDistance }
      trailDifficultyInfo { difficulty fromDistance toDistance fromIndex toIndex }
      waypoints { coordinates distance }
    }
  }
}`;

/** Great-circle distance in metres (enough to pick pairs of a hike's length). */
function metres(a: readonly number[], b: readonly number[]): number {
  const rad = Math.PI / 180;
  const x = (b[0]! - a[0]!) * rad * Math.cos(((a[1]! + b[1]!) / 2) * rad);
  const y = (b[1]! - a[1]!) * rad;
  return Math.hypot(x, y) * 6_371_000;
}

/** `count` fixed-seed routable requests between nodes 0.5–4 km apart, with the worker's answer to each. */
export function pickDirections(engine: RouteEngine, count: number): { input: DirectionsInput; output: DirectionsOutput }[] {
  const g = engine.graph;
  const rnd = seededRandom(20151127);
  const picked: { input: DirectionsInput; output: DirectionsOutput }[] = [];
  for (let tries = 0; picked.length < count && tries < count * 200; tries++) {
    const a = Math.floor(rnd() * g.nodeCount);
    const b = Math.floor(rnd() * g.nodeCount);
    const from = [round(lonOf(g, a), 6), round(latOf(g, a), 6)] as [number, number];
    const to = [round(lonOf(g, b), 6), round(latOf(g, b), 6)] as [number, number];
    const d = metres(from, to);
    if (d < 500 || d > 4000) continue;
    const input: DirectionsInput = {
      activity: Activity.HIKING_AND_TRAIL,
      waypoints: [from, to],
      avoid: ['TOLLWAY', 'RESTRICTED_ACCESS'],
      alternatives: 0,
    };
    const output = engine.directions(input);
    if (output.ok) picked.push({ input, output });
  }
  if (picked.length < count) throw new Error(`only ${picked.length} routable requests found`);
  return picked;
}

function luaString(value: string): string {
  return JSON.stringify(value); // a JSON string literal is a valid Lua string literal here (ASCII only)
}

/** A wrk script POSTing `bodies` in turn to `path` with the given headers. */
export function postScript(dir: string, name: string, path: string, headers: Record<string, string>, bodies: string[]): string {
  const lines = ['wrk.method = "POST"'];
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  lines.push(`local bodies = { ${bodies.map(luaString).join(', ')} }`);
  lines.push('local i = 0');
  lines.push(`request = function() i = i + 1; return wrk.format(nil, ${luaString(path)}, nil, bodies[(i % #bodies) + 1]) end`);
  const file = join(dir, `${name}.lua`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
