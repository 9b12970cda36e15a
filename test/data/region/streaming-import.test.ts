// The streaming import over the real CLI: 64-bit ids, worker threads, the --json summary, progress on
// stderr, a killed import, and failures named by their real cause.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOSMStream } from 'osm-pbf-parser-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoRegion } from '../../../data/region/demo-region.js';
import { PbfCorruptError } from '../../../data/region/pbf-decode.js';
import { importFailure } from '../../../data/region/pbf-reader.js';
import { ImportResourceError, RegionInputError } from '../../../data/region/region-error.js';
import { loadRegion } from '../../../data/region/region-folder.js';
import { ANDORRA_PBF, haveData, LIECHTENSTEIN_PBF } from './shared-data.js';
import { edgeTarget, lonOf, outEdges, wayOf } from '../../../data/region/region-graph.js';

const work = mkdtempSync(join(tmpdir(), 'cairn-region-stream-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CLI = ['--import', 'tsx', 'data/region/import-cli.ts'];
// Liechtenstein's counts (data/region/README.md); two stitched copies double them, plus one joining way.
const LI = { osmNodes: 142_832, nodes: 54_374, edges: 112_000 };

function runCli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

describe.skipIf(!haveData(LIECHTENSTEIN_PBF))('streaming import of a stitched extract with 64-bit ids', () => {
  const big = join(work, 'big-ids.osm.pbf');
  beforeAll(() => {
    const r = spawnSync(
      process.execPath,
      ['bench/region-scale/stitch.mjs', '--copies', '2', '--big-ids', '--src', LIECHTENSTEIN_PBF, '--out', big],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
  });

  it('the generated file reads with an independent reader (osm-pbf-parser-node)', async () => {
    const counts = { node: 0, way: 0, relation: 0 };
    let minNodeId = Number.POSITIVE_INFINITY;
    for await (const item of createOSMStream(big, { withTags: true, withInfo: false })) {
      const t = (item as { type?: keyof typeof counts }).type;
      if (t === undefined) continue;
      counts[t]++;
      if (t === 'node') minNodeId = Math.min(minNodeId, (item as { id: number }).id);
    }
    expect(counts.node).toBe(2 * LI.osmNodes);
    expect(counts.way).toBeGreaterThan(2 * 15_000);
    expect(counts.relation).toBeGreaterThan(2 * 300);
    expect(minNodeId).toBeGreaterThan(12e9);
  });

  it('builds a connected region whose ids pass 12 billion, the same with and without threads, and sums it up in --json', () => {
    const outs = ['t2', 't0'].map((name) => join(work, name));
    const runs = [2, 0].map((threads, i) => runCli(['--osm', big, '--out', outs[i]!, '--threads', String(threads), '--json']));
    for (const r of runs) expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(runs[0]!.stdout);
    expect(runs[0]!.stdout.trim().split('\n')).toHaveLength(1);
    expect(summary.pbf.threads).toBe(2);
    expect(summary.pbf.read).toEqual({ nodes: 2 * LI.osmNodes, ways: expect.any(Number), relations: expect.any(Number) });
    expect(summary.pbf.kept.foundNodes).toBe(summary.pbf.kept.neededNodes);
    expect(summary.graph).toEqual({ nodes: 2 * LI.nodes, edges: 2 * LI.edges + 2, ways: expect.any(Number) });
    expect(summary.folderBytes).toBe(Object.values(summary.files as Record<string, number>).reduce((a, b) => a + b, 0));
    expect(Object.keys(summary.files).sort()).toEqual([
      'graph.bin',
      'hazards.json',
      'meta.json',
      'places.bin',
      'routes.json',
      'routing.bin',
      'tiles.mbtiles',
    ]);
    expect(summary.stages.map((s: { stage: string }) => s.stage)).toEqual([
      'index blocks',
      'ways',
      'node index',
      'nodes',
      'resolve',
      'build',
      'routing core',
      'routing weights',
      'hierarchies',
      'routing file',
      'write',
    ]);
    for (const s of summary.stages) {
      expect(s.seconds).toBeGreaterThanOrEqual(0);
      expect(s.peakRssMB).toBeGreaterThan(0);
    }
    expect(summary.peakRssMB).toBeGreaterThan(0);

    // Worker threads and the importing thread write the same bytes.
    for (const file of readdirSync(outs[0]!)) {
      expect(readFileSync(join(outs[1]!, file)).equals(readFileSync(join(outs[0]!, file))), file).toBe(true);
    }

    const region = loadRegion(outs[0]!);
    const g = region.graph;
    expect(Math.min(...g.wayOsmId)).toBeGreaterThan(12e9);
    expect(Math.min(...[...region.places].map((p) => p.osmId))).toBeGreaterThan(12e9);
    expect(region.routes.length).toBeGreaterThan(300);
    expect(region.routes.every((r) => r.wayOsmIds.every((id) => id > 12e9))).toBe(true);

    // A route across: from the joining way, a search reaches most of both copies (they sit side by side).
    const stitch = g.wayName.indexOf('stitch');
    expect(stitch).toBeGreaterThanOrEqual(0);
    let start = -1;
    for (let e = 0; e < g.edgeCount && start < 0; e++) if (wayOf(g, e) === stitch) start = edgeTarget(g, e);
    const seen = new Uint8Array(g.nodeCount);
    const queue = [start];
    seen[start] = 1;
    while (queue.length > 0) {
      const n = queue.pop()!;
      for (const e of outEdges(g, n)) {
        const m = edgeTarget(g, e);
        if (!seen[m]) {
          seen[m] = 1;
          queue.push(m);
        }
      }
    }
    const split = (g.bbox[0] + g.bbox[2]) / 2;
    let west = 0;
    let east = 0;
    for (let n = 0; n < g.nodeCount; n++) if (seen[n]) lonOf(g, n) < split ? west++ : east++;
    expect(west).toBeGreaterThan(LI.nodes / 2);
    expect(east).toBeGreaterThan(LI.nodes / 2);
  });

  it('running out of JS heap reports "out of memory while <stage>" in one line, not a crash or a corrupt file', () => {
    const r = runCli(['--osm', big, '--out', join(work, 'oom')], { CAIRN_IMPORT_HEAP_MB: '8' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: out of memory while [a-z ]+: the JS heap limit of 8 MB was reached \(try /);
    expect(readdirSync(work).filter((f) => f.includes('oom'))).toEqual([]);
  });

  it('prints progress on stderr: stage, percent, elapsed, time left', () => {
    const r = runCli(['--osm', big, '--out', join(work, 'progress'), '--threads', '0'], { CAIRN_IMPORT_PROGRESS_MS: '0' });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => /^import: ways \d+%, [\d.]+ s,( ~[\d.]+ s left,)? total [\d.]+ s$/.test(l)).length).toBeGreaterThan(2);
    expect(lines.some((l) => /^import: nodes \d+%, .* s left, total/.test(l))).toBe(true);
    for (const stage of ['ways', 'nodes', 'build', 'write']) {
      expect(lines.some((l) => new RegExp(`^import: ${stage} done in [\\d.]+ s \\(total [\\d.]+ s, peak RSS [\\d.]+ MB\\)$`).test(l))).toBe(
        true,
      );
    }
    // --quiet prints none.
    const q = runCli(['--osm', big, '--out', join(work, 'quiet'), '--quiet'], { CAIRN_IMPORT_PROGRESS_MS: '0' });
    expect(q.status).toBe(0);
    expect(q.stderr).toBe('');
  });

  it('a killed import (SIGKILL mid-way) leaves the previous region in place; the next one cleans up after it', async () => {
    const out = join(work, 'keep');
    writeDemoRegion(out);
    const before = readFileSync(join(out, 'graph.bin'));
    const child: ChildProcess = spawn(process.execPath, [...CLI, '--osm', big, '--out', out, '--threads', '0'], {
      env: { ...process.env, CAIRN_IMPORT_PROGRESS_MS: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      // Killed while reading the ways, with the whole import still ahead.
      if (/import: ways \d+%/.test(stderr)) child.kill('SIGKILL');
    });
    expect(await exited).toBe('SIGKILL');
    expect(stderr).not.toMatch(/import: write/);
    expect(loadRegion(out).meta.kind).toBe('demo');
    expect(readFileSync(join(out, 'graph.bin')).equals(before)).toBe(true);
    // A writer killed while writing leaves its temporary folder beside the target (the target stays whole), and one
    // killed while preparing routing its routing.bin in the making: the next import removes both once their process
    // is gone, and replaces the region.
    const stale = join(work, `.keep.tmp-${child.pid}-killed`);
    mkdirSync(stale);
    writeFileSync(join(stale, 'graph.bin'), 'partial');
    writeFileSync(join(work, `.keep.routing-${child.pid}-killed`), 'partial');
    const r = runCli(['--osm', big, '--out', out, '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    expect(loadRegion(out).meta.kind).toBe('import');
    expect(readdirSync(work).filter((f) => f.startsWith('.keep.'))).toEqual([]);
  });
});

describe('failures name their real cause', () => {
  it('out of memory and size limits are never reported as a corrupt file', () => {
    const oom = importFailure('x.osm.pbf', new RangeError('Array buffer allocation failed'), 'reading node positions');
    expect(oom).toBeInstanceOf(ImportResourceError);
    expect(oom.message).toMatch(/^out of memory while reading node positions: Array buffer allocation failed \(try /);
    const worker = Object.assign(new Error('Worker terminated due to reaching memory limit: JS heap out of memory'), {
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    expect(importFailure('x.osm.pbf', worker, 'reading ways and relations').message).toMatch(/^out of memory while reading ways/);
    const limit = importFailure('x.osm.pbf', new RangeError('Invalid typed array length: 5000000000'), 'indexing the needed nodes');
    expect(limit.message).toMatch(/^limit reached while indexing the needed nodes: /);
    for (const e of [oom, worker, limit]) expect(e.message).not.toMatch(/corrupt/);
    const bad = importFailure('x.osm.pbf', new PbfCorruptError('bad zlib data: incorrect header check'), 'reading ways and relations');
    expect(bad).toBeInstanceOf(RegionInputError);
    expect(bad.message).toBe('x.osm.pbf is not a readable OSM PBF (truncated or corrupt: bad zlib data: incorrect header check)');
  });

  it.skipIf(!haveData(ANDORRA_PBF))('a block with garbage inside reports a corrupt file, in one line', () => {
    const bytes = Buffer.from(readFileSync(ANDORRA_PBF));
    // Second blob: after the OSMHeader blob (4-byte length, BlobHeader, data).
    let pos = 0;
    for (let i = 0; i < 2; i++) {
      const len = bytes.readUInt32BE(pos);
      const datasize = blobDataSize(bytes.subarray(pos + 4, pos + 4 + len));
      if (i === 1) bytes.fill(0x5a, pos + 4 + len + 40, pos + 4 + len + 240);
      pos += 4 + len + datasize;
    }
    const file = join(work, 'garbage.osm.pbf');
    writeFileSync(file, bytes);
    const r = runCli(['--osm', file, '--out', join(work, 'garbage')]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*garbage\.osm\.pbf is not a readable OSM PBF \(truncated or corrupt: /);
  });
});

/** The datasize field (3) of a BlobHeader message. */
function blobDataSize(header: Buffer): number {
  let pos = 0;
  const varint = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = header[pos++]!;
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return v;
    }
  };
  while (pos < header.length) {
    const key = varint();
    if (key >> 3 === 3) return varint();
    const value = varint();
    if ((key & 7) === 2) pos += value;
  }
  throw new Error('no datasize');
}
