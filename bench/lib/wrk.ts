// Runs wrk (Debian package `wrk`) pinned to a core and parses its --latency report.

import { execFile, execFileSync } from 'node:child_process';

export interface WrkOptions {
  url: string;
  /** Seconds of load. */
  seconds: number;
  /** Open connections (-c). */
  connections: number;
  /** wrk threads (-t). */
  threads: number;
  /** CPU list for `taskset -c` (e.g. "1"); undefined = not pinned. */
  cpus?: string;
  /** A wrk Lua script (-s) setting the method, headers and body of each request. */
  script?: string;
}

export interface WrkResult {
  requests: number;
  reqPerSec: number;
  /** Latency percentiles in milliseconds. */
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** Responses with a status outside 2xx/3xx. */
  non2xx: number;
  /** connect + read + write + timeout errors. */
  socketErrors: number;
  /** The full wrk output, kept for the results file when something looks off. */
  raw: string;
}

/** True when a `wrk` binary is on PATH. */
export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // `wrk --version` prints its usage and exits 1; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** True when `taskset` (util-linux) is on PATH and the machine has at least `cores` cores. */
export function canPin(cores: number): boolean {
  try {
    execFileSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
  } catch {
    return false;
  }
  return execFileSync('nproc', { encoding: 'utf8' }).trim().split('\n').map(Number)[0]! >= cores;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function durationMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  return m ? Number(m[1]) * (UNIT_MS[m[2] as string] as number) : Number.NaN;
}

/** Parses wrk's `--latency` output. Exported for tests of the parser. */
export function parseWrk(raw: string): WrkResult {
  const percentile = (p: number) => {
    const m = new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(raw);
    return m ? durationMs(m[1] as string) : Number.NaN;
  };
  const requests = Number(/(\d+) requests in/.exec(raw)?.[1] ?? Number.NaN);
  const reqPerSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(raw)?.[1] ?? Number.NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(raw)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(raw);
  const socketErrors = errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return { requests, reqPerSec, p50Ms: percentile(50), p90Ms: percentile(90), p99Ms: percentile(99), non2xx, socketErrors, raw };
}

/** Runs one wrk load and resolves with its parsed report; rejects when wrk fails or prints no rate. */
export function runWrk(options: WrkOptions): Promise<WrkResult> {
  const wrkArgs = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    ...(options.script ? ['-s', options.script] : []),
    options.url,
  ];
  const [cmd, args] = options.cpus ? ['taskset', ['-c', options.cpus, 'wrk', ...wrkArgs]] : ['wrk', wrkArgs];
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { encoding: 'utf8', timeout: (options.seconds + 30) * 1000 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`wrk failed: ${error.message}\n${stdout}${stderr}`));
        return;
      }
      const result = parseWrk(stdout);
      if (!Number.isFinite(result.reqPerSec)) reject(new Error(`wrk printed no Requests/sec:\n${stdout}${stderr}`));
      else resolve(result);
    });
  });
}
