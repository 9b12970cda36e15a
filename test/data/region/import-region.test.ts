// Imports of the real extracts (Andorra with its SRTM tile, Liechtenstein without DEM).
import { beforeAll, describe, expect, it } from 'vitest';
import { importRegion } from '../../../data/region/import-region.js';
import type { Region } from '../../../data/region/region.js';
import {
  AccessClass,
  AccessMode,
  EdgeFlag,
  edgeFlags,
  edgeRise,
  edgeSac,
  edgeSources,
  HighwayClass,
  latOf,
  lonOf,
  wayOf,
} from '../../../data/region/region-graph.js';
import { nearestEdgeReference } from '../../../geo-wasm/reference/routing.js';
import { unpackAccess } from '../../../data/region/osm-tags.js';
import { expectWellFormed } from './graph-checks.js';
import { ANDORRA_HGT, ANDORRA_PBF, LIECHTENSTEIN_PBF, haveData } from './shared-data.js';

describe.skipIf(!haveData(ANDORRA_PBF, ANDORRA_HGT))('Andorra import with N42E001', () => {
  let region: Region;
  beforeAll(async () => {
    region = await importRegion({ osm: ANDORRA_PBF, dem: [ANDORRA_HGT] });
  });

  it('has plausible node and edge counts for 2,725 ways of which ~1,600 are routable', () => {
    const g = region.graph;
    expect(g.nodeCount).toBeGreaterThan(30_000);
    expect(g.nodeCount).toBeLessThan(69_644);
    expect(g.edgeCount).toBeGreaterThan(2 * (g.nodeCount - 1000));
    expect(g.wayOsmId.length).toBeGreaterThan(1_000);
    expect(g.bbox[0]).toBeGreaterThan(1.3);
    expect(g.bbox[3]).toBeLessThan(42.8);
  });

  it('builds a well-formed CSR where every edge has its reverse', () => {
    expectWellFormed(region.graph);
  });

  it('samples an elevation for every node inside the SRTM tile', () => {
    const ele = region.graph.nodeEle;
    let nan = 0;
    for (const v of ele) if (Number.isNaN(v)) nan++;
    expect(nan).toBe(0);
    expect(Math.min(...ele)).toBeGreaterThan(500);
    expect(Math.max(...ele)).toBeLessThan(3200);
    expect(region.dem).not.toBeNull();
  });

  it('flags the edges of the 5 toll ways and lists them as TOLLWAY hazards', () => {
    const g = region.graph;
    const tollWays = new Set<number>();
    for (let e = 0; e < g.edgeCount; e++) if (edgeFlags(g, e) & EdgeFlag.Toll) tollWays.add(wayOf(g, e));
    expect(tollWays.size).toBe(5);
    const hazards = region.hazards.filter((h) => h.kinds.includes('TOLLWAY'));
    expect(new Set(hazards.map((h) => h.way))).toEqual(tollWays);
  });

  it('keeps sac_scale on some path edges and restricted access as hazards', () => {
    const g = region.graph;
    let sac = 0;
    for (let e = 0; e < g.edgeCount; e++) if (edgeSac(g, e) > 0) sac++;
    expect(sac).toBeGreaterThan(100);
    expect(region.hazards.some((h) => h.kinds.includes('RESTRICTED_ACCESS'))).toBe(true);
    expect(region.hazards.some((h) => h.kinds.includes('PERMISSIVE'))).toBe(true);
    const privateWay = g.wayAccess.findIndex((a) => unpackAccess(a, AccessMode.Foot) === AccessClass.Private);
    expect(privateWay).toBeGreaterThanOrEqual(0);
    expect(g.wayHighway.includes(HighwayClass.Steps)).toBe(true);
  });

  it('lists peaks and huts with a DEM elevation near their ele tag', () => {
    const peaks = [...region.places].filter((p) => p.kind === 'peak');
    const huts = [...region.places].filter((p) => p.kind === 'alpine_hut');
    expect(peaks.length).toBe(106);
    expect(huts.length).toBeGreaterThanOrEqual(11);
    const diffs = [...peaks, ...huts]
      .filter((p) => p.eleTag !== null && p.ele !== null)
      .map((p) => Math.abs(p.ele! - p.eleTag!))
      .sort((a, b) => a - b);
    expect(diffs.length).toBeGreaterThan(50);
    // SRTM3 (90 m cells) rounds off sharp summits: the median stays small, a few outliers remain.
    expect(diffs[Math.floor(diffs.length / 2)]!).toBeLessThan(50);
    expect(diffs[Math.floor(diffs.length * 0.9)]!).toBeLessThan(100);
  });

  it('finds a known peak and a known hut by name, ignoring case and accents', () => {
    const [peak] = region.places.search("pica d'estats");
    expect(peak?.name).toBe("Pica d'Estats");
    expect(peak?.kind).toBe('peak');
    const [hut] = region.places.search('refugi comapedrosa');
    expect(hut?.name).toBe('Refugi de la Comapedrosa');
    expect(region.places.search('avinguda carlemany 93')[0]?.houseNumber).toBe('93');
  });

  it('reads the hiking route relations with their member ways', () => {
    const gr11 = region.routes.find((r) => r.ref === 'GR-11');
    expect(gr11?.name).toBe('GR-11 Senda Pirenaica');
    expect(gr11!.ways.filter((w) => w >= 0).length).toBeGreaterThan(5);
  });

  it('snaps a point near a trail to the nearest edge', () => {
    const g = region.graph;
    const n = Math.floor(g.nodeCount / 2);
    const snap = nearestEdgeReference(g, edgeSources(g), lonOf(g, n) + 0.0001, latOf(g, n) + 0.0001);
    expect(snap).not.toBeNull();
    expect(snap!.distance).toBeLessThan(16);
  });
});

describe.skipIf(!haveData(LIECHTENSTEIN_PBF))('Liechtenstein import without DEM', () => {
  it('imports with NaN elevations, zero climb, a well-formed graph and its hiking routes', async () => {
    const region = await importRegion({ osm: LIECHTENSTEIN_PBF });
    const g = region.graph;
    expect(g.nodeCount).toBeGreaterThan(40_000);
    expectWellFormed(g);
    expect(Number.isNaN(g.nodeEle[0])).toBe(true);
    for (let e = 0; e < g.edgeCount; e++) expect(edgeRise(g, e)).toBe(0);
    expect(region.dem).toBeNull();
    expect(region.routes.length).toBeGreaterThan(150);
    expect([...region.places].some((p) => p.kind === 'address')).toBe(true);
  });
});
