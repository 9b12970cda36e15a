// The source tree's relative imports, read from the files themselves (static imports and re-exports, `import type`
// included, and dynamic `import('…')`), for the tests that hold the folders to their boundaries.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (a folder path ending without a slash). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

/** `from '…'` of an import or re-export (type-only ones too, over several lines), and `import('…')`. */
const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** Every specifier a module's source imports, in order (comments are not imports). */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
  return [...code.matchAll(SPECIFIER)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

/** The .ts files under `folder` (repository-relative), recursively. */
export function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(folder);
  return out.sort();
}

/** The repository-relative source file a relative specifier of `file` names (`./x.js` → `dir/x.ts`); undefined for packages. */
export function resolveImport(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const path = normalize(join(dirname(file), specifier));
  return path.endsWith('.js') ? `${path.slice(0, -3)}.ts` : path;
}

/** The repository-relative files `file` imports (relative specifiers only). */
export function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return importSpecifiers(source)
    .map((specifier) => resolveImport(file, specifier))
    .filter((path): path is string => path !== undefined);
}

/** Whether a repository-relative path lies in `folder` (given without a trailing slash). */
export function isUnder(path: string, folder: string): boolean {
  return !relative(folder, path).startsWith('..');
}

/** Every file reachable from `file` through relative imports (itself excluded), with the first chain that reaches each. */
export function reachableFrom(file: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[file, [file]]]);
  const queue = [file];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const imported of importsOf(next)) {
      if (chains.has(imported)) continue;
      chains.set(imported, [...(chains.get(next) as string[]), imported]);
      queue.push(imported);
    }
  }
  chains.delete(file);
  return chains;
}
