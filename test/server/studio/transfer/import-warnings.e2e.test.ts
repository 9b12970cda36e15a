// What an import cannot keep is said, not dropped, over real HTTP: a Garmin GPX keeps its waypoints'
// symbols, descriptions and comments, and its off-track waypoint (moved onto the track), and every kind of
// loss in GPX, KML, KMZ and GeoJSON is listed in `extensions.metadata.warnings` with its count, in the
// caller's language.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { haversine } from '../../../../data/region/geo.js';
import { chainPoints, exportOf, FIXTURES, GPX, importFile, type View, serveTransferSuite } from './transfer-harness.js';

const harness = serveTransferSuite();

const GARMIN = readFileSync(join(FIXTURES, 'morning-hike.garmin.gpx'), 'utf8');

interface Warning {
  kind: string;
  count: number;
  message: string;
  distance_m?: number;
}

/** Imports `body` and answers the new itinerary and the warnings of the 201 answer. */
async function importWithWarnings(
  body: string | Uint8Array,
  contentType: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<{ view: View; warnings: Warning[] }> {
  const res = await importFile(Buffer.from(body), contentType, query, { ...harness.writer, ...headers });
  const json = (await res.json()) as { data: View; extensions: { metadata: { warnings: Warning[] } } };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return { view: json.data, warnings: json.extensions.metadata.warnings };
}

const counts = (warnings: Warning[]) => warnings.map((w) => [w.kind, w.count]);

/** The file's track points (lon, lat), in order. */
const trackPoints = (gpx: string) =>
  [...gpx.matchAll(/<trkpt lat="([^"]+)" lon="([^"]+)"/g)].map((m) => [Number(m[2]), Number(m[1])] as [number, number]);

describe('POST /v1/itineraries/import warnings', () => {
  it('keeps a Garmin GPX waypoints with their symbols as kinds, moves the off-track one onto the track, and lists every loss', async () => {
    const { view, warnings } = await importWithWarnings(GARMIN, 'application/gpx+xml');
    const points = trackPoints(GARMIN);
    expect(chainPoints(view)).toHaveLength(points.length);
    expect(view.waypoints.map((w) => [w.name, w.kind])).toEqual([
      [null, null],
      ['Coll de Jou', 'Summit'],
      ['Font del Gall', 'Drinking Water'],
      ['Refugi', 'Lodge'],
      [null, null],
    ]);
    // The spring lies off the track: it sits now on the track point nearest to it.
    const spring = [1.5502, 42.499];
    const distances = points.map(([lon, lat]) => haversine(spring[0]!, spring[1]!, lon, lat));
    const nearest = distances.indexOf(Math.min(...distances));
    const moved = view.waypoints[2]!.coordinates;
    expect([moved[0], moved[1]]).toEqual(points[nearest]);
    expect(view.segments).toHaveLength(4);

    expect(counts(warnings)).toEqual([
      ['track_point_time', 24],
      ['track_point_extension', 24],
      ['waypoint_time', 3],
      ['waypoint_moved_onto_track', 1],
    ]);
    const move = warnings.find((w) => w.kind === 'waypoint_moved_onto_track')!;
    expect(move.distance_m).toBe(Math.ceil(Math.min(...distances)));
    expect(move.message).toContain(`${move.distance_m} m`);
    for (const w of warnings) expect(w.message).toContain(String(w.count));
  });

  it("keeps a Garmin GPX waypoint's description and comment as its description, as the draft reads back", async () => {
    const { view } = await importWithWarnings(GARMIN, 'application/gpx+xml', '?name=Morning%20described');
    const res = await fetch(`${harness.server.url}/v1/itineraries/${view.id}?version=draft`, { headers: harness.writer });
    expect(res.status).toBe(200);
    const draft = ((await res.json()) as { data: View }).data;
    expect(draft.waypoints.map((w) => [w.name, w.description])).toEqual([
      [null, null],
      ['Coll de Jou', null],
      ['Font del Gall', 'Spring below the path'],
      // <desc> first, then the different <cmt>, a blank line apart.
      ['Refugi', 'Guarded hut, 40 places\n\nOpen June to September'],
      [null, null],
    ]);
  });

  it('says the warnings in the language of Accept-Language, with the same kinds and counts', async () => {
    const en = await importWithWarnings(GARMIN, 'application/gpx+xml', '?name=Morning%20en');
    const de = await importWithWarnings(GARMIN, 'application/gpx+xml', '?name=Morning%20de', { 'Accept-Language': 'de' });
    expect(counts(de.warnings)).toEqual(counts(en.warnings));
    expect(de.warnings[0]!.message).not.toBe(en.warnings[0]!.message);
    expect(de.warnings.find((w) => w.kind === 'waypoint_moved_onto_track')!.message).toContain('Wegpunkte');
  });

  it('lists the symbol of a waypoint whose type became its kind, routes beside tracks, and other data', async () => {
    const file = `<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="42.5001" lon="1.5600"><name>Bridge</name><sym>Bridge</sym><type>crossing</type><link href="https://example.org/bridge"/></wpt>
      <rte><name>Plan</name><rtept lat="42.4990" lon="1.5580"/><rtept lat="42.5010" lon="1.5630"/></rte>
      <trk><name>Walked</name><type>hiking</type><trkseg>
        <trkpt lat="42.4990" lon="1.5580"><ele>1000</ele></trkpt><trkpt lat="42.5001" lon="1.5600"><ele>1010</ele><sat>7</sat></trkpt>
        <trkpt lat="42.5010" lon="1.5630"><ele>1020</ele></trkpt></trkseg></trk></gpx>`;
    const { view, warnings } = await importWithWarnings(file, 'application/gpx+xml');
    expect(view.waypoints.map((w) => w.kind)).toEqual([null, 'crossing', null]);
    expect(counts(warnings)).toEqual([
      ['waypoint_symbol', 1],
      ['feature_properties', 3],
      ['route', 1],
    ]);
  });

  const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><name>Evening ride</name>
  <Style id="red"><LineStyle><color>ff0000ff</color><width>4</width></LineStyle></Style>
  <Schema id="sensors"><gx:SimpleArrayField name="heartrate" type="int"/></Schema>
  <Placemark><name>Ride</name><styleUrl>#red</styleUrl><gx:Track>
    <when>2026-06-14T18:00:00Z</when><when>2026-06-14T18:01:00Z</when><when>2026-06-14T18:02:00Z</when><when>2026-06-14T18:03:00Z</when>
    <gx:coord>1.5580 42.4990 1000</gx:coord><gx:coord>1.5600 42.5001 1010</gx:coord><gx:coord>1.5615 42.5005 1015</gx:coord><gx:coord>1.5630 42.5010 1020</gx:coord>
    <ExtendedData><SchemaData schemaUrl="#sensors"><gx:SimpleArrayData name="heartrate">
      <gx:value>120</gx:value><gx:value>124</gx:value><gx:value>131</gx:value><gx:value>128</gx:value>
    </gx:SimpleArrayData></SchemaData></ExtendedData>
  </gx:Track></Placemark>
  <Placemark><name>Bridge</name><description>Old stone bridge</description><TimeStamp><when>2026-06-14T18:01:00Z</when></TimeStamp>
    <styleUrl>#red</styleUrl><ExtendedData><Data name="kind"><value>crossing</value></Data><Data name="built"><value>1820</value></Data></ExtendedData>
    <Point><coordinates>1.5600,42.5001,1010</coordinates></Point></Placemark>
  <Placemark><name>Meadow</name><Polygon><outerBoundaryIs><LinearRing><coordinates>1.55,42.49 1.56,42.49 1.56,42.50 1.55,42.49</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
</Document></kml>`;
  const KML_LOSSES = [
    ['track_point_time', 4],
    ['track_point_extension', 4],
    ['waypoint_time', 1],
    ['style', 2],
    ['feature_properties', 1],
    ['other_geometry', 1],
  ];

  it('lists what a KML with gx:Track times, sensor data, extended data, styles and a polygon loses', async () => {
    const { view, warnings } = await importWithWarnings(KML, 'application/vnd.google-earth.kml+xml');
    expect(view.waypoints.map((w) => [w.name, w.kind, w.description])).toEqual([
      [null, null, null],
      ['Bridge', 'crossing', 'Old stone bridge'],
      [null, null, null],
    ]);
    expect(counts(warnings)).toEqual(KML_LOSSES);
  });

  it('lists the same for the KML inside a KMZ archive', async () => {
    const kmz = zipSync({ 'doc.kml': strToU8(KML) });
    const { warnings } = await importWithWarnings(kmz, 'application/vnd.google-earth.kmz', '?name=Evening%20ride%20KMZ');
    expect(counts(warnings)).toEqual(KML_LOSSES);
  });

  it('lists what a GeoJSON with coordTimes, per-point data, properties and styles loses', async () => {
    const geojson = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: {
            name: 'Lunch loop',
            stroke: '#f00',
            coordTimes: ['2026-06-14T12:00:00Z', '2026-06-14T12:01:00Z', null],
            coordinateProperties: { heart: [110, null, 118] },
            device: 'Watch 5',
          },
          geometry: {
            type: 'LineString',
            coordinates: [
              [1.558, 42.499],
              [1.56, 42.5001],
              [1.563, 42.501],
            ],
          },
        },
        {
          type: 'Feature',
          properties: { name: 'Bench', time: '2026-06-14T12:01:00Z', description: 'In the shade', 'marker-color': '#0f0' },
          geometry: { type: 'Point', coordinates: [1.56, 42.5001] },
        },
      ],
    };
    const { view, warnings } = await importWithWarnings(JSON.stringify(geojson), 'application/geo+json');
    expect(view.waypoints.map((w) => [w.name, w.description])).toEqual([
      [null, null],
      ['Bench', 'In the shade'],
      [null, null],
    ]);
    expect(counts(warnings)).toEqual([
      ['track_point_time', 2],
      ['track_point_extension', 2],
      ['waypoint_time', 1],
      ['style', 2],
      ['feature_properties', 1],
    ]);
  });

  it('answers an empty list when the file holds nothing the itinerary does not keep (its own exports)', async () => {
    const ridge = await importWithWarnings(GPX, 'application/gpx+xml', '?name=Ridge%20to%20export');
    expect(ridge.warnings.map((w) => w.kind)).toContain('track_point_time');
    for (const [format, type] of [
      ['gpx', 'application/gpx+xml'],
      ['kml', 'application/vnd.google-earth.kml+xml'],
      ['geojson', 'application/geo+json'],
    ] as const) {
      const file = await (await exportOf(ridge.view.id, `?format=${format}`)).text();
      const again = await importWithWarnings(file, type, `?name=Ridge%20again%20${format}`);
      expect(again.warnings, format).toEqual([]);
    }
  });
});
