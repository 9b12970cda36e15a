// Builds every kernel module under geo-wasm/assembly/<name>/index.ts into
// geo-wasm/build/<name>.debug.wasm (assertions on, for tests) and <name>.release.wasm (-O3, noAssert).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const assembly = join(root, 'assembly');
const out = join(root, 'build');
mkdirSync(out, { recursive: true });
const asc = join(root, '..', 'node_modules', 'assemblyscript', 'bin', 'asc.js');

const modules = readdirSync(assembly, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(assembly, d.name, 'index.ts')))
  .map((d) => d.name);

const common = ['--exportRuntime', '--enable', 'simd', '--initialMemory', '1'];
// The routing module works on one shared memory per process (its region is read into it once and every worker
// thread's instance searches it): imported, shared, up to wasm32's 4 GiB, with a runtime whose instances
// allocate from chunks they claim atomically (assembly/routing/shared-runtime.ts). Others own their memory.
const moduleFlags = {
  routing: [
    '--runtime',
    join(assembly, 'routing', 'shared-runtime'),
    '--importMemory',
    '--sharedMemory',
    '--maximumMemory',
    '65536',
    '--enable',
    'threads',
  ],
};
for (const name of modules) {
  const entry = join(assembly, name, 'index.ts');
  const flags = [...common, ...(moduleFlags[name] ?? ['--runtime', 'stub'])];
  execFileSync(process.execPath, [asc, entry, ...flags, '--debug', '--outFile', join(out, `${name}.debug.wasm`)], { stdio: 'inherit' });
  execFileSync(process.execPath, [asc, entry, ...flags, '-O3', '--noAssert', '--outFile', join(out, `${name}.release.wasm`)], {
    stdio: 'inherit',
  });
  console.log(`geo-wasm: built ${name}`);
}
if (modules.length === 0) console.log('geo-wasm: no kernel modules yet');
