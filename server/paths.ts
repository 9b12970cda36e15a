// Locates the repository root, so that files shipped beside the code (assets, migrations) are found
// both when running from the TypeScript sources and from the compiled dist/ folder.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

/** Absolute path of the folder holding package.json. */
export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
