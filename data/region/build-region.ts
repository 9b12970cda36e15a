// Turns collected OSM entities (+ a DEM) into a Region: CSR graph, grid, places, hazards, routes.
import type { DemGrid } from './dem-grid.js';
import { sampleDem } from './dem.js';
import { buildEdgeGrid } from './edge-grid.js';
import { haversine } from './geo.js';
import type { OsmCollector } from './osm-collector.js';
import { bikeOneway, packedAccess, routableHighway, sacScale, wayFlags, type Tags } from './osm-tags.js';
import { createPlaceIndex } from './place-index.js';
import { buildHazards, buildPlaces, buildRoutes } from './region-lists.js';
import { REGION_FORMAT_VERSION, type Region, type RegionMeta } from './region.js';
import { EdgeFlag, type RegionGraph } from './region-graph.js';
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

interface WayPiece {
  way: number; // graph way index
  slots: number[]; // collector node slots, consecutive present nodes
}

/**
 * Builds the region. Ways are cut where a node is missing from the extract (clipped ways), so no
 * edge jumps a gap. Node order is the order of first use by the ways (keeps neighbours close).
 * Ascent/descent per edge come from the DEM at both ends: ascent(a→b) = max(0, ele(b) − ele(a)),
 * and the reverse edge swaps them, so the two directions always agree; 0 where a node has no DEM.
 */
export function buildRegion(osm: OsmCollector, opts: BuildOptions): Region {
  const wayOsmId: number[] = [];
  const wayName: string[] = [];
  const wayTags: Tags[] = [];
  const pieces: WayPiece[] = [];
  for (const w of osm.ways) {
    const tags = w.tags ?? {};
    let run: number[] = [];
    const wayIndex = wayOsmId.length;
    let used = false;
    const flush = (): void => {
      if (run.length >= 2) {
        pieces.push({ way: wayIndex, slots: run });
        used = true;
      }
      run = [];
    };
    for (const ref of w.refs) {
      const s = osm.slotOf.get(ref);
      if (s === undefined) flush();
      else if (run[run.length - 1] !== s) run.push(s);
    }
    flush();
    if (used) {
      wayOsmId.push(w.id);
      wayName.push(tags.name ?? '');
      wayTags.push(tags);
    }
  }
  if (pieces.length === 0) throw new RegionInputError('the extract holds no routable ways (highway=path, track, …)');

  // Graph nodes in order of first use.
  const nodeOfSlot = new Int32Array(osm.lon.length).fill(-1);
  const slotOfNode: number[] = [];
  for (const p of pieces) {
    for (const s of p.slots) {
      if (nodeOfSlot[s] === -1) {
        nodeOfSlot[s] = slotOfNode.length;
        slotOfNode.push(s);
      }
    }
  }
  const nodeCount = slotOfNode.length;
  const nodeLon = new Float64Array(nodeCount);
  const nodeLat = new Float64Array(nodeCount);
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (let n = 0; n < nodeCount; n++) {
    const s = slotOfNode[n]!;
    const lon = osm.lon[s]!;
    const lat = osm.lat[s]!;
    nodeLon[n] = lon;
    nodeLat[n] = lat;
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  const bbox: [number, number, number, number] = [minLon, minLat, maxLon, maxLat];
  const dem = opts.demFor(bbox);
  const nodeEle = new Float32Array(nodeCount);
  for (let n = 0; n < nodeCount; n++) nodeEle[n] = dem ? sampleDem(dem, nodeLon[n]!, nodeLat[n]!) : Number.NaN;

  // Per-way attributes.
  const surfaces = [''];
  const surfaceIndex = new Map<string, number>([['', 0]]);
  const wayCount = wayOsmId.length;
  const wHighway = new Uint8Array(wayCount);
  const wSurface = new Uint8Array(wayCount);
  const wSac = new Uint8Array(wayCount);
  const wFlags = new Uint8Array(wayCount);
  const wAccess = new Uint16Array(wayCount);
  const wOneway = new Int8Array(wayCount);
  for (let w = 0; w < wayCount; w++) {
    const t = wayTags[w]!;
    wHighway[w] = routableHighway(t)!;
    const surface = t.surface ?? '';
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
    wSac[w] = sacScale(t);
    wFlags[w] = wayFlags(t);
    wAccess[w] = packedAccess(t);
    wOneway[w] = bikeOneway(t);
  }

  // CSR: count, prefix sum, fill in piece order.
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (const p of pieces) {
    for (let i = 0; i + 1 < p.slots.length; i++) {
      firstEdge[nodeOfSlot[p.slots[i]!]! + 1]!++;
      firstEdge[nodeOfSlot[p.slots[i + 1]!]! + 1]!++;
    }
  }
  for (let n = 0; n < nodeCount; n++) firstEdge[n + 1]! += firstEdge[n]!;
  const edgeCount = firstEdge[nodeCount]!;
  const edgeTarget = new Uint32Array(edgeCount);
  const edgeLength = new Float32Array(edgeCount);
  const edgeAscent = new Float32Array(edgeCount);
  const edgeDescent = new Float32Array(edgeCount);
  const edgeHighway = new Uint8Array(edgeCount);
  const edgeSurface = new Uint8Array(edgeCount);
  const edgeSac = new Uint8Array(edgeCount);
  const edgeFlags = new Uint8Array(edgeCount);
  const edgeAccess = new Uint16Array(edgeCount);
  const edgeWay = new Uint32Array(edgeCount);
  const cursor = firstEdge.slice(0, nodeCount);
  const put = (a: number, b: number, w: number, len: number, flags: number): void => {
    const e = cursor[a]!++;
    edgeTarget[e] = b;
    edgeLength[e] = len;
    const d = nodeEle[b]! - nodeEle[a]!;
    // biome-ignore lint/complexity/useMathMinMax: NaN compares false, so no DEM gives 0 (Math.max would give NaN)
    edgeAscent[e] = d > 0 ? d : 0;
    edgeDescent[e] = d < 0 ? -d : 0;
    edgeHighway[e] = wHighway[w]!;
    edgeSurface[e] = wSurface[w]!;
    edgeSac[e] = wSac[w]!;
    edgeFlags[e] = flags;
    edgeAccess[e] = wAccess[w]!;
    edgeWay[e] = w;
  };
  for (const p of pieces) {
    const w = p.way;
    const base = wFlags[w]!;
    const fwd = wOneway[w] === -1 ? base | EdgeFlag.OnewayForBikes : base;
    const rev = wOneway[w] === 1 ? base | EdgeFlag.OnewayForBikes : base;
    for (let i = 0; i + 1 < p.slots.length; i++) {
      const a = nodeOfSlot[p.slots[i]!]!;
      const b = nodeOfSlot[p.slots[i + 1]!]!;
      const len = haversine(nodeLon[a]!, nodeLat[a]!, nodeLon[b]!, nodeLat[b]!);
      put(a, b, w, len, fwd);
      put(b, a, w, len, rev);
    }
  }

  const graph: RegionGraph = {
    nodeCount,
    edgeCount,
    bbox,
    nodeLon,
    nodeLat,
    nodeEle,
    firstEdge,
    edgeTarget,
    edgeLength,
    edgeAscent,
    edgeDescent,
    edgeHighway,
    edgeSurface,
    edgeSac,
    edgeFlags,
    edgeAccess,
    edgeWay,
    wayOsmId: Float64Array.from(wayOsmId),
    wayName,
    surfaces,
  };

  const places = buildPlaces(osm, dem);
  const hazards = buildHazards(wayOsmId, wayName, wayTags);
  const routes = buildRoutes(osm, wayOsmId);
  const meta: RegionMeta = {
    formatVersion: REGION_FORMAT_VERSION,
    kind: opts.kind,
    sources: opts.sources,
    osmTimestamp: opts.osmTimestamp,
    bbox,
    counts: {
      nodes: nodeCount,
      edges: edgeCount,
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
    grid: buildEdgeGrid(graph),
    places,
    search: createPlaceIndex(places),
    hazards,
    routes,
    dem,
    meta,
  };
}
