// Compiles the task modules (and what they import) into dist/ as production runs them,
// so pool tests load real compiled .js workers. Type errors are the typecheck's job (--noCheck).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Builds the WASM kernels when missing and emits workers/*.js under dist/; returns the routing module path. */
export function compileWorkers(): string {
  if (!existsSync(`${root}geo-wasm/build/routing.release.wasm`) || !existsSync(`${root}geo-wasm/build/geometry.release.wasm`)) {
    execFileSync(process.execPath, [`${root}geo-wasm/build.mjs`], { cwd: root, stdio: 'ignore' });
  }
  const tsc = `${root}node_modules/typescript/bin/tsc`;
  execFileSync(
    process.execPath,
    [
      tsc,
      'workers/routing.ts',
      'workers/line-analysis.ts',
      'workers/transfer.ts',
      'workers/region-lookup.ts',
      'workers/zone-match.ts',
      'workers/trail-tiles.ts',
      'server/pool/pool.ts',
      'workers/route-cli.ts',
      '--outDir',
      'dist',
      '--rootDir',
      '.',
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
      '--target',
      'ES2022',
      '--skipLibCheck',
      '--types',
      'node',
      '--noCheck',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  return `${root}dist/workers/routing.js`;
}
