// KMZ imports over real HTTP: a zip holding the KML, by its media type or recognised by content, and the
// archives that are refused (too large once unpacked, lying about their size, encrypted, damaged, no KML).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chainPoints,
  errorOf,
  expectSameCoordinates,
  FIXTURES,
  imported,
  importFile,
  KML,
  KMZ,
  kmlLinePoints,
  serveTransferSuite,
  type View,
} from './transfer-harness.js';

const h = serveTransferSuite();
const KMZ_TYPE = 'application/vnd.google-earth.kmz';
const LIMIT = 10 * 1024 * 1024; // the server's IMPORT_BODY_LIMIT (default)

/** A zip of `files`, deflated (fflate writes what Google Earth and gpsbabel do: local headers, a central directory). */
const zip = (files: Record<string, string | Uint8Array>) =>
  Buffer.from(
    zipSync(Object.fromEntries(Object.entries(files).map(([name, data]) => [name, typeof data === 'string' ? strToU8(data) : data]))),
  );

/** Rewrites the uncompressed size an archive's (single) entry declares, in its local and central headers. */
function declareSize(archive: Buffer, size: number): Buffer {
  const out = Buffer.from(archive);
  out.writeUInt32LE(size, 22); // local file header at 0
  out.writeUInt32LE(size, out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
  return out;
}

const messageOf = async (body: Buffer, type = KMZ_TYPE) => errorOf(await importFile(body, type, '?name=Refused%20archive'));

describe('POST /v1/itineraries/import with a KMZ', () => {
  let fromKml: View;
  beforeAll(async () => {
    fromKml = await imported(KML, 'application/vnd.google-earth.kml+xml', '?name=Valley%20from%20KML');
  });

  it('imports a KMZ (application/vnd.google-earth.kmz) exactly as the KML it holds', async () => {
    const view = await imported(KMZ, KMZ_TYPE);
    expect(view.name).toBe('Valley path to the lakes');
    expect(view.description).toBe('Gentle path up the valley to the lakes.');
    expectSameCoordinates(chainPoints(view), kmlLinePoints(KML));
    expectSameCoordinates(chainPoints(view), chainPoints(fromKml));
    expect(view.waypoints.map((w) => w.name)).toEqual(['Car park', null]);
  });

  it('recognises a zip sent as KML or as application/octet-stream by its content', async () => {
    for (const [type, name] of [
      ['application/vnd.google-earth.kml+xml', 'As%20KML'],
      ['application/octet-stream', 'As%20bytes'],
      ['application/xml', 'As%20XML'],
    ]) {
      const view = await imported(KMZ, type as string, `?name=${name}`);
      expectSameCoordinates(chainPoints(view), kmlLinePoints(KML));
    }
  });

  it('reads doc.kml when the archive holds several KML files, else the first .kml entry (macOS metadata aside)', async () => {
    const decoy = KML.replace('<name>Valley path to the lakes</name>', '<name>Decoy</name>');
    const doc = KML.replace('<name>Valley path to the lakes</name>', '<name>The doc.kml</name>');
    const withDoc = await imported(
      zip({ 'other.kml': decoy, 'doc.kml': doc, 'files/icon.png': new Uint8Array([137, 80, 78, 71]) }),
      KMZ_TYPE,
    );
    expect(withDoc.name).toBe('The doc.kml');
    const nested = await imported(
      zip({
        '__MACOSX/tracks/._valley.kml': new Uint8Array([0, 5, 22, 7, 0]),
        'tracks/valley.kml': KML.replace('Valley path to the lakes', 'Nested valley'),
      }),
      KMZ_TYPE,
    );
    expect(nested.name).toBe('Nested valley');
    expectSameCoordinates(chainPoints(nested), kmlLinePoints(KML));
  });

  it('reads an archive whose KML is stored without compression', async () => {
    const stored = Buffer.from(zipSync({ 'doc.kml': [strToU8(KML.replace('Valley path to the lakes', 'Stored valley')), { level: 0 }] }));
    expect((await imported(stored, KMZ_TYPE)).name).toBe('Stored valley');
  });

  it('refuses with 413 an archive whose KML would unpack beyond the import limit, before unpacking it', async () => {
    const big = zip({ 'doc.kml': `<kml xmlns="http://www.opengis.net/kml/2.2">${' '.repeat(LIMIT + 1)}</kml>` });
    expect(big.length).toBeLessThan(100_000);
    const error = await messageOf(big);
    expect([error.status, error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(error.message).toBe(`The KML inside the KMZ archive is larger than ${LIMIT} bytes once unpacked: import a shorter track.`);
  });

  it('refuses an archive that declares a small KML but unpacks to more (a zip bomb), with 400', async () => {
    const bomb = declareSize(zip({ 'doc.kml': `<kml xmlns="http://www.opengis.net/kml/2.2">${' '.repeat(LIMIT * 2)}</kml>` }), 2000);
    const error = await messageOf(bomb);
    expect([error.status, error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(error.message).toMatch(/^The KMZ archive cannot be read: it is damaged or incomplete/);
  });

  it('refuses a password-protected archive, saying so', async () => {
    const encrypted = readFileSync(join(FIXTURES, 'valley-path-encrypted.kmz'));
    const error = await messageOf(encrypted);
    expect([error.status, error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(error.message).toBe('The KMZ archive is protected by a password: export it again without one.');
  });

  it('refuses a truncated or corrupted archive as damaged', async () => {
    const truncated = await messageOf(KMZ.subarray(0, Math.floor(KMZ.length / 2)));
    expect([truncated.status, truncated.code]).toEqual([400, 'BAD_REQUEST']);
    expect(truncated.message).toMatch(/^The KMZ archive cannot be read/);
    const corrupted = Buffer.from(KMZ);
    corrupted.fill(0xff, 60, 200); // inside the deflated KML
    const error = await messageOf(corrupted);
    expect([error.status, error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(error.message).toMatch(/^The KMZ archive cannot be read/);
  });

  it('refuses an archive without KML, and an empty one', async () => {
    const noKml = await messageOf(zip({ 'track.gpx': '<gpx/>', 'files/icon.png': new Uint8Array([137, 80, 78, 71]) }));
    expect([noKml.status, noKml.code]).toEqual([400, 'BAD_REQUEST']);
    expect(noKml.message).toBe('The KMZ archive holds no KML file (doc.kml or another .kml file).');
    const empty = await messageOf(zip({}));
    expect(empty.message).toBe('The KMZ archive holds no KML file (doc.kml or another .kml file).');
  });

  it("explains a refused archive in the caller's language", async () => {
    const res = await importFile(zip({ 'notes.txt': 'hello' }), KMZ_TYPE, '', { ...h.writer, 'Accept-Language': 'de' });
    expect((await errorOf(res)).message).toBe('Das KMZ-Archiv enthält keine KML-Datei (doc.kml oder eine andere .kml-Datei).');
  });

  it('imports a small KMZ that unpacks to a large KML with a Point on every track point: every point, one segment', async () => {
    // 40,000 points walking a loop of 100 vertices 400 times: repetitive, so the archive stays small.
    const n = 40_000;
    const loop = Array.from(
      { length: 100 },
      (_, i) => `${(1.55 + 0.01 * Math.cos(i / 16)).toFixed(7)},${(42.5 + 0.01 * Math.sin(i / 16)).toFixed(7)},1200`,
    );
    const coordinates = Array.from({ length: n }, (_, i) => loop[i % 100] as string);
    const placemarks = coordinates.map((c) => `<Placemark><Point><coordinates>${c}</coordinates></Point></Placemark>`).join('\n');
    const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Long KMZ day</name>${placemarks}<Placemark><LineString><coordinates>${coordinates.join(' ')}</coordinates></LineString></Placemark></Document></kml>`;
    const archive = zip({ 'doc.kml': kml });
    expect(kml.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(archive.length).toBeLessThan(256 * 1024);
    const view = await imported(archive, KMZ_TYPE);
    expect(chainPoints(view)).toHaveLength(n);
    expect(view.segments).toHaveLength(1);
  });

  it('is declared in the OpenAPI document as a binary body of the import', async () => {
    const doc = (await (await fetch(`${h.server.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } } }>;
    };
    const content = doc.paths['/v1/itineraries/import']?.post?.requestBody?.content ?? {};
    expect(content[KMZ_TYPE]?.schema).toEqual({ type: 'string', format: 'binary' });
    expect(content['application/octet-stream']?.schema).toEqual({ type: 'string', format: 'binary' });
    expect(content['application/gpx+xml']?.schema).toEqual({ type: 'string' });
  });
});
