// The thread boundary is the folder boundary: workers/ runs in worker threads and never reaches into server/, the
// main thread never loads a module a worker task runs from, and contracts/ and lib/ are leaves both sides share.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TASK_FILES } from '../../server/pool/task-files.js';
import { importSpecifiers, importsOf, isUnder, ROOT, reachableFrom, resolveImport, sourceFiles } from './import-graph.js';

/** The task modules the pool loads (workers/<file>.ts), from the pool's own table. */
const TASK_MODULES = [...new Set(Object.values(TASK_FILES))].map((file) => `workers/${file.replace(/\.js$/, '.ts')}`).sort();

/**
 * Modules of workers/ the main thread may import, and why. Each is a table both threads read, not a task
 * module, and imports nothing but data/ and contracts/ (checked below).
 */
const SHARED_WORKER_MODULES: Readonly<Record<string, string>> = {
  // The activity profiles: the Studio's activity catalog describes each from the profile routing uses.
  'workers/profiles.ts': 'server/embed/studio-catalog.ts',
};

/** `file`'s imports that resolve under any of `folders`, as "file → import" lines. */
function importsInto(file: string, folders: readonly string[]): string[] {
  return importsOf(file)
    .filter((path) => folders.some((folder) => isUnder(path, folder)))
    .map((path) => `${file} → ${path}`);
}

describe('import reading', () => {
  it('finds value, type-only, multi-line, re-exported and dynamic imports, and no import in a comment', () => {
    const source = [
      "import { a } from '../server/a.js';",
      "import type { B } from '../server/b.js';",
      'import {\n  c,\n  type D,\n} from "../server/c.js";',
      "export { e } from '../server/e.js';",
      "export type { F } from '../server/f.js';",
      "const g = await import('../server/g.js');",
      "import '../server/h.js';",
      "// import { x } from '../server/x.js';",
      "/* import { y } from '../server/y.js'; */",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['a', 'b', 'c', 'e', 'f', 'g', 'h'].map((n) => `../server/${n}.js`));
    expect(resolveImport('workers/transfer/x.ts', '../../server/errors.js')).toBe('server/errors.ts');
    expect(resolveImport('workers/x.ts', 'piscina')).toBeUndefined();
  });

  it('reads the folders it checks, and the task modules the pool names exist', () => {
    for (const folder of ['server', 'workers', 'contracts', 'lib']) expect(sourceFiles(folder).length).toBeGreaterThan(3);
    expect(TASK_MODULES).toContain('workers/routing.ts');
    expect(TASK_MODULES).toContain('workers/trail-tiles.ts');
    for (const module of TASK_MODULES) expect(existsSync(join(ROOT, module)), module).toBe(true);
  });
});

describe('folder boundaries', () => {
  it('no file under workers/ imports from server/ (type-only imports included)', () => {
    expect(sourceFiles('workers').flatMap((file) => importsInto(file, ['server']))).toEqual([]);
  });

  it('lib/ is a leaf: it imports nothing from server/, workers/, data/ or contracts/', () => {
    expect(sourceFiles('lib').flatMap((file) => importsInto(file, ['server', 'workers', 'data', 'contracts']))).toEqual([]);
  });

  it('contracts/ is a leaf: it imports nothing from server/, workers/ or data/, and no package', () => {
    const files = sourceFiles('contracts');
    expect(files.flatMap((file) => importsInto(file, ['server', 'workers', 'data']))).toEqual([]);
    const packages = files.flatMap((file) => importsOf(file).filter((path) => !isUnder(path, 'contracts') && !isUnder(path, 'lib')));
    expect(packages).toEqual([]);
  });

  it('no file under server/ imports a task module the pool loads', () => {
    expect(sourceFiles('server').flatMap((file) => importsInto(file, TASK_MODULES))).toEqual([]);
  });

  it('server/ imports from workers/ only the shared tables, from the files named for them', () => {
    const crossings = sourceFiles('server').flatMap((file) => importsInto(file, ['workers']));
    const allowed = Object.entries(SHARED_WORKER_MODULES).map(([module, importer]) => `${importer} → ${module}`);
    expect(crossings.filter((line) => !allowed.includes(line))).toEqual([]);
    for (const module of Object.keys(SHARED_WORKER_MODULES)) {
      expect(
        importsOf(module).filter((path) => !isUnder(path, 'data') && !isUnder(path, 'contracts')),
        module,
      ).toEqual([]);
    }
  });

  it('nothing the main thread loads reaches a task module, however many imports away', () => {
    const reached: string[] = [];
    for (const file of sourceFiles('server')) {
      for (const [module, chain] of reachableFrom(file)) if (TASK_MODULES.includes(module)) reached.push(chain.join(' → '));
    }
    expect(reached).toEqual([]);
  });
});
