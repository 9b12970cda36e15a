// Paths to the real extracts in ../shared/data (read-only, never copied into the repo).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_DATA = fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
export const ANDORRA_PBF = `${SHARED_DATA}andorra.osm.pbf`;
export const ANDORRA_HGT = `${SHARED_DATA}N42E001.hgt.zip`;
export const LIECHTENSTEIN_PBF = `${SHARED_DATA}liechtenstein-latest.osm.pbf`;

/**
 * True when every file exists; otherwise prints why the dependent tests are skipped, and throws in CI (CI set):
 * there a missing extract is a failure, never a silent pass (as a missing browser is, ../../helpers/chromium.ts).
 */
export function haveData(...files: string[]): boolean {
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length === 0) return true;
  const why = `real-data tests need ${missing.join(', ')} (see ../shared/data/README.md)`;
  if (process.env.CI) throw new Error(`${why}: missing in CI`);
  console.warn(`skipping real-data tests: ${why}`);
  return false;
}
