// Itinerary import (GPX, KML, GeoJSON) over real HTTP: what is kept, how lines are split at waypoints, the
// refusals, the size limit and access.

import Database from 'better-sqlite3';
import { connect } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CollectionStore } from '../../../../data/stores/collection-store.js';
import { parseResponse, type RawResponse } from '../../../helpers/raw-http.js';
import type { Bootstrapped, RunningServer } from '../../../helpers/server.js';
import {
  chainPoints,
  errorOf,
  expectSameCoordinates,
  GEOJSON,
  GPX,
  gpxPoints,
  imported,
  importFile,
  KML,
  login,
  rawExchange,
  type Position,
  serveTransferSuite,
  type View,
} from './transfer-harness.js';

const h = serveTransferSuite();
let server: RunningServer;
let A: Bootstrapped;
let B: Bootstrapped;
let writer: Record<string, string>;
let viewerId: string;
let ownerToken: string;
beforeAll(() => {
  ({ server, A, B, writer, viewerId, ownerToken } = h);
});

describe('POST /v1/itineraries/import', () => {
  let ridge: View;

  it('imports a GPX track, keeping every point and elevation, split into 3 segments at its 2 waypoints', async () => {
    ridge = await imported(GPX, 'application/gpx+xml');
    expect(ridge.name).toBe('Coll de la Botella ridge');
    expect(ridge.description).toBe('Morning walk along the ridge, recorded with a handheld GPS.');
    expect(ridge.activity).toBe('HIKING_AND_TRAIL');
    expect(ridge.privacy).toBe('private');
    expect(ridge.segments.map((s) => s.engine)).toEqual(['freehand', 'freehand', 'freehand']);
    const points = gpxPoints(GPX);
    expect(points).toHaveLength(45);
    expectSameCoordinates(chainPoints(ridge), points);
    // Both track segments of the file are joined; the waypoints split at the track's own vertices 15 and 30.
    expect(ridge.segments.map((s) => s.geometry.coordinates.length)).toEqual([16, 16, 15]);
    expect(ridge.waypoints.map((w) => [w.name, w.kind])).toEqual([
      [null, null],
      ['Refugi', 'hut'],
      ['Pic del Maià', 'summit'],
      [null, null],
    ]);
    expectSameCoordinates(
      ridge.waypoints.map((w) => w.coordinates),
      [points[0], points[15], points[30], points[44]] as Position[],
    );
  });

  it('imports a KML LineString with its altitudes; a Point at the start names it', async () => {
    const view = await imported(KML, 'application/vnd.google-earth.kml+xml');
    expect(view.name).toBe('Valley path to the lakes');
    expect(view.segments).toHaveLength(1);
    const coordinates = KML.split('<coordinates>')[1]!
      .split('</coordinates>')[0]!
      .trim()
      .split(/\s+/)
      .map((t) => t.split(',').map(Number));
    expect(coordinates).toHaveLength(32);
    expectSameCoordinates(chainPoints(view), coordinates);
    expect(view.waypoints.map((w) => w.name)).toEqual(['Car park', null]);
  });

  it('imports 2D GeoJSON (application/geo+json), keeping every position; elevation comes from the region', async () => {
    const view = await imported(GEOJSON, 'application/geo+json');
    expect(view.name).toBe('Forest loop');
    const expected = (JSON.parse(GEOJSON) as { features: { geometry: { coordinates: Position[] } }[] }).features[0]!.geometry.coordinates;
    const got = chainPoints(view);
    expectSameCoordinates(
      got.map((p) => p.slice(0, 2)),
      expected,
    );
  });

  it('accepts GeoJSON as application/json, and GPX or KML as application/xml or text/xml (sniffed by root element)', async () => {
    expect((await imported(GEOJSON, 'application/json', '?name=Forest%20loop%20json')).segments).toHaveLength(1);
    expect((await imported(GPX, 'application/xml; charset=utf-8', '?name=Ridge%20xml')).segments).toHaveLength(3);
    expect((await imported(KML, 'text/xml', '?name=Valley%20xml')).segments).toHaveLength(1);
  });

  it('tells GeoJSON, GPX and KML apart by content when sent as application/octet-stream', async () => {
    expect((await imported(GEOJSON, 'application/octet-stream', '?name=Forest%20loop%20bytes')).segments).toHaveLength(1);
    expect((await imported(GPX, 'application/octet-stream', '?name=Ridge%20bytes')).segments).toHaveLength(3);
    expect((await imported(KML, 'application/octet-stream', '?name=Valley%20bytes')).segments).toHaveLength(1);
  });

  it('takes name, activity, privacy and collection_id from the query', async () => {
    const view = await imported(
      GPX,
      'application/gpx+xml',
      `?name=Ridge%20for%20runners&activity=TRAIL_RUNNING&privacy=public&collection_id=${A.collection.id}`,
    );
    expect(view).toMatchObject({ name: 'Ridge for runners', activity: 'TRAIL_RUNNING', privacy: 'public' });
    const db = new Database(join(server.dataDir, 'platform.db'), { readonly: true });
    try {
      expect(new CollectionStore(db).itineraryIds(A.collection.id)).toContain(view.id);
    } finally {
      db.close();
    }
  });

  it('names a file without a name "Imported itinerary"', async () => {
    const bare = GEOJSON.replace('"name": "Forest loop",', '');
    expect((await imported(bare, 'application/geo+json')).name).toBe('Imported itinerary');
  });

  it('uses GPX routes when the file has no track, and moves a waypoint farther than 25 m from the line onto it', async () => {
    const rte = `<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="42.5100" lon="1.5500"><name>Far spring</name></wpt>
      <wpt lat="42.5001" lon="1.5600"><name>Bridge</name></wpt>
      <rte><name>Planned route</name>
        <rtept lat="42.4990" lon="1.5580"/><rtept lat="42.5001" lon="1.5600"/><rtept lat="42.5010" lon="1.5630"/>
      </rte></gpx>`;
    const view = await imported(rte, 'application/gpx+xml');
    expect(view.name).toBe('Planned route');
    // The spring (over a kilometre away) is nearest to the bridge's point, which the bridge, on the line,
    // keeps: the spring takes the nearest point still free, the start.
    expect(view.segments).toHaveLength(2);
    expect(view.waypoints.map((w) => w.name)).toEqual(['Far spring', 'Bridge', null]);
  });

  it('keeps repeated points (a device standing still) and a waypoint on one of them', async () => {
    const pts = [
      [1.556, 42.5],
      [1.557, 42.5],
      [1.557, 42.5],
      [1.557, 42.5],
      [1.558, 42.5],
      [1.559, 42.5],
    ];
    const file = `<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="42.5" lon="1.557"><name>Pause</name></wpt><trk><name>Pauses</name><trkseg>${pts
      .map(([lon, lat], i) => `<trkpt lat="${lat}" lon="${lon}"><ele>${1000 + i}</ele></trkpt>`)
      .join('')}</trkseg></trk></gpx>`;
    const view = await imported(file, 'application/gpx+xml');
    expect(chainPoints(view)).toEqual(pts.map(([lon, lat], i) => [lon, lat, 1000 + i]));
    expect(view.segments.map((s) => s.geometry.coordinates.length)).toEqual([2, 5]);
    expect(view.waypoints.map((w) => w.name)).toEqual([null, 'Pause', null]);
  });

  it('keeps recorded elevations when some points lack one, filling the gaps between them', async () => {
    const file = `<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Gaps</name><trkseg>
      <trkpt lat="42.5" lon="1.556"><ele>1500</ele></trkpt><trkpt lat="42.5" lon="1.557"/><trkpt lat="42.5" lon="1.558"><ele>1520</ele></trkpt>
      </trkseg></trk></gpx>`;
    const view = await imported(file, 'application/gpx+xml');
    const ele = chainPoints(view).map((p) => p[2]);
    expect(ele[0]).toBe(1500);
    expect(ele[1]).toBeCloseTo(1510, 3);
    expect(ele[2]).toBe(1520);
  });

  it('answers 409 CONFLICT with the holder in extensions.metadata.itinerary.id when the name is taken', async () => {
    const res = await importFile(GPX, 'application/gpx+xml');
    const error = await errorOf(res);
    expect(error.status).toBe(409);
    expect(error.code).toBe('CONFLICT');
    expect(error.body.extensions.metadata).toEqual({ itinerary: { id: ridge.id } });
  });

  describe('refusals', () => {
    const cases: [string, string, string, number, string][] = [
      ['malformed XML', '<gpx><trk><trkseg>', 'application/gpx+xml', 400, 'BAD_REQUEST'],
      [
        'XML that is neither GPX nor KML',
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>',
        'application/xml',
        400,
        'BAD_REQUEST',
      ],
      ['malformed JSON as application/json', '{"type": "FeatureCollection",', 'application/json', 400, 'BAD_REQUEST'],
      ['malformed JSON as application/geo+json', '{"type": ', 'application/geo+json', 400, 'BAD_REQUEST'],
      ['JSON that is not GeoJSON', '{"hello": "world"}', 'application/geo+json', 400, 'BAD_REQUEST'],
      [
        'GeoJSON with no line',
        '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1.56,42.5]}}',
        'application/geo+json',
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a GPX with waypoints only',
        '<gpx version="1.1"><wpt lat="42.5" lon="1.56"/></gpx>',
        'application/gpx+xml',
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a latitude out of range',
        '<gpx version="1.1"><trk><trkseg><trkpt lat="42.5" lon="1.56"/><trkpt lat="95" lon="1.57"/></trkseg></trk></gpx>',
        'application/gpx+xml',
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a longitude out of range',
        '{"type":"LineString","coordinates":[[1.56,42.5],[181,42.5]]}',
        'application/geo+json',
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a track of one point',
        '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>1.56,42.5</coordinates></LineString></Placemark></kml>',
        'application/vnd.google-earth.kml+xml',
        400,
        'VALIDATION_FAILED',
      ],
      ['a wrong content type', GPX, 'text/plain', 400, 'BAD_REQUEST'],
      ['an empty body', '', 'application/gpx+xml', 400, 'BAD_REQUEST'],
    ];
    for (const [what, body, type, status, code] of cases) {
      it(`refuses ${what} with ${status} ${code} and a clear message`, async () => {
        const error = await errorOf(await importFile(body, type, '?name=Refused'));
        expect(error.status).toBe(status);
        expect(error.code).toBe(code);
        expect(error.message.length).toBeGreaterThan(10);
        if (code === 'VALIDATION_FAILED') expect(error.path).toEqual(['request', 'body']);
      });
    }

    it("explains a malformed file in the caller's language", async () => {
      const res = await importFile('<gpx><trk>', 'application/gpx+xml', '', { ...writer, 'Accept-Language': 'fr' });
      const error = await errorOf(res);
      expect(error.message).toBe("Le fichier n'est pas un GPX valide : le XML est mal formé vers la ligne 1, colonne 6.");
      const out = await errorOf(
        await importFile('{"type":"LineString","coordinates":[[1.56,42.5],[1.57,95]]}', 'application/geo+json', '', writer),
      );
      expect(out.message).toMatch(/Point 2 is out of range/);
    });

    it('answers 413 PAYLOAD_TOO_LARGE to a declared Content-Length beyond 10 MiB, without reading the body', async () => {
      const raw = await rawExchange((socket) => {
        socket.write(
          `POST /v1/itineraries/import HTTP/1.1\r\nHost: x\r\nX-API-Key: ${A.publishableKey.key}\r\nX-User-Id: ${A.owner.id}\r\n` +
            `Content-Type: application/gpx+xml\r\nContent-Length: ${10 * 1024 * 1024 + 1}\r\n\r\n<gpx>`,
        );
      });
      expect(raw.startsWith('HTTP/1.1 413')).toBe(true);
      expect(raw).toContain('"PAYLOAD_TOO_LARGE"');
    });

    // The client stops writing once it has passed the limit, without ever ending the body. uWS closes the
    // connection right after its 413 (it closes, rather than lingers, to stop a client sending more), so bytes it
    // has not read make its side reset the connection; a client still writing then has its write fail, and Node
    // destroys the socket before reading the answer that had arrived (RFC 9112 §9.6 describes this reset). A
    // client that has stopped writing reads the answer, as browsers and curl do.
    it('answers 413 to a streamed body as soon as it passes 10 MiB, before the client finishes', async () => {
      const chunk = ' '.repeat(256 * 1024);
      let sent = 0;
      const raw = await rawExchange((socket) => {
        socket.write(
          `POST /v1/itineraries/import HTTP/1.1\r\nHost: x\r\nX-API-Key: ${A.publishableKey.key}\r\nX-User-Id: ${A.owner.id}\r\n` +
            'Content-Type: application/gpx+xml\r\nTransfer-Encoding: chunked\r\n\r\n',
        );
        const pump = () => {
          // One chunk past 10 MiB, then nothing more: never the final chunk.
          if (socket.destroyed || sent > 10 * 1024 * 1024) return;
          sent += chunk.length;
          socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`, pump);
        };
        pump();
      }, 5000);
      expect(raw.startsWith('HTTP/1.1 413')).toBe(true);
      expect(raw).toContain('"PAYLOAD_TOO_LARGE"');
      expect(sent).toBeGreaterThan(10 * 1024 * 1024);
      expect(sent).toBeLessThan(20 * 1024 * 1024);
    });

    it('accepts a file just under the limit size class (a 5 MiB GPX is read, not refused for size)', async () => {
      const pad = `<!-- ${'x'.repeat(5 * 1024 * 1024)} -->`;
      const res = await importFile(GPX.replace('<trk>', `${pad}<trk>`), 'application/gpx+xml', '?name=Padded%20ridge');
      expect(res.status).toBe(201);
    });
  });

  // The server cannot start on the import before the file's last byte: that byte is held back, and the health
  // checks go out only once it is sent, one after the other. The second is sent after the first is answered, so
  // the server has the whole file by then. A server whose event loop stayed busy with the import from its last
  // byte to its answer would answer both after the import. (That the file is read on the worker pool, not on the
  // event loop, is shown in test/workers/transfer.test.ts.)
  it('imports a large GPX (over 1 MiB) keeping every point, answering other requests meanwhile', async () => {
    const n = 15_000;
    const points = Array.from({ length: n }, (_, i) => {
      const t = i / n;
      return `<trkpt lat="${(42.485 + 0.03 * t + 0.0002 * Math.sin(i)).toFixed(7)}" lon="${(1.535 + 0.05 * t).toFixed(7)}"><ele>${(1200 + 200 * Math.sin(i / 400)).toFixed(1)}</ele><time>2026-06-14T07:30:00Z</time></trkpt>`;
    });
    const file = `<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Long day</name><trkseg>\n${points.join('\n')}\n</trkseg></trk></gpx>`;
    expect(file.length).toBeGreaterThan(1024 * 1024);
    const events: string[] = [];
    const upload = await heldBackUpload(file, 'application/gpx+xml');
    const answered = upload.answer.then((res) => {
      events.push('import');
      return res;
    });
    await upload.sendLastByte();
    for (const probe of ['health 1', 'health 2']) {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      events.push(probe);
    }
    const res = await answered;
    expect(events).toEqual(['health 1', 'health 2', 'import']);
    expect(res.status).toBe(201);
    const view = (JSON.parse(res.body) as { data: View }).data;
    expect(chainPoints(view)).toHaveLength(n);
  });

  describe('access', () => {
    it('refuses a share token (403): links are read-only', async () => {
      const share = await fetch(`${server.url}/v1/itineraries/${ridge.id}/share`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ownerToken}` },
      });
      expect(share.status).toBe(201);
      const token = ((await share.json()) as { data: { token: string } }).data.token;
      const error = await errorOf(await importFile(GPX, 'application/gpx+xml', '?name=Shared', { 'X-Share-Token': token }));
      expect([error.status, error.code]).toEqual([403, 'FORBIDDEN']);
    });

    it('refuses a viewer (403) and a key write without X-User-Id (400)', async () => {
      const viewer = await errorOf(
        await importFile(GPX, 'application/gpx+xml', '?name=Viewer', { 'X-API-Key': A.publishableKey.key, 'X-User-Id': viewerId }),
      );
      expect([viewer.status, viewer.code]).toEqual([403, 'FORBIDDEN']);
      const anonymous = await errorOf(await importFile(GPX, 'application/gpx+xml', '?name=Nobody', { 'X-API-Key': A.publishableKey.key }));
      expect([anonymous.status, anonymous.code]).toEqual([400, 'BAD_REQUEST']);
      const none = await errorOf(await importFile(GPX, 'application/gpx+xml', '?name=None', {}));
      expect([none.status, none.code]).toEqual([401, 'UNAUTHORIZED']);
    });

    it('refuses a signed-in viewer (403)', async () => {
      const token = await login('viewer@transfer.test', 'viewer-pass-1');
      const error = await errorOf(
        await importFile(GPX, 'application/gpx+xml', '?name=Viewer%20signed%20in', { Authorization: `Bearer ${token}` }),
      );
      expect([error.status, error.code]).toEqual([403, 'FORBIDDEN']);
    });

    it("names the query parameter when collection_id is not one of the organization's collections", async () => {
      const error = await errorOf(await importFile(GPX, 'application/gpx+xml', `?name=Elsewhere&collection_id=${B.collection.id}`));
      expect([error.status, error.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(error.path).toEqual(['request', 'query', 'collection_id']);
    });

    it('lets a signed-in writer import without a key', async () => {
      const res = await importFile(GPX, 'application/gpx+xml', '?name=Owner%20import', { Authorization: `Bearer ${ownerToken}` });
      expect(res.status).toBe(201);
    });
  });
});

/**
 * An import over its own connection with every byte of `file` sent but the last: the server cannot begin on it until
 * `sendLastByte()`. `answer` resolves with the response once it has fully arrived.
 */
async function heldBackUpload(file: string, contentType: string): Promise<{ sendLastByte(): Promise<void>; answer: Promise<RawResponse> }> {
  const bytes = Buffer.from(file);
  const socket = connect(server.port, '127.0.0.1');
  const send = (data: string | Buffer) =>
    new Promise<void>((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve())));
  const answer = new Promise<RawResponse>((resolve, reject) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const res = parseResponse(received);
      const headEnd = received.indexOf('\r\n\r\n');
      if (res && received.length >= headEnd + 4 + Number(res.headers['content-length'] ?? 0)) {
        socket.destroy();
        resolve(res);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`the connection closed before a whole answer: ${received.toString('utf8')}`)));
  });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  await send(
    `POST /v1/itineraries/import HTTP/1.1\r\nHost: x\r\nX-API-Key: ${A.publishableKey.key}\r\nX-User-Id: ${A.owner.id}\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
  );
  await send(bytes.subarray(0, -1));
  return { sendLastByte: () => send(bytes.subarray(-1)), answer };
}
