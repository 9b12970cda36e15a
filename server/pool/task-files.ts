// Which task module each worker task runs from: the pool's only tie to the files of workers/, named as
// strings so that the main thread never loads a task module.
import type { TaskName } from '../../contracts/task-map.js';

/**
 * The task module each task runs from, one per domain (compiled file name, in the workers folder: dist/workers/ in production).
 * A task module may return bytes as `Piscina.move(bytes)` at the top level: they are transferred, not copied.
 */
export const TASK_FILES: Readonly<Record<TaskName, string>> = {
  directions: 'routing.js',
  snapLine: 'routing.js',
  reachable: 'routing.js',
  isochrone: 'routing.js',
  suggestions: 'routing.js',
  snap: 'routing.js',
  directionsBatch: 'routing.js',
  snapLineBatch: 'routing.js',
  ping: 'routing.js',
  dropRegions: 'routing.js',
  regionOutline: 'routing.js',
  analyze: 'line-analysis.js',
  measureLines: 'line-analysis.js',
  splitLine: 'line-analysis.js',
  nearestPoints: 'line-analysis.js',
  readImport: 'transfer.js',
  writeExport: 'transfer.js',
  trailTile: 'trail-tiles.js',
  trailTileArchive: 'trail-tiles.js',
  trailTileBatch: 'trail-tiles.js',
  mergeTrailTiles: 'trail-tiles.js',
  overlayTile: 'overlay-tiles.js',
  places: 'region-lookup.js',
  place: 'region-lookup.js',
  ways: 'region-lookup.js',
  matchZones: 'zone-match.js',
};
