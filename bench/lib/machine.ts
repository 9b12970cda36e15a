// Describes the machine and the checkout a bench ran on, and writes bench/results/<name>.json.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (two levels above bench/lib). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface MachineInfo {
  /** ISO-8601 time the description was taken. */
  date: string;
  /** `git rev-parse --short HEAD`, or "unknown". */
  commit: string;
  /** Uncommitted changes under the given paths when the bench ran (numbers then describe the working tree). */
  dirtyPaths: string[];
  nproc: number;
  cpuModel: string;
  node: string;
  platform: string;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}

/** CPU model from /proc/cpuinfo ("unknown" elsewhere). */
export function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return match?.[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Machine and checkout description; `watchPaths` are the source paths whose uncommitted state matters. */
export function machineInfo(watchPaths: readonly string[] = []): MachineInfo {
  const dirty = watchPaths.length
    ? git(['status', '--porcelain', '--', ...watchPaths])
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(3))
    : [];
  return {
    date: new Date().toISOString(),
    commit: git(['rev-parse', '--short', 'HEAD']).trim() || 'unknown',
    dirtyPaths: dirty,
    nproc: availableParallelism(),
    cpuModel: cpuModel(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** Writes `data` as pretty JSON to bench/results/<name>.json and returns the path. */
export function writeResults(name: string, data: unknown): string {
  const path = join(REPO_ROOT, 'bench', 'results', `${name}.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
  return path;
}
