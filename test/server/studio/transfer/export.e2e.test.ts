// Itinerary export (GPX, KML, GeoJSON) over real HTTP: the files, round trips through each format, and
// what share tokens and members may read.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Bootstrapped, RunningServer } from '../../../helpers/server.js';
import {
  chainPoints,
  errorOf,
  expectSameCoordinates,
  exportOf,
  GEOJSON,
  GPX,
  imported,
  importFile,
  KML,
  publish,
  serveTransferSuite,
  type View,
} from './transfer-harness.js';

const h = serveTransferSuite();
let server: RunningServer;
let B: Bootstrapped;
let writer: Record<string, string>;
let ownerToken: string;
beforeAll(() => {
  ({ server, B, writer, ownerToken } = h);
});

describe('GET /v1/itineraries/{itinerary_id}/export', () => {
  let ridge: View;

  beforeAll(async () => {
    ridge = await imported(GPX, 'application/gpx+xml', '?name=Ridge%20%C3%A0%20exporter');
  });

  it('writes GPX 1.1: one continuous trkseg marking where each segment starts, a wpt per named waypoint', async () => {
    const res = await exportOf(ridge.id, '?format=gpx');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/gpx\+xml/);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Ridge-a-exporter.gpx"; filename*=UTF-8''${encodeURIComponent('Ridge à exporter.gpx')}`,
    );
    const text = await res.text();
    expect(text).toContain('<gpx version="1.1"');
    expect(text).toContain('xmlns="http://www.topografix.com/GPX/1/1"');
    // A trkseg break is drawn as a gap by devices: the three segments are one trkseg with a marker each.
    expect(text.match(/<trkseg>/g)).toHaveLength(1);
    expect(text.match(/<trkpt /g)).toHaveLength(chainPoints(ridge).length);
    expect(text.match(/<cairn:segment /g)).toHaveLength(3);
    expect(text).toMatch(/<trkseg>\n<trkpt [^>]*><ele>[^<]*<\/ele><extensions><cairn:segment position="0"/);
    // The unnamed start and end are junctions only, not waypoints to show.
    expect([...text.matchAll(/<wpt [\s\S]*?<\/wpt>/g)].map((m) => /<name>([^<]*)<\/name>/.exec(m[0])?.[1])).toEqual([
      'Refugi',
      'Pic del Maià',
    ]);
  });

  it('writes KML 2.2: one LineString with the start of each segment, a Point Placemark per named waypoint', async () => {
    const res = await exportOf(ridge.id, '?format=kml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.google-earth\.kml\+xml/);
    expect(res.headers.get('content-disposition')).toContain('filename="Ridge-a-exporter.kml"');
    const text = await res.text();
    expect(text).toContain('xmlns="http://www.opengis.net/kml/2.2"');
    expect(text.match(/<LineString>/g)).toHaveLength(1);
    const [first, second] = ridge.segments.map((s) => s.geometry.coordinates.length);
    expect(text).toContain(`<Data name="segment_starts"><value>0 ${first! - 1} ${first! + second! - 2}</value></Data>`);
    expect(text.match(/<Point>/g)).toHaveLength(2);
  });

  it('writes a GeoJSON FeatureCollection: LineString per segment with engine, position, groupId; Points for named waypoints', async () => {
    const res = await exportOf(ridge.id, '?format=geojson');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/geo\+json/);
    expect(res.headers.get('content-disposition')).toContain('filename="Ridge-a-exporter.geojson"');
    const fc = (await res.json()) as { type: string; features: { geometry: { type: string }; properties: Record<string, unknown> }[] };
    expect(fc.type).toBe('FeatureCollection');
    const lines = fc.features.filter((f) => f.geometry.type === 'LineString');
    expect(lines.map((f) => [f.properties.engine, f.properties.position, f.properties.groupId])).toEqual([
      ['freehand', 0, null],
      ['freehand', 1, null],
      ['freehand', 2, null],
    ]);
    expect(fc.features.filter((f) => f.geometry.type === 'Point').map((f) => f.properties.name)).toEqual(['Refugi', 'Pic del Maià']);
  });

  it('defaults to GPX and refuses an unknown format with 400', async () => {
    const res = await exportOf(ridge.id, '');
    expect(res.headers.get('content-type')).toMatch(/^application\/gpx\+xml/);
    const error = await errorOf(await exportOf(ridge.id, '?format=shp'));
    expect([error.status, error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('exports an itinerary without segments as valid, empty files', async () => {
    const res = await fetch(`${server.url}/v1/itineraries`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...writer },
      body: JSON.stringify({ name: 'Empty plan' }),
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    expect(await (await exportOf(id, '?format=gpx')).text()).not.toContain('<trkseg>');
    expect(await (await exportOf(id, '?format=kml')).text()).not.toContain('<Placemark>');
    expect(((await (await exportOf(id, '?format=geojson')).json()) as { features: unknown[] }).features).toEqual([]);
  });

  for (const [format, type] of [
    ['gpx', 'application/gpx+xml'],
    ['kml', 'application/vnd.google-earth.kml+xml'],
    ['geojson', 'application/geo+json'],
  ] as const) {
    it(`round-trips through ${format}: import(export(x)) keeps every coordinate, segment and waypoint`, async () => {
      const file = await (await exportOf(ridge.id, `?format=${format}`)).text();
      const again = await imported(file, type, `?name=${format}%20round%20trip`);
      expect(again.segments).toHaveLength(ridge.segments.length);
      ridge.segments.forEach((s, i) => {
        expectSameCoordinates(again.segments[i]!.geometry.coordinates, s.geometry.coordinates);
      });
      expect(again.waypoints.map((w) => [w.name, w.kind])).toEqual(ridge.waypoints.map((w) => [w.name, w.kind]));
      expectSameCoordinates(
        again.waypoints.map((w) => w.coordinates),
        ridge.waypoints.map((w) => w.coordinates),
      );
    });
  }

  describe("waypoints' descriptions", () => {
    // A named waypoint with a description and a comment, and an unnamed one with only a description.
    const DESCRIBED = `<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="42.5001" lon="1.5600"><name>Bridge</name><cmt>Slippery when wet</cmt><desc>Stone &amp; wood &lt;1820&gt;</desc></wpt>
      <wpt lat="42.5010" lon="1.5630"><desc>Spring "Font" — drinkable</desc></wpt>
      <trk><name>Described</name><trkseg>
        <trkpt lat="42.4990" lon="1.5580"><ele>1000</ele></trkpt><trkpt lat="42.5001" lon="1.5600"><ele>1010</ele></trkpt>
        <trkpt lat="42.5005" lon="1.5615"><ele>1015</ele></trkpt><trkpt lat="42.5010" lon="1.5630"><ele>1020</ele></trkpt>
      </trkseg></trk></gpx>`;
    const BRIDGE = 'Stone & wood <1820>\n\nSlippery when wet';
    const SPRING = 'Spring "Font" — drinkable';
    const descriptions = (view: View) => view.waypoints.map((w) => w.description);
    let described: View;

    beforeAll(async () => {
      described = await imported(DESCRIBED, 'application/gpx+xml', '?name=Described');
      expect(descriptions(described)).toEqual([null, BRIDGE, SPRING]);
    });

    it('are written in each format, for every waypoint that has one', async () => {
      const gpx = await (await exportOf(described.id, '?format=gpx')).text();
      expect([...gpx.matchAll(/<wpt [\s\S]*?<\/wpt>/g)].map((m) => /<desc>([^<]*)<\/desc>/.exec(m[0])?.[1])).toEqual([
        'Stone &amp; wood &lt;1820&gt;\n\nSlippery when wet',
        'Spring &quot;Font&quot; — drinkable',
      ]);
      const kml = await (await exportOf(described.id, '?format=kml')).text();
      const points = [...kml.matchAll(/<Placemark>((?:(?!<\/Placemark>)[\s\S])*<Point>[\s\S]*?)<\/Placemark>/g)];
      expect(points.map((m) => /<description>([^<]*)<\/description>/.exec(m[1]!)?.[1])).toEqual([
        'Stone &amp; wood &lt;1820&gt;\n\nSlippery when wet',
        'Spring &quot;Font&quot; — drinkable',
      ]);
      const fc = (await (await exportOf(described.id, '?format=geojson')).json()) as {
        features: { geometry: { type: string }; properties: Record<string, unknown> }[];
      };
      expect(fc.features.filter((f) => f.geometry.type === 'Point').map((f) => [f.properties.name, f.properties.description])).toEqual([
        ['Bridge', BRIDGE],
        [null, SPRING],
      ]);
    });

    for (const [format, type] of [
      ['gpx', 'application/gpx+xml'],
      ['kml', 'application/vnd.google-earth.kml+xml'],
      ['geojson', 'application/geo+json'],
    ] as const) {
      it(`come back from ${format} as they were, with nothing reported lost`, async () => {
        const file = await (await exportOf(described.id, `?format=${format}`)).text();
        const res = await importFile(file, type, `?name=Described%20${format}`);
        const json = (await res.json()) as { data: View; extensions: { metadata: { warnings: unknown[] } } };
        expect(res.status, JSON.stringify(json)).toBe(201);
        expect(json.data.waypoints.map((w) => [w.name, w.description])).toEqual(described.waypoints.map((w) => [w.name, w.description]));
        expect(json.extensions.metadata.warnings).toEqual([]);
      });
    }
  });

  it('round-trips an itinerary without file elevations through each format', async () => {
    const loop = await imported(GEOJSON, 'application/geo+json', '?name=Loop%20for%20round%20trips');
    for (const [format, type] of [
      ['gpx', 'application/gpx+xml'],
      ['kml', 'application/vnd.google-earth.kml+xml'],
      ['geojson', 'application/geo+json'],
    ]) {
      const file = await (await exportOf(loop.id, `?format=${format}`)).text();
      const again = await imported(file, type as string, `?name=Loop%20${format}`);
      expectSameCoordinates(chainPoints(again), chainPoints(loop));
    }
  });

  it('is 404 to a share token while never published, then serves the published version', async () => {
    const share = await fetch(`${server.url}/v1/itineraries/${ridge.id}/share`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ownerToken}` },
    });
    const token = ((await share.json()) as { data: { token: string } }).data.token;
    const before = await errorOf(await exportOf(ridge.id, '?format=gpx', { 'X-Share-Token': token }));
    expect([before.status, before.code]).toEqual([404, 'NOT_FOUND']);
    const viaQuery = await errorOf(await exportOf(ridge.id, `?format=gpx&share_token=${token}`, {}));
    expect(viaQuery.status).toBe(404);

    await publish(ridge.id);
    const after = await exportOf(ridge.id, '?format=geojson&version=draft', { 'X-Share-Token': token });
    expect(after.status).toBe(200);
    const fc = (await after.json()) as { name: string; features: unknown[] };
    expect(fc.name).toBe('Ridge à exporter');
    expect(fc.features).toHaveLength(5);
  });

  it('serves members the draft by default and 404 for version=published when never published', async () => {
    const fresh = await imported(KML, 'application/vnd.google-earth.kml+xml', '?name=Never%20published');
    expect((await exportOf(fresh.id, '?format=kml')).status).toBe(200);
    const error = await errorOf(await exportOf(fresh.id, '?format=kml&version=published'));
    expect([error.status, error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it("is 404 for another organization's private itinerary", async () => {
    const error = await errorOf(await exportOf(ridge.id, '?format=gpx', { 'X-API-Key': B.publishableKey.key }));
    expect([error.status, error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
