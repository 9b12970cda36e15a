// CPU time of another process from /proc/<pid>/stat (Linux), to report a server's CPU beside its req/s.

import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second for utime/stime (USER_HZ; 100 on every mainstream Linux build). */
const CLOCK_TICKS = 100;

/** User and system CPU time consumed so far by process `pid`, in seconds (its threads included, its
 * children excluded). NaN when /proc is unavailable. */
export function processCpuTimes(pid: number): { user: number; system: number } {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return { user: Number.NaN, system: Number.NaN };
  }
  // Field 2 (comm) may contain spaces and parentheses: split after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After comm, index 0 is field 3 (state); utime is field 14, stime field 15.
  return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS };
}

/** User + system CPU seconds of `pid` so far (see processCpuTimes). */
export function processCpuSeconds(pid: number): number {
  const { user, system } = processCpuTimes(pid);
  return user + system;
}

export interface CpuUsage {
  cpuSeconds: number;
  /** Share of the CPU seconds spent in the kernel (syscalls, network stack), 0..1. */
  systemShare: number;
  /** CPU seconds over wall seconds, in % of one core. */
  cpuPercent: number;
  wallSeconds: number;
}

/** Starts a CPU meter on `pid`; `stop()` returns what it used since. */
export function startCpuMeter(pid: number): { stop(): CpuUsage } {
  const before = processCpuTimes(pid);
  const t0 = performance.now();
  return {
    stop() {
      const after = processCpuTimes(pid);
      const user = after.user - before.user;
      const system = after.system - before.system;
      const cpuSeconds = user + system;
      const wallSeconds = (performance.now() - t0) / 1000;
      return { cpuSeconds, systemShare: system / cpuSeconds, cpuPercent: (100 * cpuSeconds) / wallSeconds, wallSeconds };
    },
  };
}
