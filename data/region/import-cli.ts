// `npm run import -- --osm FILE.osm.pbf [--dem FILE.hgt[.zip] ...] [--out DIR]`: builds a region folder.
import { parseArgs } from 'node:util';
import { importRegion } from './import-region.js';
import { RegionInputError } from './region-error.js';

const USAGE = 'usage: npm run import -- --osm FILE.osm.pbf [--dem FILE.hgt[.zip] ...] [--out DIR (default var/region)]';

async function main(): Promise<number> {
  let values: { osm?: string; dem?: string[]; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        osm: { type: 'string' },
        dem: { type: 'string', multiple: true },
        out: { type: 'string', default: 'var/region' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
    }));
  } catch (e) {
    console.error(`error: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.osm) {
    console.error(`error: --osm is required\n${USAGE}`);
    return 2;
  }
  const started = performance.now();
  try {
    const region = await importRegion({ osm: values.osm, dem: values.dem ?? [], out: values.out });
    const c = region.meta.counts;
    if ((values.dem ?? []).length > 0) {
      let missing = 0;
      for (const v of region.graph.nodeEle) if (Number.isNaN(v)) missing++;
      if (missing > 0) console.warn(`warning: ${missing} of ${c.nodes} nodes lie outside the DEM tiles (no elevation)`);
    }
    const secs = ((performance.now() - started) / 1000).toFixed(2);
    console.log(
      `region written to ${values.out}: ${c.nodes} nodes, ${c.edges} edges, ${c.ways} ways, ` +
        `${c.places} places, ${c.hazards} hazard ways, ${c.routes} hiking routes, ` +
        `DEM ${region.dem ? `${region.dem.cols}x${region.dem.rows}` : 'none'} (${secs} s)`,
    );
    return 0;
  } catch (e) {
    // Bad input is a RegionInputError; anything else (a full disk, a bug) is also reported on one
    // line, with the stack only when CAIRN_DEBUG is set.
    console.error(`error: ${(e as Error).message}`);
    if (!(e instanceof RegionInputError) && process.env.CAIRN_DEBUG) console.error(e);
    return 1;
  }
}

process.exitCode = await main();
