// Compact storage of a segment's line: Float64 little-endian (lon, lat, ele) triples in one BLOB.

/** A position: [lon, lat] or [lon, lat, ele] in degrees, degrees, metres. */
export type Position = [number, number] | [number, number, number];

const STRIDE = 3;
const BYTES = 8 * STRIDE;

/**
 * Encodes positions as 24 bytes each (lon, lat, ele; a missing elevation is stored as NaN).
 * The returned Buffer is owned by the caller.
 */
export function encodeLine(positions: readonly Position[]): Buffer {
  const buf = Buffer.allocUnsafe(positions.length * BYTES);
  positions.forEach((p, i) => {
    const o = i * BYTES;
    buf.writeDoubleLE(p[0], o);
    buf.writeDoubleLE(p[1], o + 8);
    buf.writeDoubleLE(p.length > 2 ? (p[2] ?? Number.NaN) : Number.NaN, o + 16);
  });
  return buf;
}

/** Decodes a BLOB written by encodeLine; positions without elevation come back as [lon, lat]. */
export function decodeLine(blob: Uint8Array): Position[] {
  if (blob.byteLength % BYTES !== 0) throw new TypeError(`line blob length ${blob.byteLength} is not a multiple of ${BYTES}`);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out: Position[] = [];
  for (let o = 0; o < blob.byteLength; o += BYTES) {
    const lon = view.getFloat64(o, true);
    const lat = view.getFloat64(o + 8, true);
    const ele = view.getFloat64(o + 16, true);
    out.push(Number.isNaN(ele) ? [lon, lat] : [lon, lat, ele]);
  }
  return out;
}

/** Flat Float64Array view-copy (lon, lat, ele stride 3) for kernels that take flat coordinates. */
export function decodeLineFlat(blob: Uint8Array): Float64Array {
  const out = new Float64Array(blob.byteLength / 8);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  return out;
}
