// Streams an .osm.pbf file into an OsmCollector (osm-pbf-parser-node), with one-line errors.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createOSMStream } from 'osm-pbf-parser-node';
import type { OsmCollector, OsmMember } from './osm-collector.js';
import type { Tags } from './osm-tags.js';
import { RegionInputError } from './region-error.js';

interface PbfItem {
  type?: 'node' | 'way' | 'relation';
  id?: number;
  lon?: number;
  lat?: number;
  refs?: number[];
  members?: OsmMember[];
  tags?: Tags;
  osmosis_replication_timestamp?: number;
}

export interface PbfHeaderInfo {
  /** Replication timestamp of the extract as ISO 8601, when the header has one. */
  timestamp: string | null;
}

/**
 * Checks that `path` exists and starts like an OSM PBF (a BlobHeader of type "OSMHeader"),
 * so that a wrong file fails with a clear message before any parsing.
 */
function checkPbf(path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (e) {
    throw new RegionInputError(`cannot read OSM file ${path}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  const head = Buffer.alloc(Math.min(64, size));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.length < 16 || !head.includes('OSMHeader')) {
    throw new RegionInputError(`${path} is not an OpenStreetMap PBF file (no OSMHeader block)`);
  }
}

/** Reads every entity of the PBF into the collector, in file order (nodes, ways, relations). */
export async function readPbf(path: string, into: OsmCollector): Promise<PbfHeaderInfo> {
  checkPbf(path);
  let timestamp: string | null = null;
  try {
    for await (const raw of createOSMStream(path, { withTags: true, withInfo: false })) {
      const item = raw as PbfItem;
      switch (item.type) {
        case 'node':
          into.addNode({ id: item.id!, lon: item.lon!, lat: item.lat!, tags: item.tags });
          break;
        case 'way':
          into.addWay({ id: item.id!, refs: item.refs ?? [], tags: item.tags });
          break;
        case 'relation':
          into.addRelation({ id: item.id!, members: item.members ?? [], tags: item.tags });
          break;
        default:
          if (item.osmosis_replication_timestamp) {
            timestamp = new Date(item.osmosis_replication_timestamp * 1000).toISOString();
          }
      }
    }
  } catch (e) {
    if (e instanceof RegionInputError) throw e;
    throw new RegionInputError(`${path} is not a readable OSM PBF (truncated or corrupt: ${(e as Error).message})`);
  }
  return { timestamp };
}
