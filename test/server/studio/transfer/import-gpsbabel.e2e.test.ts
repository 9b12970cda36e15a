// gpsbabel, over real HTTP: its KML (which draws every track point again as a Point) and its GPX import as
// the track they hold, every point kept; and gpsbabel reads back what Cairn exports. The fixtures were made
// by gpsbabel 1.8.0 from ridge-walk.gpx (see the fixtures' README), so only the last test needs gpsbabel.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chainPoints,
  exportOf,
  expectSameCoordinates,
  FIXTURES,
  GPX,
  gpxPoints,
  imported,
  kmlLinePoints,
  type Position,
  serveTransferSuite,
  type View,
} from './transfer-harness.js';

serveTransferSuite();
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const GPSBABEL_KML = fixture('ridge-walk.gpsbabel.kml');
const GPSBABEL_KML_NO_POINTS = fixture('ridge-walk.gpsbabel-nopoints.kml');
const GPSBABEL_KML_TRACK = fixture('ridge-walk.gpsbabel-track.kml');
const GPSBABEL_GPX = fixture('ridge-walk.gpsbabel.gpx');
const KML_TYPE = 'application/vnd.google-earth.kml+xml';

/** Points within 1e-6 degree (gpsbabel's KML keeps 6 decimals) and 0.01 m of elevation. */
function expectNearlySame(actual: Position[], expected: Position[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((p, i) => {
    const q = expected[i] as Position;
    expect(Math.abs((p[0] as number) - (q[0] as number)), `lon ${i}`).toBeLessThanOrEqual(1e-6);
    expect(Math.abs((p[1] as number) - (q[1] as number)), `lat ${i}`).toBeLessThanOrEqual(1e-6);
    expect(Math.abs((p[2] as number) - (q[2] as number)), `ele ${i}`).toBeLessThanOrEqual(0.01);
  });
}

describe('importing what gpsbabel writes', () => {
  const original = gpxPoints(GPX);

  it("reads gpsbabel's default KML as its track: every track point kept, its Point copies are not waypoints", async () => {
    // The file draws each of the 45 track points again as a Point Placemark, besides the 2 waypoints.
    expect(GPSBABEL_KML.match(/<Point>/g)).toHaveLength(45 + 2);
    const view = await imported(GPSBABEL_KML, KML_TYPE);
    const points = chainPoints(view);
    expect(points).toHaveLength(45);
    expectNearlySame(points, original);
    expectSameCoordinates(points, kmlLinePoints(GPSBABEL_KML));
    // Split only at the file's two real waypoints, as the GPX itself is.
    expect(view.segments.map((s) => s.geometry.coordinates.length)).toEqual([16, 16, 15]);
    expect(view.waypoints.map((w) => w.name)).toEqual([null, 'Refugi', 'Pic del Maià', null]);
    // gpsbabel names every Document "GPS device" and every line "Path": the track's own name is used.
    expect(view.name).toBe('Ridge walk');
  });

  it("reads gpsbabel's KML without point copies (points=0) the same way", async () => {
    const view = await imported(GPSBABEL_KML_NO_POINTS, KML_TYPE, '?name=Ridge%20without%20points');
    expectNearlySame(chainPoints(view), original);
    expect(view.segments.map((s) => s.geometry.coordinates.length)).toEqual([16, 16, 15]);
    expect(view.waypoints.map((w) => w.name)).toEqual([null, 'Refugi', 'Pic del Maià', null]);
  });

  it("reads gpsbabel's KML with the track written twice (track=1: a gx:Track besides the lines) once", async () => {
    expect(GPSBABEL_KML_TRACK.match(/<gx:coord>/g)).toHaveLength(45);
    const view = await imported(GPSBABEL_KML_TRACK, KML_TYPE, '?name=Ridge%20with%20gx%20track');
    expectNearlySame(chainPoints(view), original);
    expect(view.segments.map((s) => s.geometry.coordinates.length)).toEqual([16, 16, 15]);
  });

  it('reads the GPX gpsbabel writes back from the fixture as the original', async () => {
    const view = await imported(GPSBABEL_GPX, 'application/gpx+xml');
    expect(view.name).toBe('Coll de la Botella ridge');
    expectSameCoordinates(chainPoints(view), original);
    expect(view.segments.map((s) => s.geometry.coordinates.length)).toEqual([16, 16, 15]);
    expect(view.waypoints.map((w) => [w.name, w.kind])).toEqual([
      [null, null],
      ['Refugi', 'hut'],
      ['Pic del Maià', 'summit'],
      [null, null],
    ]);
  });

  it('still treats a named or described Point on the track as a waypoint', async () => {
    const named = GPSBABEL_KML.replace('<name>Ridge walk-7</name>', '<name>Viewpoint</name>');
    const view = await imported(named, KML_TYPE, '?name=Ridge%20with%20a%20viewpoint');
    expect(chainPoints(view)).toHaveLength(45);
    expect(view.waypoints.map((w) => w.name)).toEqual([null, 'Viewpoint', 'Refugi', 'Pic del Maià', null]);
    const described = GPSBABEL_KML.replace(
      /(<name>Ridge walk-7<\/name>\s*<snippet\/>\s*)<description>[\s\S]*?<\/description>/,
      '$1<description>Spring</description>',
    );
    expect(described).not.toBe(GPSBABEL_KML);
    const other = await imported(described, KML_TYPE, '?name=Ridge%20with%20a%20spring');
    expect(other.segments).toHaveLength(4);
  });
});

// gpsbabel reading Cairn's exports: skipped (with the reason printed) where gpsbabel is not installed,
// except in CI, which installs it (.ci/run): there a missing gpsbabel fails the test.
const gpsbabelPresent = spawnSync('gpsbabel', ['-V'], { encoding: 'utf8' }).status === 0;
const inCI = process.env.CI !== undefined && !['', '0', 'false'].includes(process.env.CI);
if (!gpsbabelPresent && !inCI)
  console.warn('Skipping "gpsbabel reads Cairn\'s exports": gpsbabel is not installed (apt-get install gpsbabel).');

describe.skipIf(!gpsbabelPresent && !inCI)("gpsbabel reads Cairn's exports", () => {
  let ridge: View;
  let dir: string;
  beforeAll(async () => {
    ridge = await imported(GPX, 'application/gpx+xml', '?name=Ridge%20for%20gpsbabel');
    dir = mkdtempSync(join(tmpdir(), 'cairn-gpsbabel-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** gpsbabel's GPX rendering of a Cairn export (`-i format`), failing on any error or warning. */
  async function throughGpsbabel(format: 'gpx' | 'kml' | 'geojson'): Promise<string> {
    expect(gpsbabelPresent, 'gpsbabel must be installed in CI (see .ci/run)').toBe(true);
    const res = await exportOf(ridge.id, `?format=${format}`);
    expect(res.status).toBe(200);
    const file = join(dir, `ridge.${format}`);
    writeFileSync(file, await res.text());
    const run = spawnSync('gpsbabel', ['-i', format, '-f', file, '-o', 'gpx', '-F', '-'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    return run.stdout;
  }

  const points = (gpx: string, tag: string): Position[] =>
    [...gpx.matchAll(new RegExp(`<${tag} lat="([^"]+)" lon="([^"]+)">\\s*<ele>([^<]+)</ele>`, 'g'))].map((m) => [
      Number(m[2]),
      Number(m[1]),
      Number(m[3]),
    ]);
  const segmentPoints = () => ridge.segments.flatMap((s) => s.geometry.coordinates);
  // gpsbabel makes up a name (WPT001…) for a waypoint without one.
  const waypointNames = (gpx: string) =>
    [...gpx.matchAll(/<wpt [^>]*>[\s\S]*?<\/wpt>/g)].map((m) => /<name>([^<]*)<\/name>/.exec(m[0])?.[1]?.replace(/^WPT\d+$/, '') || null);

  it('reads the GPX export: one track segment with every point of the chain, the named waypoints', async () => {
    const gpx = await throughGpsbabel('gpx');
    expectSameCoordinates(points(gpx, 'trkpt'), chainPoints(ridge));
    expect(waypointNames(gpx)).toEqual(['Refugi', 'Pic del Maià']);
    expect(gpx.match(/<trkseg>/g)).toHaveLength(1);
  });

  it('reads the KML export: one track with every point of the chain, the named waypoints', async () => {
    const gpx = await throughGpsbabel('kml');
    expectSameCoordinates(points(gpx, 'trkpt'), chainPoints(ridge));
    expect(gpx.match(/<trk>/g)).toHaveLength(1);
    expect(gpx.match(/<trkseg>/g)).toHaveLength(1);
    expect(waypointNames(gpx)).toEqual(['Refugi', 'Pic del Maià']);
  });

  it('reads the GeoJSON export: a route per segment', async () => {
    const gpx = await throughGpsbabel('geojson');
    expect(gpx.match(/<rte>/g)).toHaveLength(3);
    const routePoints = [...gpx.matchAll(/<rtept lat="([^"]+)" lon="([^"]+)"/g)].map((m) => [Number(m[2]), Number(m[1])]);
    expectSameCoordinates(
      routePoints,
      segmentPoints().map((p) => p.slice(0, 2)),
    );
  });
});
