// Uploads read on the worker pool (workers/transfer.ts, compiled as production runs it): the plan an inline
// read makes, problems as values, a KMZ unpacked under the limit it is given, and an abandoned read that
// stops holding up its caller.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planImport } from '../../workers/transfer/import-plan.js';
import { parseGeoJsonTrack } from '../../workers/transfer/parse-geojson-track.js';
import { parseXmlTrack } from '../../workers/transfer/parse-xml-track.js';
import { createPool, taskFilesIn, type WorkerPool } from '../../server/pool/pool.js';
import type { ReadImportInput } from '../../contracts/transfer.js';
import { REPO_ROOT } from '../helpers/server.js';
import { compileWorkers } from './compile-workers.js';

const LIMIT = 10 * 1024 * 1024;
const fixture = (name: string) => new Uint8Array(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'transfer', name)));

/** A GPX of `n` timestamped points (about 110 bytes each). */
function bigGpx(n: number): Uint8Array {
  const pts = Array.from(
    { length: n },
    (_, i) => `<trkpt lat="${(42.49 + i * 1e-6).toFixed(7)}" lon="1.5600000"><ele>1200</ele><time>2026-06-14T07:30:00Z</time></trkpt>`,
  );
  return new TextEncoder().encode(`<gpx version="1.1"><trk><trkseg>${pts.join('')}</trkseg></trk></gpx>`);
}

let pool: WorkerPool;
const read = (input: Partial<ReadImportInput>, signal?: AbortSignal) =>
  pool.runTask('readImport', { content: undefined, mediaType: 'application/gpx+xml', inflateLimit: LIMIT, ...input }, { signal });

beforeAll(() => {
  pool = createPool({ taskFile: taskFilesIn(dirname(compileWorkers())), maxThreads: 1, env: { ...process.env, REGION_PATH: '' } });
});

afterAll(async () => {
  await pool?.close();
});

describe('readImport on the pool', () => {
  it('gives the plan and names an inline read of the same GPX gives', async () => {
    const gpx = fixture('ridge-walk.gpx');
    const track = parseXmlTrack(gpx, LIMIT);
    const out = await read({ content: gpx });
    expect(out).toEqual({
      ok: true,
      name: track.name,
      trackName: track.trackName,
      description: track.description,
      plan: planImport(track),
    });
  });

  it('reads GeoJSON already parsed (application/json) and GeoJSON bytes sent as application/octet-stream', async () => {
    const bytes = fixture('forest-loop.geojson');
    const expected = planImport(parseGeoJsonTrack(bytes));
    expect(await read({ content: JSON.parse(new TextDecoder().decode(bytes)), mediaType: 'application/json' })).toMatchObject({
      ok: true,
      plan: expected,
    });
    expect(await read({ content: bytes, mediaType: 'application/octet-stream' })).toMatchObject({ ok: true, plan: expected });
  });

  it('returns a file it cannot import as a problem value for the caller to render', async () => {
    expect(await read({ content: new TextEncoder().encode('<gpx><trk>') })).toMatchObject({
      ok: false,
      problem: { key: 'malformed_xml_at', params: { format: 'gpx' } },
    });
    expect(await read({ content: undefined })).toEqual({ ok: false, problem: { key: 'empty', params: {} } });
  });

  it('unpacks a KMZ with the limit it is given', async () => {
    const kmz = fixture('valley-path.kmz');
    expect(await read({ content: kmz, mediaType: 'application/vnd.google-earth.kmz' })).toMatchObject({
      ok: true,
      plan: planImport(parseXmlTrack(fixture('valley-path.kml'), LIMIT)),
    });
    expect(await read({ content: kmz, inflateLimit: 1000 })).toEqual({
      ok: false,
      problem: { key: 'kmz_too_large', params: { limit: 1000 } },
    });
  });

  it('answers GATEWAY_TIMEOUT at once for a read whose request is aborted, and reads the next file', async () => {
    const controller = new AbortController();
    const pending = read({ content: bigGpx(20_000) }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, code: 'GATEWAY_TIMEOUT' });
    expect(await read({ content: fixture('ridge-walk.gpx') })).toMatchObject({ ok: true });
  });
});
