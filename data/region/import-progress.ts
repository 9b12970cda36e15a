// Progress of an import on stderr (stage, percent, elapsed, estimated time left) and the time and memory
// of each stage for the --json summary.
import { resourceUsage } from 'node:process';

export interface StageReport {
  stage: string;
  seconds: number;
  /** Peak resident memory of the process so far, at the stage's end (MB). */
  peakRssMB: number;
}

export interface ProgressOptions {
  /** Print progress at all (default true). */
  enabled?: boolean;
  /** Redraw one line in place (a terminal), else print a plain line now and then. */
  tty?: boolean;
  write?: (text: string) => void;
  /** Called with each stage's name when it starts. */
  onStage?: (stage: string) => void;
  /**
   * Minimum time between two plain lines inside one stage (default 10 s); stages shorter than this (at most
   * 1 s) print no line when they end.
   */
  lineEveryMs?: number;
}

/** What each stage does, for messages ("out of memory while …"). */
export const STAGE_DOING: Readonly<Record<string, string>> = {
  starting: 'starting',
  'index blocks': 'indexing the PBF blocks',
  ways: 'reading ways and relations',
  'node index': 'indexing the needed nodes',
  nodes: 'reading node positions',
  resolve: 'resolving way nodes',
  build: 'building the graph',
  'routing core': 'contracting the routing core graph',
  'routing weights': 'weighing the routing profiles',
  hierarchies: 'building contraction hierarchies',
  'routing file': 'encoding routing.bin',
  write: 'writing the region folder',
};

const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
const secs = (ms: number): string => (ms / 1000).toFixed(1);

/** Peak RSS of the process so far in bytes (threads included). */
export function peakRss(): number {
  return resourceUsage().maxRSS * 1024;
}

export class ImportProgress {
  readonly stages: StageReport[] = [];
  private readonly enabled: boolean;
  private readonly tty: boolean;
  private readonly write: (text: string) => void;
  private readonly onStage: (stage: string) => void;
  private readonly lineEveryMs: number;
  private readonly started = performance.now();
  private name = '';
  private stageStart = 0;
  private total = 0;
  private done = 0;
  private lastPrint = 0;

  constructor(o: ProgressOptions = {}) {
    this.enabled = o.enabled ?? true;
    this.tty = o.tty ?? false;
    this.write = o.write ?? ((t) => process.stderr.write(t));
    this.lineEveryMs = o.lineEveryMs ?? 10_000;
    this.onStage = o.onStage ?? (() => undefined);
  }

  /** Ends the current stage (if any) and starts `name`, whose work is `total` units (bytes, items). */
  stage(name: string, total = 0): void {
    this.finish();
    this.name = name;
    this.stageStart = performance.now();
    this.lastPrint = this.stageStart;
    this.total = total;
    this.done = 0;
    this.onStage(name);
    if (this.enabled && this.tty) this.print(false);
  }

  /** A line of its own about the current stage (what it made, how big), printed when progress is. */
  note(text: string): void {
    if (this.enabled) this.write(`${this.tty ? '\r\x1b[K' : ''}import: ${text}\n`);
  }

  /** `n` more units of the current stage are done. */
  advance(n: number): void {
    this.done += n;
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.lastPrint >= (this.tty ? 200 : this.lineEveryMs)) {
      this.lastPrint = now;
      this.print(false);
    }
  }

  /** Ends the last stage; returns every stage's report. */
  end(): StageReport[] {
    this.finish();
    return this.stages;
  }

  /** The current stage's name (for error messages). */
  get current(): string {
    return this.name;
  }

  get elapsedSeconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  private finish(): void {
    if (!this.name) return;
    const seconds = (performance.now() - this.stageStart) / 1000;
    this.stages.push({ stage: this.name, seconds: Math.round(seconds * 1000) / 1000, peakRssMB: mb(peakRss()) });
    // A plain line for each finished stage, except the short stages of a small import (a terminal shows all).
    if (this.enabled && (this.tty || seconds * 1000 >= Math.min(1000, this.lineEveryMs))) this.print(true);
    this.name = '';
  }

  private print(final: boolean): void {
    const now = performance.now();
    const elapsed = now - this.stageStart;
    let text: string;
    if (final) {
      text = `import: ${this.name} done in ${secs(elapsed)} s (total ${secs(now - this.started)} s, peak RSS ${mb(peakRss())} MB)`;
    } else {
      // Stages without measured units (the build, the write) show no percent.
      const f = this.total > 1 ? Math.min(1, this.done / this.total) : -1;
      const pct = f >= 0 ? ` ${(f * 100).toFixed(0)}%,` : '';
      const left = f > 0.02 ? ` ~${secs((elapsed / f) * (1 - f))} s left,` : '';
      text = `import: ${this.name}${pct} ${secs(elapsed)} s,${left} total ${secs(now - this.started)} s`;
    }
    if (this.tty) this.write(`\r\x1b[K${text}${final ? '\n' : ''}`);
    else this.write(`${text}\n`);
  }
}
