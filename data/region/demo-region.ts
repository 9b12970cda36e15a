// The built-in demo region: a generated mountain valley fed as OSM-like entities through buildRegion.
import { DEM_VOID, type DemGrid } from './dem-grid.js';
import { sampleDem } from './dem.js';
import { buildRegion } from './build-region.js';
import { OsmCollector } from './osm-collector.js';
import type { Tags } from './osm-tags.js';
import type { Region } from './region.js';
import { writeRegion } from './region-folder.js';
import { seededRandom } from '../seeded-random.js';

/** Origin of the valley's local metric frame (degrees); the valley spans about ±3.2 km around it. */
export const DEMO_ORIGIN = { lon: 1.56, lat: 42.5 } as const;
const HALF = 3200; // metres from the origin to the box edge
const M_PER_DEG_LAT = 110_574;
const mPerDegLon = (lat: number) => 111_320 * Math.cos((lat * Math.PI) / 180);

/** Where a demo valley lies and how its OSM ids are numbered (a second valley beside the first: tests of several regions). */
export interface DemoPlacement {
  /** Its origin (degrees): DEMO_ORIGIN unless given. */
  origin?: { lon: number; lat: number };
  /** Added to every node, way and relation id, so that two valleys share none. */
  idOffset?: number;
}

type XY = readonly [number, number]; // metres east, north of DEMO_ORIGIN

const PEAKS: readonly { name: string; at: XY; height: number }[] = [
  { name: 'Pic de Cairn', at: [1800, 2500], height: 620 },
  { name: 'Tossal Gran', at: [-2200, 2300], height: 520 },
  { name: 'Pic Negre de la Vall', at: [-1000, -2600], height: 560 },
  { name: 'Roc del Migdia', at: [2300, -2300], height: 430 },
];

/** The valley axis (river) meanders around y = 0. */
const axisY = (x: number): number => 250 * Math.sin(x / 1400);

/** Generates the elevation grid (SRTM3 spacing) with valley, side slopes, summits and noise. */
function demoDem(rand: () => number, origin: { lon: number; lat: number }): DemGrid {
  const M_PER_DEG_LON = mPerDegLon(origin.lat);
  const cellDeg = 1 / 1200;
  const margin = 400;
  const west = Math.floor((origin.lon - (HALF + margin) / M_PER_DEG_LON) / cellDeg) * cellDeg;
  const north = Math.ceil((origin.lat + (HALF + margin) / M_PER_DEG_LAT) / cellDeg) * cellDeg;
  const cols = Math.ceil((2 * (HALF + margin)) / M_PER_DEG_LON / cellDeg) + 2;
  const rows = Math.ceil((2 * (HALF + margin)) / M_PER_DEG_LAT / cellDeg) + 2;
  // Value noise on a 400 m lattice, smoothly interpolated.
  const L = 400;
  const lat0 = Math.ceil((2 * HALF + 2 * margin) / L) + 3;
  const lattice = Array.from({ length: lat0 * lat0 }, () => rand() * 2 - 1);
  const noise = (x: number, y: number): number => {
    const gx = (x + HALF + margin) / L + 1;
    const gy = (y + HALF + margin) / L + 1;
    const ix = Math.floor(gx);
    const iy = Math.floor(gy);
    const s = (t: number): number => t * t * (3 - 2 * t);
    const fx = s(gx - ix);
    const fy = s(gy - iy);
    const v = (i: number, j: number): number => lattice[Math.min(lat0 - 1, j) * lat0 + Math.min(lat0 - 1, i)] ?? 0;
    const top = v(ix, iy) * (1 - fx) + v(ix + 1, iy) * fx;
    const bot = v(ix, iy + 1) * (1 - fx) + v(ix + 1, iy + 1) * fx;
    return top * (1 - fy) + bot * fy;
  };
  const samples = new Int16Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = (west + c * cellDeg - origin.lon) * M_PER_DEG_LON;
      const y = (north - r * cellDeg - origin.lat) * M_PER_DEG_LAT;
      samples[r * cols + c] = Math.round(elevation(x, y, noise));
    }
  }
  samples[0] = DEM_VOID; // one void corner sample, as real SRTM tiles have, exercises the void path
  return { west, north, cellDeg, cols, rows, samples };
}

function elevation(x: number, y: number, noise: (x: number, y: number) => number): number {
  const d = y - axisY(x);
  let h = 1150 + 0.03 * (x + HALF) + 1250 * (1 - Math.exp(-((d / 1700) ** 2)));
  for (const p of PEAKS) {
    const r2 = (x - p.at[0]) ** 2 + (y - p.at[1]) ** 2;
    h += p.height * Math.exp(-r2 / (2 * 650 ** 2));
  }
  return h + 45 * noise(x, y) * Math.min(1, Math.abs(d) / 600);
}

/** Builds OSM-like entities for the valley into a collector (deterministic for a seed). */
function demoEntities(rand: () => number, dem: DemGrid, origin: { lon: number; lat: number }, idOffset: number): OsmCollector {
  const osm = new OsmCollector();
  const M_PER_DEG_LON = mPerDegLon(origin.lat);
  let nextNode = 1 + idOffset;
  let nextWay = 1 + idOffset;
  const toLonLat = ([x, y]: XY): [number, number] => [origin.lon + x / M_PER_DEG_LON, origin.lat + y / M_PER_DEG_LAT];
  const pos = new Map<number, XY>();
  const node = (at: XY, tags?: Tags): number => {
    const id = nextNode++;
    const [lon, lat] = toLonLat(at);
    // Round like OSM (7 decimals) so imports and the demo hold the same precision.
    osm.addNode({ id, lon: Math.round(lon * 1e7) / 1e7, lat: Math.round(lat * 1e7) / 1e7, tags });
    pos.set(id, at);
    return id;
  };
  const way = (refs: number[], tags: Tags): number => {
    const id = nextWay++;
    osm.addWay({ id, refs, tags });
    return id;
  };
  /** Nodes from an existing node through waypoints, every ~`step` m with a little jitter. */
  const line = (from: number, through: readonly XY[], step: number, jitter: number, end?: number): number[] => {
    const refs = [from];
    let cur = pos.get(from)!;
    const targets = end !== undefined ? [...through, pos.get(end)!] : through;
    targets.forEach((t, ti) => {
      const len = Math.hypot(t[0] - cur[0], t[1] - cur[1]);
      const n = Math.max(1, Math.round(len / step));
      for (let i = 1; i <= n; i++) {
        const last = ti === targets.length - 1 && i === n;
        if (last && end !== undefined) {
          refs.push(end);
          break;
        }
        const k = i / n;
        const j = i === n ? 0 : jitter;
        refs.push(node([cur[0] + (t[0] - cur[0]) * k + (rand() - 0.5) * j, cur[1] + (t[1] - cur[1]) * k + (rand() - 0.5) * j]));
      }
      cur = t;
    });
    return refs;
  };
  /** Switchback waypoints between two points: alternate sideways by `swing` every `leg` metres. */
  const zigzag = (a: XY, b: XY, leg: number, swing: number): XY[] => {
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const n = Math.max(1, Math.round(len / leg));
    const nx = -(b[1] - a[1]) / len;
    const ny = (b[0] - a[0]) / len;
    const pts: XY[] = [];
    for (let i = 1; i < n; i++) {
      const s = (i % 2 === 0 ? 1 : -1) * swing;
      pts.push([a[0] + ((b[0] - a[0]) * i) / n + nx * s, a[1] + ((b[1] - a[1]) * i) / n + ny * s]);
    }
    pts.push(b);
    return pts;
  };
  const last = (refs: number[]): number => refs[refs.length - 1]!;
  /** An `ele` tag a mapper could have surveyed: the DEM plus a few metres (summits are sharper). */
  const eleTag = (p: XY): string =>
    String(Math.round(sampleDem(dem, origin.lon + p[0] / M_PER_DEG_LON, origin.lat + p[1] / M_PER_DEG_LAT) + 8));
  const at = (refs: number[], frac: number): number => refs[Math.round((refs.length - 1) * frac)]!;

  // Valley road, west → east, along the river.
  const roadPts: XY[] = [];
  for (let x = -HALF; x <= HALF; x += 200) roadPts.push([x, axisY(x) + 60]);
  const road = line(node(roadPts[0]!), roadPts.slice(1), 30, 6);
  const roadWest = road.slice(0, Math.ceil(road.length / 2) + 1);
  const roadEast = road.slice(Math.ceil(road.length / 2));
  const gr: number[] = []; // ways of the hiking route, in order
  way(roadWest, { highway: 'secondary', name: 'Carretera de la Vall', ref: 'CV-1', surface: 'asphalt' });
  way(roadEast, { highway: 'secondary', name: 'Carretera de la Vall', ref: 'CV-1', surface: 'asphalt' });

  // The one toll road: from the east end of the valley up to the pass.
  const pass: XY = [3000, 1500];
  const toll = line(at(road, 0.85), zigzag(pos.get(at(road, 0.85))!, pass, 350, 120), 25, 5);
  way(toll, { highway: 'tertiary', name: 'Carretera del Coll', toll: 'yes', surface: 'asphalt' });
  node(pass, { natural: 'saddle', name: 'Coll de Cairn' });

  // The village: place node, main street with house numbers, side streets, square, steps.
  const village: XY = [0, axisY(0) + 200];
  node(village, { place: 'village', name: 'Vilanova de Cairn' });
  const mainStreet = line(
    at(road, 0.45),
    [
      [-150, 260],
      [150, 270],
      [350, 250],
    ],
    30,
    4,
    at(road, 0.56),
  );
  way(mainStreet, { highway: 'residential', name: 'Carrer Major', surface: 'asphalt' });
  mainStreet.slice(1, -1).forEach((id, i) => {
    const p = pos.get(id)!;
    const side = i % 2 === 0 ? 1 : -1;
    node([p[0] + 6, p[1] + 14 * side], { 'addr:housenumber': String(i + 1), 'addr:street': 'Carrer Major' });
  });
  // Two houses mapped as building outlines (address on a way, positioned at its centroid).
  for (const [k, base] of [
    [0, [-60, 330]],
    [1, [60, 335]],
  ] as const) {
    const ring = [
      node([base[0], base[1]]),
      node([base[0] + 12, base[1]]),
      node([base[0] + 12, base[1] + 10]),
      node([base[0], base[1] + 10]),
    ];
    way([...ring, ring[0]!], { building: 'house', 'addr:housenumber': `${20 + k}`, 'addr:street': 'Carrer de la Font' });
  }
  const font = line(
    at(mainStreet, 0.3),
    [
      [-80, 380],
      [80, 390],
    ],
    30,
    3,
  );
  way(font, { highway: 'residential', name: 'Carrer de la Font', oneway: 'yes' });
  const riu = line(
    at(mainStreet, 0.7),
    [
      [200, 150],
      [260, axisY(260) + 10],
    ],
    30,
    3,
  );
  way(riu, { highway: 'living_street', name: 'Carrer del Riu' });
  const square = line(
    at(mainStreet, 0.5),
    [
      [40, 200],
      [0, 180],
    ],
    15,
    0,
    at(mainStreet, 0.45),
  );
  way(square, { highway: 'pedestrian', name: 'Plaça Major', surface: 'paving_stones' });
  const stepsTop = line(last(font), [[120, 430]], 12, 0);
  way(stepsTop, { highway: 'steps', name: "Escales de l'Església", step_count: '64' });
  const mirador = line(last(stepsTop), [[170, 520]], 12, 6);
  way(mirador, { highway: 'footway', surface: 'gravel' });
  node([175, 525], { tourism: 'viewpoint', name: 'Mirador del Poble' });
  const destination = line(
    at(font, 0.5),
    [
      [-200, 420],
      [-320, 470],
    ],
    30,
    4,
  );
  way(destination, { highway: 'residential', name: 'Carrer de les Bordes', access: 'destination' });

  // River: cycleway on the south bank with a bridge to the road.
  const riverPts: XY[] = [];
  for (let x = -2400; x <= 2400; x += 200) riverPts.push([x, axisY(x) - 50]);
  const bridgeStart = node(riverPts[0]!);
  const cycle = line(bridgeStart, riverPts.slice(1), 20, 6);
  way(cycle, { highway: 'cycleway', name: 'Via Verda del Riu', surface: 'compacted', foot: 'yes' });
  way([at(cycle, 0.5), at(road, 0.5)], { highway: 'footway', bridge: 'yes', name: 'Pont Vell' });
  way([at(cycle, 0.1), at(road, 0.13)], { highway: 'track', bridge: 'yes', tracktype: 'grade2' });

  // Farm and hotel roads with restricted access; a permissive short-cut; a closed quarry track.
  const farm = line(
    at(road, 0.2),
    [
      [-1800, -500],
      [-1700, -750],
    ],
    20,
    6,
  );
  way(farm, { highway: 'service', access: 'private', name: 'Camí de Cal Pastor' });
  const hotel = line(
    at(road, 0.65),
    [
      [1100, 700],
      [1200, 900],
    ],
    20,
    6,
  );
  way(hotel, { highway: 'service', access: 'customers', name: "Accés Hotel L'Avet" });
  const shortcut = line(at(farm, 0.5), [[-1500, -200]], 12, 8, at(road, 0.26));
  way(shortcut, { highway: 'path', access: 'permissive', surface: 'ground', sac_scale: 'hiking' });
  const quarry = line(at(road, 0.35), [[-700, -600]], 20, 6);
  way(quarry, { highway: 'track', access: 'no', name: 'Pista de la Pedrera' });
  const forestry = line(last(farm), [[-1500, -1300]], 20, 10);
  way(forestry, { highway: 'track', access: 'forestry', tracktype: 'grade3', surface: 'dirt' });
  const hamlet: XY = [-2300, -600];
  node(hamlet, { place: 'hamlet', name: 'Borda Vella' });
  const hamletTrack = line(at(road, 0.12), [hamlet], 20, 10);
  way(hamletTrack, { highway: 'track', tracktype: 'grade2', surface: 'gravel', bicycle: 'designated' });

  // Tracks climbing both slopes, then paths with rising sac_scale to huts and summits.
  const northTrack = line(at(mainStreet, 0.9), zigzag([400, 300], [900, 1500], 300, 140), 20, 10);
  gr.push(way(northTrack, { highway: 'track', tracktype: 'grade3', surface: 'gravel', name: 'Pista de la Coma' }));
  const southTrack = line(at(cycle, 0.55), zigzag([300, -100], [-300, -1400], 300, 140), 20, 10);
  way(southTrack, { highway: 'track', tracktype: 'grade4', surface: 'dirt', name: "Pista de l'Obaga" });

  const hutN: XY = [1300, 1900];
  node(hutN, { tourism: 'alpine_hut', name: "Refugi de l'Estany", ele: eleTag(hutN) });
  const toHutN = line(last(northTrack), zigzag([900, 1500], hutN, 200, 60), 12, 8);
  gr.push(way(toHutN, { highway: 'path', sac_scale: 'hiking', surface: 'ground', name: 'Camí del Refugi' }));
  const toPicCairn = line(last(toHutN), zigzag(hutN, PEAKS[0]!.at, 180, 70), 10, 6);
  const split = Math.round(toPicCairn.length * 0.6);
  gr.push(way(toPicCairn.slice(0, split + 1), { highway: 'path', sac_scale: 'mountain_hiking', trail_visibility: 'good' }));
  gr.push(way(toPicCairn.slice(split), { highway: 'path', sac_scale: 'demanding_mountain_hiking', surface: 'rock' }));

  const toTossal = line(at(northTrack, 0.5), zigzag([600, 900], PEAKS[1]!.at, 220, 80), 10, 6);
  const t1 = Math.round(toTossal.length * 0.5);
  const t2 = Math.round(toTossal.length * 0.8);
  way(toTossal.slice(0, t1 + 1), { highway: 'path', sac_scale: 'mountain_hiking' });
  way(toTossal.slice(t1, t2 + 1), { highway: 'path', sac_scale: 'alpine_hiking', surface: 'rock' });
  way(toTossal.slice(t2), { highway: 'path', sac_scale: 'demanding_alpine_hiking', trail_visibility: 'bad' });
  // An airy ridge between the two northern summits.
  const ridge = line(
    last(toTossal),
    [
      [-200, 2800],
      [900, 2700],
    ],
    10,
    6,
    last(toPicCairn),
  );
  gr.push(way(ridge, { highway: 'path', sac_scale: 'difficult_alpine_hiking', name: 'Cresta dels Tossals' }));

  const cabana: XY = [-600, -1900];
  node(cabana, { tourism: 'wilderness_hut', name: 'Cabana del Pastor' });
  const toCabana = line(last(southTrack), zigzag([-300, -1400], cabana, 200, 60), 12, 8);
  way(toCabana, { highway: 'bridleway', surface: 'ground', sac_scale: 'hiking' });
  const toNegre = line(last(toCabana), zigzag(cabana, PEAKS[2]!.at, 200, 70), 10, 6);
  way(toNegre, { highway: 'path', sac_scale: 'demanding_mountain_hiking' });
  const shelter: XY = [1700, -1500];
  node(shelter, { amenity: 'shelter', shelter_type: 'basic_hut', name: 'Orri de la Coma' });
  const toShelter = line(at(southTrack, 0.4), zigzag([100, -600], shelter, 220, 70), 12, 8);
  way(toShelter, { highway: 'path', sac_scale: 'mountain_hiking', horse: 'no' });
  const toMigdia = line(last(toShelter), zigzag(shelter, PEAKS[3]!.at, 200, 60), 10, 6);
  way(toMigdia, { highway: 'footway', sac_scale: 'alpine_hiking' });
  node([2100, -1900], { tourism: 'viewpoint', name: 'Mirador del Migdia' });

  // Loops, so that routes have alternatives: an old mule path to the pass (around the toll road),
  // a traverse between the southern huts, and a balcony path from the village to the hamlet.
  const oldPass = line(at(toHutN, 0.5), zigzag([1100, 1700], pass, 250, 50), 12, 5, last(toll));
  way(oldPass, { highway: 'path', sac_scale: 'mountain_hiking', name: 'Camí Vell del Coll' });
  const traverse = line(
    last(toCabana),
    [
      [500, -1800],
      [1200, -1600],
    ],
    12,
    6,
    at(toMigdia, 0.15),
  );
  way(traverse, { highway: 'path', sac_scale: 'hiking', name: 'Camí de les Obagues' });
  const balcony = line(
    last(destination),
    [
      [-900, 700],
      [-1600, 500],
      [-2100, 0],
    ],
    12,
    6,
    last(hamletTrack),
  );
  way(balcony, { highway: 'path', sac_scale: 'hiking', surface: 'ground', name: 'Camí Balcó' });
  const hotelPath = line(at(hotel, 0.4), [[1000, 650]], 12, 4, at(northTrack, 0.3));
  way(hotelPath, { highway: 'footway', surface: 'gravel' });

  for (const p of PEAKS) node(p.at, { natural: 'peak', name: p.name, ele: eleTag(p.at) });
  node([-2700, 1400], { natural: 'peak' }); // an unnamed summit, as real data has

  // A hiking route through the valley and over the northern summits.
  osm.addRelation({
    id: 1 + idOffset,
    members: gr.map((ref) => ({ type: 'way' as const, ref, role: '' })),
    tags: { type: 'route', route: 'hiking', name: 'Volta de la Vall de Cairn', ref: 'GR-C1', network: 'lwn' },
  });
  osm.addRelation({
    id: 2 + idOffset,
    members: [{ type: 'way', ref: nextWay + 100, role: '' }], // a member outside the region
    tags: { type: 'route', route: 'foot', name: 'Camí dels Pastors', ref: 'PR-C2', network: 'lwn' },
  });
  return osm;
}

/** The demo region, built in memory (about 3 k nodes; identical on every call with the same placement). */
export function buildDemoRegion({ origin = DEMO_ORIGIN, idOffset = 0 }: DemoPlacement = {}): Region {
  const rand = seededRandom(0xca12);
  const dem = demoDem(rand, origin);
  const osm = demoEntities(rand, dem, origin, idOffset);
  return buildRegion(osm, {
    demFor: () => dem,
    kind: 'demo',
    sources: { osm: null, dem: [] },
    osmTimestamp: null,
    attribution: 'Cairn demo region (generated, fictional)',
  });
}

/** Writes the demo region as a region folder at `dir` (atomically) and returns it. */
export function writeDemoRegion(dir: string): Region {
  const region = buildDemoRegion();
  writeRegion(dir, region);
  return region;
}
