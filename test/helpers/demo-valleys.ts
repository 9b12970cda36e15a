// Region folders for tests of several regions: the demo valley written as a region folder as an import writes one
// (prepared routing, tile archive), wherever it is placed. Two valleys 0.1° of longitude apart share no network (about
// 1.8 km lie between them).
import { buildDemoRegion, DEMO_ORIGIN, type DemoPlacement } from '../../data/region/demo-region.js';
import { writeRegionWithTiles } from '../../data/region/cut-tile-archive.js';
import { prepareRoutingFiles } from '../../data/region/prepare-routing.js';
import type { Region } from '../../data/region/region.js';

/** The second valley: east of the demo's, its ids apart from the demo's. */
export const EAST_VALLEY: Required<DemoPlacement> = { origin: { lon: DEMO_ORIGIN.lon + 0.1, lat: DEMO_ORIGIN.lat }, idOffset: 1_000_000 };

/** Writes a demo valley placed at `placement` as the region folder `dir` (atomically, as an import does). */
export async function writeValley(dir: string, placement: DemoPlacement = {}): Promise<Region> {
  const region = buildDemoRegion(placement);
  await writeRegionWithTiles(dir, region, () => undefined, {}, await prepareRoutingFiles(region.graph));
  return region;
}
