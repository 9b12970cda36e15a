// The clipped DEM file (dem.bin): 48-byte header + little-endian int16 samples. Layout in README.md.
import { DEM_VOID, type DemGrid } from './dem-grid.js';
import { RegionInputError } from './region-error.js';

export const DEM_MAGIC = 'CAIRNDEM';
export const DEM_FILE_VERSION = 1;
const HEADER = 48;

export function encodeDemFile(dem: DemGrid): Uint8Array {
  const out = new Uint8Array(HEADER + dem.samples.length * 2);
  const dv = new DataView(out.buffer);
  out.set(new TextEncoder().encode(DEM_MAGIC), 0);
  dv.setUint32(8, DEM_FILE_VERSION, true);
  dv.setUint32(12, dem.cols, true);
  dv.setUint32(16, dem.rows, true);
  dv.setInt32(20, DEM_VOID, true);
  dv.setFloat64(24, dem.west, true);
  dv.setFloat64(32, dem.north, true);
  dv.setFloat64(40, dem.cellDeg, true);
  for (let i = 0; i < dem.samples.length; i++) dv.setInt16(HEADER + 2 * i, dem.samples[i]!, true);
  return out;
}

export const DEM_HEADER_BYTES = HEADER;

/**
 * Checks the header of a DEM file of `fileSize` bytes (`header` holds at least its first DEM_HEADER_BYTES)
 * and returns the grid size it declares. Throws RegionInputError on a wrong magic, version or size.
 */
export function readDemHeader(header: Uint8Array, fileSize: number, what = 'DEM file'): { cols: number; rows: number } {
  if (header.byteLength < HEADER || new TextDecoder().decode(header.subarray(0, 8)) !== DEM_MAGIC) {
    throw new RegionInputError(`${what} is not a Cairn region DEM`);
  }
  const dv = new DataView(header.buffer, header.byteOffset, HEADER);
  const version = dv.getUint32(8, true);
  if (version !== DEM_FILE_VERSION) throw new RegionInputError(`${what} has format version ${version}`);
  const cols = dv.getUint32(12, true);
  const rows = dv.getUint32(16, true);
  if (fileSize !== HEADER + cols * rows * 2) throw new RegionInputError(`${what} is truncated`);
  return { cols, rows };
}

/** Decodes dem.bin; the samples are a copy (the file is small next to the graph). */
export function decodeDemFile(bytes: Uint8Array, what = 'DEM file'): DemGrid {
  const { cols, rows } = readDemHeader(bytes, bytes.byteLength, what);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Int16Array(cols * rows);
  for (let i = 0; i < samples.length; i++) samples[i] = dv.getInt16(HEADER + 2 * i, true);
  return { west: dv.getFloat64(24, true), north: dv.getFloat64(32, true), cellDeg: dv.getFloat64(40, true), cols, rows, samples };
}
