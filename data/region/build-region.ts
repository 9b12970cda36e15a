// Turns an OSM extract (+ a DEM) into a Region: CSR graph, places, hazards, routes.
import type { DemGrid } from './dem-grid.js';
import { sampleDem } from './dem.js';
import { OsmCollector } from './osm-collector.js';
import type { OsmExtract } from './osm-extract.js';
import { placeTable } from './place-table.js';
import { buildHazards, buildPlaces, buildRoutes } from './region-lists.js';
import { REGION_FORMAT_VERSION, type Region, type RegionMeta } from './region.js';
import { junctionGraph } from './junction-graph.js';
import { latOf, lonOf, toFixedCoord, WayFlag, type WayTables } from './region-graph.js';
import { RegionInputError } from './region-error.js';

export interface BuildOptions {
  /** Returns the DEM for the region's bbox ([minLon, minLat, maxLon, maxLat] degrees), or null. */
  demFor: (bbox: [number, number, number, number]) => DemGrid | null;
  kind: RegionMeta['kind'];
  sources: RegionMeta['sources'];
  osmTimestamp: string | null;
  /** Default "© OpenStreetMap contributors". */
  attribution?: string;
}

/**
 * Builds the region. Ways are cut where a node is missing from the extract (clipped ways), so no
 * edge jumps a gap. The pieces become a junction graph (junction-graph.ts): junctions in the order of first use
 * by the ways, then each chain's inner nodes (keeps neighbours close). Each node's elevation comes from the DEM
 * (an edge's climb is its ends' difference, edgeRise); a piece's attributes are its way's, so only its way is
 * stored per piece.
 * Everything per node or edge lives in typed arrays, so country-sized extracts fit in memory. The extract is
 * consumed: its positions and way slots are emptied once read.
 */
export function buildRegion(source: OsmExtract | OsmCollector, opts: BuildOptions): Region {
  const osm = source instanceof OsmCollector ? source.toExtract() : source;
  const ways = osm.ways;
  // Pieces: runs of consecutive present slots of one way (repeats dropped), at least two long.
  const usedWays: number[] = []; // graph way index → index in `ways`
  const runSlots = new Int32Array(ways.slots.length);
  const runFirst: number[] = [0];
  const runWay: number[] = [];
  let at = 0;
  for (let r = 0; r < ways.count; r++) {
    const wayIndex = usedWays.length;
    let used = false;
    let runStart = at;
    const flush = (): void => {
      if (at - runStart >= 2) {
        runFirst.push(at);
        runWay.push(wayIndex);
        used = true;
      } else at = runStart;
      runStart = at;
    };
    for (let k = ways.refStart[r]!; k < ways.refStart[r + 1]!; k++) {
      const s = ways.slots[k]!;
      if (s < 0) flush();
      else if (at === runStart || runSlots[at - 1] !== s) runSlots[at++] = s;
    }
    flush();
    if (used) usedWays.push(r);
  }
  const runCount = runWay.length;
  if (runCount === 0) throw new RegionInputError('the extract holds no routable ways (highway=path, track, …)');
  const wayCount = usedWays.length;
  const wayOsmId = new Float64Array(wayCount);
  const wayName: string[] = [];
  for (let w = 0; w < wayCount; w++) {
    wayOsmId[w] = ways.id[usedWays[w]!]!;
    wayName.push(ways.name[usedWays[w]!]!);
  }

  // Graph nodes in order of first use.
  const nodeOfSlot = new Int32Array(osm.lon.length).fill(-1);
  let nodeCount = 0;
  for (let i = 0; i < at; i++) {
    const s = runSlots[i]!;
    if (nodeOfSlot[s] === -1) nodeOfSlot[s] = nodeCount++;
  }
  const nodeLonE7 = new Int32Array(nodeCount);
  const nodeLatE7 = new Int32Array(nodeCount);
  for (let s = 0; s < nodeOfSlot.length; s++) {
    const n = nodeOfSlot[s]!;
    if (n >= 0) {
      nodeLonE7[n] = toFixedCoord(osm.lon[s]!);
      nodeLatE7[n] = toFixedCoord(osm.lat[s]!);
    }
  }
  const coords = { nodeLonE7, nodeLatE7 };
  // The extract's positions and way slots are read: release them (a country's are hundreds of MB) before
  // the edges are made. The extract is the caller's; buildRegion consumes it.
  osm.lon = new Float64Array(0);
  osm.lat = new Float64Array(0);
  ways.slots = new Int32Array(0);
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (let n = 0; n < nodeCount; n++) {
    const lon = lonOf(coords, n);
    const lat = latOf(coords, n);
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  const bbox: [number, number, number, number] = [minLon, minLat, maxLon, maxLat];
  const dem = opts.demFor(bbox);
  const nodeEle = new Float32Array(nodeCount);
  for (let n = 0; n < nodeCount; n++) nodeEle[n] = dem ? sampleDem(dem, lonOf(coords, n), latOf(coords, n)) : Number.NaN;

  // Per-way attributes.
  const surfaces = [''];
  const surfaceIndex = new Map<string, number>([['', 0]]);
  const wHighway = new Uint8Array(wayCount);
  const wSurface = new Uint8Array(wayCount);
  const wSac = new Uint8Array(wayCount);
  const wFlags = new Uint8Array(wayCount); // EdgeFlag bits, as the hazard list reads them
  const wAccess = new Uint16Array(wayCount);
  const wayFlags = new Uint8Array(wayCount); // WayFlag bits: the same and the direction of a oneway
  for (let w = 0; w < wayCount; w++) {
    const r = usedWays[w]!;
    wHighway[w] = ways.highway[r]!;
    const surface = ways.surface[r]!;
    let si = surfaceIndex.get(surface);
    if (si === undefined) {
      // Index 255 collects the rare surfaces beyond the Uint8 range as "unknown".
      si = surfaces.length < 255 ? surfaces.length : 0;
      if (si !== 0) {
        surfaces.push(surface);
        surfaceIndex.set(surface, si);
      }
    }
    wSurface[w] = si;
    wSac[w] = ways.sac[r]!;
    wFlags[w] = ways.flags[r]!;
    wAccess[w] = ways.access[r]!;
    const oneway = ways.oneway[r]!;
    wayFlags[w] = wFlags[w]! | (oneway === 1 ? WayFlag.Oneway : oneway === -1 ? WayFlag.OnewayReversed : 0);
  }

  // Edge ids are u32 (graph.bin): more than 2^32 - 1 directed edges would wrap them around.
  const pieceCount = at - runCount; // straight pieces between consecutive nodes of a run
  if (2 * pieceCount > 2 ** 32 - 1) {
    throw new RangeError(`Invalid typed array length: ${2 * pieceCount} directed edges (graph.bin holds at most 2^32 - 1)`);
  }
  const pieceA = new Uint32Array(pieceCount);
  const pieceB = new Uint32Array(pieceCount);
  const pieceWay = new Uint32Array(pieceCount);
  let piece = 0;
  for (let r = 0; r < runCount; r++) {
    for (let i = runFirst[r]!; i + 1 < runFirst[r + 1]!; i++) {
      pieceA[piece] = nodeOfSlot[runSlots[i]!]!;
      pieceB[piece] = nodeOfSlot[runSlots[i + 1]!]!;
      pieceWay[piece++] = runWay[r]!;
    }
  }
  const wayTables: WayTables = {
    wayOsmId,
    wayHighway: wHighway,
    waySurface: wSurface,
    waySac: wSac,
    wayFlags,
    wayAccess: wAccess,
    wayName,
    surfaces,
  };
  const graph = junctionGraph({ nodeCount, nodeLonE7, nodeLatE7, nodeEle, pieceA, pieceB, pieceWay }, wayTables, bbox);

  const places = buildPlaces(osm.places, dem);
  const hazards = buildHazards(wayOsmId, wayName, wAccess, wFlags);
  const routes = buildRoutes(osm.routes, wayOsmId);
  const meta: RegionMeta = {
    formatVersion: REGION_FORMAT_VERSION,
    kind: opts.kind,
    sources: opts.sources,
    osmTimestamp: opts.osmTimestamp,
    bbox,
    counts: {
      nodes: graph.nodeCount,
      edges: graph.edgeCount,
      ways: wayCount,
      places: places.length,
      hazards: hazards.length,
      routes: routes.length,
      osmNodes: osm.counts.nodes,
      osmWays: osm.counts.ways,
      osmRelations: osm.counts.relations,
    },
    attribution: opts.attribution ?? '© OpenStreetMap contributors',
  };
  return {
    graph,
    places: placeTable(places),
    hazards,
    routes,
    dem,
    meta,
  };
}
