// Runs every bench/*.bench.ts (or the ones named on the command line) in turn, each in its own
// process: `node --expose-gc --import tsx bench/<name>.bench.ts`. BENCH_SMOKE passes through.
// Usage: node bench/run.mjs [name…]   e.g. `node bench/run.mjs http`, `BENCH_SMOKE=1 npm run bench`.
// Exits 1 when a bench process fails (timings never fail a bench), 2 on an unknown name.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = join(benchDir, '..');
const SUFFIX = '.bench.ts';

const available = readdirSync(benchDir)
  .filter((f) => f.endsWith(SUFFIX))
  .map((f) => f.slice(0, -SUFFIX.length))
  .sort();
const wanted = process.argv.slice(2).map((a) => a.replace(/^bench\//, '').replace(/\.bench\.ts$/, ''));
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length) {
  console.error(`unknown bench: ${unknown.join(', ')} (available: ${available.join(', ')})`);
  process.exit(2);
}
const selected = wanted.length ? wanted : available;
const smoke = process.env.BENCH_SMOKE === '1';

const outcomes = [];
for (const name of selected) {
  console.log(`\n=== bench ${name}${smoke ? ' (smoke)' : ''}: node --expose-gc --import tsx bench/${name}${SUFFIX}`);
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join('bench', `${name}${SUFFIX}`)], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  const seconds = (performance.now() - started) / 1000;
  const ok = result.status === 0;
  const why = result.error ? result.error.message : result.signal ? `signal ${result.signal}` : `exit code ${result.status}`;
  outcomes.push({ name, ok, seconds, why });
  console.log(`=== bench ${name}: ${ok ? 'done' : `FAILED (${why})`} in ${seconds.toFixed(1)} s`);
}

console.log('\nsummary');
for (const o of outcomes)
  console.log(`  ${o.ok ? 'ok    ' : 'FAILED'}  ${o.name.padEnd(12)} ${o.seconds.toFixed(1).padStart(7)} s${o.ok ? '' : `  (${o.why})`}`);
const failed = outcomes.filter((o) => !o.ok);
if (failed.length) {
  console.log(`${failed.length} bench(es) failed: ${failed.map((o) => o.name).join(', ')}`);
  process.exit(1);
}
