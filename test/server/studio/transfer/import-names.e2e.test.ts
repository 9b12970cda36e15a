// How an import is named, over real HTTP: the `name` parameter, else the file's own name, else its first
// track's, else "Imported itinerary"; names and descriptions from files lose their control characters
// (the parameter, like every name a request sends, is refused with them instead).

import { describe, expect, it } from 'vitest';
import { errorOf, imported, importFile, serveTransferSuite } from './transfer-harness.js';

serveTransferSuite();

/** Three track points; a waypoint named `wpt` sits on the middle one. */
const TRACK =
  '<trkseg><trkpt lat="42.5" lon="1.56"><ele>1000</ele></trkpt><trkpt lat="42.5005" lon="1.5605"><ele>1005</ele></trkpt>' +
  '<trkpt lat="42.501" lon="1.561"><ele>1010</ele></trkpt></trkseg>';
/** A GPX with an optional metadata name and description, a track name and a waypoint name. */
const gpx = (o: { file?: string; track?: string; desc?: string; wpt?: string }) =>
  '<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">' +
  `<metadata>${o.file !== undefined ? `<name>${o.file}</name>` : ''}${o.desc !== undefined ? `<desc>${o.desc}</desc>` : ''}</metadata>` +
  (o.wpt !== undefined ? `<wpt lat="42.5005" lon="1.5605"><name>${o.wpt}</name></wpt>` : '') +
  `<trk>${o.track !== undefined ? `<name>${o.track}</name>` : ''}${TRACK}</trk></gpx>`;
const GPX_TYPE = 'application/gpx+xml';
const KML_TYPE = 'application/vnd.google-earth.kml+xml';
const LINE = '<LineString><coordinates>1.56,42.5 1.561,42.501</coordinates></LineString>';

describe('the name of an imported itinerary', () => {
  it('is the name parameter when given, whatever the file says', async () => {
    const view = await imported(gpx({ file: 'File name one', track: 'Track name one' }), GPX_TYPE, '?name=Chosen%20name');
    expect(view.name).toBe('Chosen name');
  });

  it("is the file's own name next: GPX metadata, KML Document, GeoJSON name", async () => {
    expect((await imported(gpx({ file: 'GPX file name', track: 'GPX track name' }), GPX_TYPE)).name).toBe('GPX file name');
    const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>KML document name</name><Placemark><name>KML line name</name>${LINE}</Placemark></Document></kml>`;
    expect((await imported(kml, KML_TYPE)).name).toBe('KML document name');
    const geojson = {
      type: 'FeatureCollection',
      name: 'GeoJSON file name',
      features: [
        {
          type: 'Feature',
          properties: { name: 'GeoJSON line name' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [1.56, 42.5],
              [1.561, 42.501],
            ],
          },
        },
      ],
    };
    expect((await imported(JSON.stringify(geojson), 'application/geo+json')).name).toBe('GeoJSON file name');
  });

  it("is the first track's name when the file has none: GPX trk, the first KML line (not a Point before it), GeoJSON line", async () => {
    expect((await imported(gpx({ track: 'Only the track is named' }), GPX_TYPE)).name).toBe('Only the track is named');
    const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Start point</name><Point><coordinates>1.56,42.5</coordinates></Point></Placemark><Placemark><name>The KML line</name>${LINE}</Placemark></Document></kml>`;
    expect((await imported(kml, KML_TYPE)).name).toBe('The KML line');
    const geojson = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { name: 'The GeoJSON line' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [1.56, 42.5],
              [1.561, 42.501],
            ],
          },
        },
      ],
    };
    expect((await imported(JSON.stringify(geojson), 'application/geo+json')).name).toBe('The GeoJSON line');
  });

  it('is "Imported itinerary" when neither the request nor the file names it', async () => {
    expect((await imported(gpx({}), GPX_TYPE)).name).toBe('Imported itinerary');
  });

  it('loses control characters, line breaks becoming spaces; a name left blank falls back to the next rule', async () => {
    // C1 controls (U+0080–U+009F) are legal in XML 1.0 text; tabs and line breaks too.
    expect((await imported(gpx({ file: '\u0085\tRidge\u0086\n  walk\u009f ' }), GPX_TYPE)).name).toBe('Ridge walk');
    expect((await imported(gpx({ file: '\u0085 \u009f\t', track: 'Named by its track' }), GPX_TYPE)).name).toBe('Named by its track');
    // JSON can carry every C0 control.
    const geojson = {
      type: 'LineString',
      coordinates: [
        [1.56, 42.5],
        [1.561, 42.501],
      ],
    };
    const named = await imported(
      JSON.stringify({ type: 'Feature', properties: { name: '\u001b[31mRed\u0000 line\u0007' }, geometry: geojson }),
      'application/geo+json',
    );
    expect(named.name).toBe('[31mRed line');
    // A blank file name: the track's name.
    const blank = {
      type: 'FeatureCollection',
      name: '\u0000\u2028 ',
      features: [{ type: 'Feature', properties: { name: '\u0002Line after\u2029blanks' }, geometry: geojson }],
    };
    expect((await imported(JSON.stringify(blank), 'application/geo+json')).name).toBe('Line after blanks');
  });

  it('refuses a name parameter that is blank or holds control characters (400 at the query parameter)', async () => {
    for (const name of ['%09%20', '%1BRed', 'Two%0Alines', '%C2%85']) {
      const error = await errorOf(await importFile(gpx({ file: 'Never used' }), GPX_TYPE, `?name=${name}`));
      expect([error.status, error.code, error.path]).toEqual([400, 'VALIDATION_FAILED', ['request', 'query', 'name']]);
    }
    expect((await imported(gpx({ file: 'Not this one' }), GPX_TYPE, '?name=Kept%20%20as%20given')).name).toBe('Kept  as given');
  });

  it('is cut to 200 characters', async () => {
    const long = `${'Très long nom '.repeat(20)}`;
    const view = await imported(gpx({ file: long }), GPX_TYPE);
    expect(Array.from(view.name)).toHaveLength(200);
    expect(long.startsWith(view.name)).toBe(true);
  });

  it('keeps line breaks and tabs in the description, other control characters removed; waypoint names are cleaned', async () => {
    const view = await imported(
      gpx({ file: 'Described walk', desc: 'First line\r\nSecond\tline\u0085\u009b', wpt: 'Refuge\u0085\n1' }),
      GPX_TYPE,
    );
    expect(view.description).toBe('First line\nSecond\tline');
    expect(view.waypoints.map((w) => w.name)).toEqual([null, 'Refuge 1', null]);
  });
});
