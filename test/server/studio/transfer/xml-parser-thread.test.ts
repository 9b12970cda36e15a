// The GPX/KML/KMZ parser thread, run from the compiled build (the worker entry is a compiled file): same
// result as parsing inline, a parse whose request is aborted stops, and a full queue answers SERVICE_UNAVAILABLE.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseXmlTrack } from '../../../../server/studio/transfer/parse-xml-track.js';
import type { XmlParser } from '../../../../server/studio/transfer/xml-parser-thread.js';
import { REPO_ROOT } from '../../../helpers/server.js';

const LIMIT = 10 * 1024 * 1024;
const GPX = new Uint8Array(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'transfer', 'ridge-walk.gpx')));

/** A GPX of `n` timestamped points (about 110 bytes each). */
function bigGpx(n: number): Uint8Array {
  const pts = Array.from({ length: n }, (_, i) => `<trkpt lat="${(42.49 + i * 1e-6).toFixed(7)}" lon="1.5600000"><ele>1200</ele><time>2026-06-14T07:30:00Z</time></trkpt>`);
  return new TextEncoder().encode(`<gpx version="1.1"><trk><trkseg>${pts.join('')}</trkseg></trk></gpx>`);
}

let parser: XmlParser;
let createXmlParser: (options?: { inlineLimit?: number; maxQueue?: number; inflateLimit?: number }) => XmlParser;

beforeAll(async () => {
  const url = pathToFileURL(join(REPO_ROOT, 'dist', 'server', 'studio', 'transfer', 'xml-parser-thread.js')).href;
  ({ createXmlParser } = (await import(url)) as { createXmlParser: typeof createXmlParser });
  parser = createXmlParser({ inlineLimit: 0, maxQueue: 1 });
});

afterAll(async () => {
  await parser?.close();
});

describe('createXmlParser (worker thread)', () => {
  it('gives the same track as parsing inline', async () => {
    expect(await parser.parse(GPX)).toEqual(parseXmlTrack(GPX, LIMIT));
  });

  it('reports a malformed file as the same import problem', async () => {
    await expect(parser.parse(new TextEncoder().encode('<gpx><trk>'))).rejects.toMatchObject({ key: 'malformed_xml_at', params: { format: 'gpx' } });
  });

  // With no room in the queue, whatever would go to the thread is refused at once; inline parses are not.
  it('parses a file above the inline limit on the thread, one at the limit inline', async () => {
    const above = createXmlParser({ inlineLimit: GPX.byteLength - 1, maxQueue: 0 });
    const at = createXmlParser({ inlineLimit: GPX.byteLength, maxQueue: 0 });
    try {
      await expect(above.parse(GPX)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect((await at.parse(GPX)).lines).toHaveLength(2);
    } finally {
      await above.close();
      await at.close();
    }
  });

  it('never parses a KMZ inline, however small (it may unpack to the whole import limit)', async () => {
    const kmz = new Uint8Array(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'transfer', 'valley-path.kmz')));
    const noRoom = createXmlParser({ inlineLimit: 1024 * 1024, maxQueue: 0 });
    try {
      expect((await noRoom.parse(GPX)).lines).toHaveLength(2);
      await expect(noRoom.parse(kmz)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await noRoom.close();
    }
  });

  it('unpacks a KMZ on the thread, with the limit it was given', async () => {
    const kmz = new Uint8Array(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'transfer', 'valley-path.kmz')));
    const kml = new Uint8Array(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'transfer', 'valley-path.kml')));
    expect(await parser.parse(kmz)).toEqual(parseXmlTrack(kml, LIMIT));
    const small = createXmlParser({ inlineLimit: 1024 * 1024, inflateLimit: 1000 });
    try {
      await expect(small.parse(kmz)).rejects.toMatchObject({ key: 'kmz_too_large', params: { limit: 1000 } });
    } finally {
      await small.close();
    }
  });

  it('stops a parse whose request is aborted, and parses the next file on a fresh thread', async () => {
    const controller = new AbortController();
    const pending = parser.parse(bigGpx(60_000), controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: 'GATEWAY_TIMEOUT' });
    expect((await parser.parse(GPX)).lines).toHaveLength(2);
  });

  it('answers SERVICE_UNAVAILABLE when more files wait than the queue holds', async () => {
    const controller = new AbortController();
    const first = parser.parse(bigGpx(40_000), controller.signal); // running
    const second = parser.parse(GPX, controller.signal); // waiting
    await expect(parser.parse(GPX)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: 'GATEWAY_TIMEOUT' });
    await expect(second).rejects.toMatchObject({ code: 'GATEWAY_TIMEOUT' });
  });
});
