// Picks the region to serve: the folder at REGION_PATH when configured, else the built-in demo.
import { buildDemoRegion } from './demo-region.js';
import type { Region } from './region.js';
import { loadRegion } from './region-folder.js';

/**
 * Loads the region folder at `regionPath`, or builds the demo region in memory (~0.1 s) when no
 * path is configured (undefined or ""). A configured but unreadable folder throws
 * RegionInputError rather than silently falling back to the demo.
 */
export function openRegion(regionPath: string | undefined): Region {
  return regionPath ? loadRegion(regionPath) : buildDemoRegion();
}
