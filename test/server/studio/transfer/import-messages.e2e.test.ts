// Refused imports over real HTTP: the message says what is wrong in the user's terms (a format, a line and
// a column at most) and never repeats the upload: no bytes, no excerpt, no control characters.

import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { errorOf, importFile, serveTransferSuite } from './transfer-harness.js';

const h = serveTransferSuite();
const MARKER = 'SECRET-MARKER-7f3a';

/** Refuses `body`, and checks the message is a plain sentence that quotes nothing of it. */
async function refusal(body: string | Buffer, type: string, lang?: string) {
  const headers = lang ? { ...h.writer, 'Accept-Language': lang } : h.writer;
  const error = await errorOf(await importFile(body, type, '?name=Refused', headers));
  expect(error.status).toBe(400);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
  expect(error.message).not.toMatch(/[\u0000-\u001F\u007F-\u009F\uFFFD]/);
  expect(error.message).not.toContain(MARKER);
  expect(error.message).not.toContain('PK');
  expect(error.message.length).toBeLessThan(200);
  return error;
}

/** The first bytes of a PNG, then the marker: binary data with NUL bytes. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
  Buffer.from(MARKER),
  Buffer.alloc(64, 7),
]);

describe('import refusals never echo the file', () => {
  it('names binary data as such, whatever type it is sent as', async () => {
    for (const type of ['application/gpx+xml', 'application/vnd.google-earth.kml+xml', 'application/xml', 'application/octet-stream']) {
      const error = await refusal(PNG, type);
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.message).toBe('The file is binary data, not GPX, KML or GeoJSON text: send the file itself, or a KMZ archive.');
    }
  });

  it('places malformed XML at a line and column, naming the format its root element claims', async () => {
    const gpx = await refusal(
      `<?xml version="1.0"?>\n<gpx version="1.1">\n  <trk><name>${MARKER}</nam></trk>\n</gpx>`,
      'application/gpx+xml',
    );
    expect(gpx.message).toMatch(/^The file is not valid GPX: the XML is malformed near line 3, column \d+\.$/);
    const kml = await refusal(
      `<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${MARKER}</Document></kml>`,
      'application/vnd.google-earth.kml+xml',
    );
    expect(kml.message).toMatch(/^The file is not valid KML: the XML is malformed near line 1, column \d+\.$/);
    const other = await refusal(`${MARKER} is not XML at all`, 'text/xml');
    expect(other.message).toMatch(/^The file is not valid GPX or KML: the XML is malformed/);
  });

  it("says where in the caller's language", async () => {
    const fr = await refusal(`<gpx>\n<trk>${MARKER}</wrong>`, 'application/gpx+xml', 'fr');
    expect(fr.message).toMatch(/^Le fichier n'est pas un GPX valide : le XML est mal formé vers la ligne 2, colonne \d+\.$/);
    const de = await refusal(`<kml>\n\n<Document>${MARKER}</kml>`, 'application/vnd.google-earth.kml+xml', 'de');
    expect(de.message).toMatch(/^Die Datei ist kein gültiges KML: Das XML ist fehlerhaft bei Zeile 3, Spalte \d+\.$/);
  });

  it('refuses malformed JSON without quoting it, whatever JSON type it comes as', async () => {
    const body = `{"type": "FeatureCollection", "features": [${MARKER}]}`;
    expect((await refusal(body, 'application/geo+json')).message).toBe('The file is not valid GeoJSON: the JSON is malformed.');
    expect((await refusal(body, 'application/octet-stream')).message).toBe('The file is not valid GeoJSON: the JSON is malformed.');
    expect((await refusal(body, 'application/json')).message).toBe('The request body is not valid JSON.');
  });

  it('refuses a KMZ holding malformed KML as malformed KML, not as its bytes', async () => {
    const archive = Buffer.from(zipSync({ 'doc.kml': strToU8(`<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${MARKER}`) }));
    const error = await refusal(archive, 'application/vnd.google-earth.kmz');
    expect(error.message).toMatch(/^The file is not valid KML: the XML is malformed/);
  });

  it('refuses XML of another kind without naming its elements', async () => {
    const error = await refusal(`<${MARKER.toLowerCase()}><a/></${MARKER.toLowerCase()}>`, 'application/xml');
    expect(error.message).toBe('The XML document is neither GPX (<gpx>) nor KML (<kml>).');
  });
});
