// The import's worker-thread task (Piscina): decompresses and decodes one PBF blob read from the file.
// Pass 1 ('scan') returns what the region keeps of the block; pass 2 ('nodes') writes the positions of the
// needed nodes into the shared arrays it is given. Loaded only by the import (pbf-reader.ts).
import { inflateBlob, locateNodes, readBlob, type ScanResult, scanBlock } from './pbf-decode.js';

export interface ScanTask {
  kind: 'scan';
  path: string;
  offset: number;
  size: number;
}

export interface NodesTask {
  kind: 'nodes';
  path: string;
  offset: number;
  size: number;
  /** Sorted needed node ids (Float64Array), and the arrays filled at the same index. */
  needed: SharedArrayBuffer;
  lon: SharedArrayBuffer;
  lat: SharedArrayBuffer;
  present: SharedArrayBuffer;
}

export type DecodeTask = ScanTask | NodesTask;

/** Runs one task in the calling thread. */
export function decode(task: DecodeTask): ScanResult | number {
  const block = inflateBlob(readBlob(task.path, task.offset, task.size));
  if (task.kind === 'scan') return scanBlock(block);
  return locateNodes(
    block,
    new Float64Array(task.needed),
    new Float64Array(task.lon),
    new Float64Array(task.lat),
    new Uint8Array(task.present),
  );
}

export default decode;
