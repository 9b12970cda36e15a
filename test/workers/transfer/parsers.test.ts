// GPX, KML and GeoJSON readers: what they take from a file, and what they refuse.

import { describe, expect, it } from 'vitest';
import { parseGeoJsonTrack } from '../../../workers/transfer/parse-geojson-track.js';
import { parseXmlTrack } from '../../../workers/transfer/parse-xml-track.js';
import { toGpx } from '../../../workers/transfer/serialize-gpx.js';
import { toKml } from '../../../workers/transfer/serialize-kml.js';
import { toGeoJson } from '../../../workers/transfer/serialize-geojson.js';
import type { ItineraryView } from '../../../contracts/itinerary-view.js';
import { planImport } from '../../../workers/transfer/import-plan.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const LIMIT = 10 * 1024 * 1024;

describe('parseXmlTrack', () => {
  it('reads GPX 1.0 (name directly under <gpx>) and every track segment in order', () => {
    const track = parseXmlTrack(
      bytes(`<gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><name>Old GPS</name>
      <trk><trkseg><trkpt lat="42.5" lon="1.56"><ele>1000</ele></trkpt><trkpt lat="42.51" lon="1.57"/></trkseg>
      <trkseg><trkpt lat="42.52" lon="1.58"/><trkpt lat="42.53" lon="1.59"/></trkseg></trk></gpx>`),
      LIMIT,
    );
    expect(track.name).toBe('Old GPS');
    expect(track.lines).toEqual([
      [
        [1.56, 42.5, 1000],
        [1.57, 42.51],
      ],
      [
        [1.58, 42.52],
        [1.59, 42.53],
      ],
    ]);
  });

  it('reads KML inside Folders and MultiGeometry, and gx:Track', () => {
    const track = parseXmlTrack(
      bytes(`<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><Folder>
      <Placemark><MultiGeometry><LineString><coordinates>1.56,42.5 1.57,42.51</coordinates></LineString>
      <Point><coordinates>1.57,42.51</coordinates></Point></MultiGeometry></Placemark>
      <Placemark><gx:Track><gx:coord>1.57 42.51 1100</gx:coord><gx:coord>1.58 42.52 1110</gx:coord></gx:Track></Placemark>
      </Folder></Document></kml>`),
      LIMIT,
    );
    expect(track.lines).toEqual([
      [
        [1.56, 42.5],
        [1.57, 42.51],
      ],
      [
        [1.57, 42.51, 1100],
        [1.58, 42.52, 1110],
      ],
    ]);
    expect(track.waypoints).toHaveLength(1);
  });

  it('does not expand entities declared in a DTD (no entity bombs, no external files)', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>
      <gpx version="1.1"><metadata><name>&b;</name></metadata><trk><trkseg><trkpt lat="42.5" lon="1.56"/><trkpt lat="42.51" lon="1.57"/></trkseg></trk></gpx>`;
    expect(() => parseXmlTrack(bytes(bomb), LIMIT)).toThrow(
      expect.objectContaining({ key: 'malformed_xml_at', params: { format: 'gpx', line: 2, column: 36 } }),
    );
  });

  it('refuses malformed XML and XML of another kind', () => {
    expect(() => parseXmlTrack(bytes('<gpx><trk></gpx>'), LIMIT)).toThrow(
      expect.objectContaining({ key: 'malformed_xml_at', params: { format: 'gpx', line: 1, column: 6 } }),
    );
    expect(() => parseXmlTrack(bytes('<html/>'), LIMIT)).toThrow(expect.objectContaining({ key: 'not_gpx_or_kml' }));
  });
});

describe('parseXmlTrack on what converters write', () => {
  it('reads UTF-16 files with a byte-order mark, and the encoding an XML declaration names', () => {
    const gpx =
      '<gpx version="1.1"><metadata><name>Sant Julià</name></metadata><trk><trkseg><trkpt lat="42.5" lon="1.56"/><trkpt lat="42.51" lon="1.57"/></trkseg></trk></gpx>';
    const utf16 = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(gpx, 'utf16le')]));
    expect(parseXmlTrack(utf16, LIMIT).name).toBe('Sant Julià');
    const latin1 = new Uint8Array(Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>${gpx}`, 'latin1'));
    expect(parseXmlTrack(latin1, LIMIT).name).toBe('Sant Julià');
  });

  it('refuses binary data as such rather than as malformed XML', () => {
    expect(() => parseXmlTrack(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]), LIMIT)).toThrow(
      expect.objectContaining({ key: 'not_text' }),
    );
  });

  it('marks KML Points without anything of their own as possible decoration, never GPX waypoints', () => {
    const kml = parseXmlTrack(
      bytes(`<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
      <Placemark><Point><coordinates>1.56,42.5</coordinates></Point></Placemark>
      <Placemark><description>A spring</description><Point><coordinates>1.56,42.5</coordinates></Point></Placemark>
      <Placemark><ExtendedData><Data name="position"><value>1</value></Data></ExtendedData><Point><coordinates>1.56,42.5</coordinates></Point></Placemark>
      <Placemark><LineString><coordinates>1.56,42.5 1.57,42.51</coordinates></LineString></Placemark></Document></kml>`),
      LIMIT,
    );
    expect(kml.waypoints.map((w) => w.bare ?? false)).toEqual([true, false, false]);
    const gpx = parseXmlTrack(
      bytes(
        '<gpx version="1.1"><wpt lat="42.5" lon="1.56"/><trk><trkseg><trkpt lat="42.5" lon="1.56"/><trkpt lat="42.51" lon="1.57"/></trkseg></trk></gpx>',
      ),
      LIMIT,
    );
    expect(gpx.waypoints[0]?.bare).toBeUndefined();
  });

  it('removes only the text gpsbabel generated: its point names and data tables, its "GPS device" document name', () => {
    const track = parseXmlTrack(
      bytes(`<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>GPS device</name><snippet>Created Mon Nov 23 07:06:10 2026 GMT</snippet>
      <Folder><name>Tracks</name><Folder><name>Morning</name><Folder><name>Points</name>
        <Placemark><name>Morning-0</name><snippet/><description><![CDATA[<table><tr><td>Longitude: 1.560000 </td></tr><tr><td>Latitude: 42.500000 </td></tr><tr><td>Time: 2026-06-14T07:30:00Z </td></tr></table>]]></description><Point><coordinates>1.56,42.5</coordinates></Point></Placemark>
        <Placemark><name>Morning-1</name><description>Fountain</description><Point><coordinates>1.57,42.51</coordinates></Point></Placemark>
        <Placemark><name>Evening-2</name><Point><coordinates>1.57,42.51</coordinates></Point></Placemark>
      </Folder><Placemark><name>Path</name><LineString><coordinates>1.56,42.5 1.57,42.51</coordinates></LineString></Placemark></Folder></Folder></Document></kml>`),
      LIMIT,
    );
    expect(track.name).toBeUndefined();
    expect(track.trackName).toBe('Morning');
    expect(track.waypoints.map((w) => [w.name ?? null, w.bare ?? false])).toEqual([
      [null, true],
      [null, false],
      ['Evening-2', false],
    ]);
  });
});

describe("gpsbabel's gx:Track copy (track=1)", () => {
  const multiTrack =
    '<Placemark><name>Morning</name><styleUrl>#multiTrack</styleUrl><gx:Track><when>2026-06-14T07:30:00Z</when><when>2026-06-14T07:31:00Z</when><gx:coord>1.56 42.5 1000</gx:coord><gx:coord>1.57 42.51 1010</gx:coord></gx:Track></Placemark>';
  const kml = (body: string) =>
    bytes(
      `<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><Folder><name>Tracks</name>${body}</Folder></Document></kml>`,
    );

  it("is left out when the track's folder also holds its lines", () => {
    const track = parseXmlTrack(
      kml(
        `${multiTrack}<Folder><name>Morning</name><Placemark><name>Path</name><LineString><coordinates>1.56,42.5,1000 1.57,42.51,1010</coordinates></LineString></Placemark></Folder>`,
      ),
      LIMIT,
    );
    expect(track.lines).toEqual([
      [
        [1.56, 42.5, 1000],
        [1.57, 42.51, 1010],
      ],
    ]);
  });

  it('is the track when it is the only drawing of it', () => {
    expect(parseXmlTrack(kml(multiTrack), LIMIT).lines).toEqual([
      [
        [1.56, 42.5, 1000],
        [1.57, 42.51, 1010],
      ],
    ]);
  });
});

describe('parseGeoJsonTrack', () => {
  it('reads a bare geometry, a Feature and a GeometryCollection', () => {
    expect(
      parseGeoJsonTrack({
        type: 'LineString',
        coordinates: [
          [1.56, 42.5],
          [1.57, 42.5],
        ],
      }).lines,
    ).toHaveLength(1);
    const gc = parseGeoJsonTrack({
      type: 'Feature',
      properties: { name: 'Mixed' },
      geometry: {
        type: 'GeometryCollection',
        geometries: [
          {
            type: 'MultiLineString',
            coordinates: [
              [
                [1.56, 42.5],
                [1.57, 42.5],
              ],
              [
                [1.57, 42.5],
                [1.58, 42.5],
              ],
            ],
          },
          { type: 'Point', coordinates: [1.57, 42.5] },
        ],
      },
    });
    expect(gc.lines).toHaveLength(2);
    expect(gc.waypoints).toEqual([{ name: 'Mixed', coordinates: [1.57, 42.5] }]);
  });

  it('refuses non-numeric and out-of-range positions, naming the point', () => {
    expect(() =>
      parseGeoJsonTrack({
        type: 'LineString',
        coordinates: [
          [1.56, 42.5],
          ['x', 42.5],
        ],
      }),
    ).toThrow(expect.objectContaining({ key: 'out_of_range', params: { index: 2 } }));
    expect(() =>
      parseGeoJsonTrack({
        type: 'LineString',
        coordinates: [
          [1.56, -90.5],
          [1.57, 42.5],
        ],
      }),
    ).toThrow(expect.objectContaining({ key: 'out_of_range', params: { index: 1 } }));
  });
});

describe('serializers', () => {
  const view = {
    id: 'i',
    name: 'Tom & Jerry <ridge>',
    description: 'Quotes " and \' apostrophes',
    activity: 'HIKING_AND_TRAIL',
    updated_at: '2026-01-01T00:00:00.000Z',
    segments: [
      {
        id: 's1',
        position: 0,
        engine: 'freehand',
        groupId: null,
        name: null,
        geometry: {
          type: 'LineString',
          coordinates: [
            [1.5600001, 42.5000001, 1000.25],
            [1.57, 42.51],
          ],
        },
      },
    ],
    waypoints: [
      { id: 'w0', position: 0, name: 'A&B', kind: null, coordinates: [1.5600001, 42.5000001, 1000.25] },
      { id: 'w1', position: 1, name: null, kind: 'summit', coordinates: [1.57, 42.51] },
    ],
  } as unknown as ItineraryView;

  it('escapes names in GPX and KML, and reads back the same coordinates', () => {
    for (const text of [toGpx(view), toKml(view)]) {
      expect(text).toContain('Tom &amp; Jerry &lt;ridge&gt;');
      const track = parseXmlTrack(bytes(text), LIMIT);
      expect(track.name).toBe('Tom & Jerry <ridge>');
      expect(track.lines.flat()).toEqual([
        [1.5600001, 42.5000001, 1000.25],
        [1.57, 42.51],
      ]);
      expect(track.waypoints.map((w) => [w.name, w.kind])).toEqual([
        ['A&B', undefined],
        [undefined, 'summit'],
      ]);
    }
    const geo = parseGeoJsonTrack(bytes(toGeoJson(view)));
    expect(geo.name).toBe('Tom & Jerry <ridge>');
    expect(geo.lines).toEqual([
      [
        [1.5600001, 42.5000001, 1000.25],
        [1.57, 42.51],
      ],
    ]);
  });

  it("marks each segment's start so that the importer cuts there again, and writes no unnamed junction", () => {
    const segment = (id: string, position: number, coordinates: number[][]) => ({
      id,
      position,
      engine: 'freehand',
      groupId: null,
      name: null,
      geometry: { type: 'LineString', coordinates },
    });
    const two = {
      ...view,
      segments: [
        segment('s1', 0, [
          [1.56, 42.5, 1000],
          [1.565, 42.505, 1010],
        ]),
        segment('s2', 1, [
          [1.565, 42.505, 1010],
          [1.57, 42.51, 1020],
          [1.575, 42.515, 1030],
        ]),
      ],
      waypoints: [
        { id: 'w0', position: 0, name: null, kind: null, coordinates: [1.56, 42.5, 1000] },
        { id: 'w1', position: 1, name: null, kind: null, coordinates: [1.565, 42.505, 1010] },
        { id: 'w2', position: 2, name: 'Top', kind: null, coordinates: [1.575, 42.515, 1030] },
      ],
    } as unknown as ItineraryView;
    for (const track of [parseXmlTrack(bytes(toGpx(two)), LIMIT), parseXmlTrack(bytes(toKml(two)), LIMIT)]) {
      expect(track.waypoints.map((w) => w.name)).toEqual(['Top']);
      const plan = planImport(track);
      expect(plan.lines.map((l) => l.length / 3)).toEqual([2, 3]);
      expect(plan.waypoints.map((w) => w.name ?? null)).toEqual([null, null, 'Top']);
      expect(plan.losses).toEqual([]);
    }
  });
});

describe('what readers count as left out', () => {
  it("reads a Garmin waypoint's symbol as its kind and its desc and cmt as its description, and counts GPX point times, extensions and waypoint details", () => {
    const track = parseXmlTrack(
      bytes(`<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
      <wpt lat="42.5" lon="1.56"><time>2026-06-14T07:00:00Z</time><name>Spring</name><cmt>Cold</cmt><desc>Below the path</desc><sym>Drinking Water</sym></wpt>
      <trk><name>T</name><trkseg>
        <trkpt lat="42.5" lon="1.56"><time>2026-06-14T07:00:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>99</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        <trkpt lat="42.51" lon="1.57"><time>2026-06-14T07:01:00Z</time></trkpt>
      </trkseg></trk></gpx>`),
      LIMIT,
    );
    expect(track.waypoints.map((w) => [w.name, w.kind, w.description, w.losses])).toEqual([
      ['Spring', 'Drinking Water', 'Below the path\n\nCold', ['waypoint_time']],
    ]);
    expect(track.losses).toEqual({ track_point_time: 2, track_point_extension: 1 });
  });

  it('counts gx:Track sensor arrays, which togeojson does not read', () => {
    const track = parseXmlTrack(
      bytes(`<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track>
        <gx:coord>1.56 42.5 0</gx:coord><gx:coord>1.57 42.51 0</gx:coord><gx:coord>1.58 42.52 0</gx:coord>
        <ExtendedData><SchemaData><gx:SimpleArrayData name="cadence"><gx:value>80</gx:value><gx:value>82</gx:value></gx:SimpleArrayData>
        <gx:SimpleArrayData name="heartrate"><gx:value>1</gx:value><gx:value>2</gx:value><gx:value>3</gx:value></gx:SimpleArrayData></SchemaData></ExtendedData>
      </gx:Track></Placemark></kml>`),
      LIMIT,
    );
    expect(track.losses).toEqual({ track_point_extension: 3 });
  });
});
