// KMZ (a zip archive holding a KML file, as Google Earth and gpsbabel write it) → the KML's bytes, with
// bounds: a zip bomb, an encrypted or damaged archive, or one without KML is refused before it costs much.
//
// The archive's central directory is read here rather than through fflate's unzipSync, because unzipSync
// inflates every entry it keeps in one go and grows its output past the declared size: a small archive
// declaring a small file could still inflate to gigabytes. Instead: the declared size must fit the limit,
// and inflation runs in slices and stops as soon as it produces more than the declared size.

import { Inflate } from 'fflate';
import { ImportProblem } from './import-problem.js';

/** Compressed bytes inflated per step: bounds the memory one step can take (deflate expands ≤ ~1032x). */
const SLICE = 16 * 1024;
const FULL32 = 0xffffffff;

/** True when `bytes` start like a zip archive (a local file header, or the end record of an empty one). */
export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
}

interface Entry {
  name: string;
  flags: number;
  method: number;
  compressed: number;
  size: number;
  localOffset: number;
}

const broken = () => new ImportProblem('kmz_broken');

function reader(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (at: number, n: number) => {
    if (at < 0 || at + n > bytes.length) throw broken();
  };
  return {
    u16: (at: number) => {
      need(at, 2);
      return view.getUint16(at, true);
    },
    u32: (at: number) => {
      need(at, 4);
      return view.getUint32(at, true);
    },
    // Zip64 values beyond 2^53 are nonsense for a file of at most a few MiB: refuse them as damage.
    u64: (at: number) => {
      need(at, 8);
      const value = view.getBigUint64(at, true);
      if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw broken();
      return Number(value);
    },
  };
}

/** The central directory's entries, in archive order. */
function entries(bytes: Uint8Array): Entry[] {
  const r = reader(bytes);
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let end = -1;
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
    if (r.u32(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw broken();
  let count = r.u16(end + 10);
  let offset = r.u32(end + 16);
  if (end >= 20 && r.u32(end - 20) === 0x07064b50) {
    const zip64End = r.u64(end - 12);
    if (r.u32(zip64End) !== 0x06064b50) throw broken();
    count = r.u64(zip64End + 32);
    offset = r.u64(zip64End + 48);
  }
  const list: Entry[] = [];
  const decoder = new TextDecoder('utf-8');
  for (let i = 0, at = offset; i < count; i++) {
    if (r.u32(at) !== 0x02014b50) throw broken();
    const nameLength = r.u16(at + 28);
    const extraLength = r.u16(at + 30);
    const entry: Entry = {
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: r.u16(at + 8),
      method: r.u16(at + 10),
      compressed: r.u32(at + 20),
      size: r.u32(at + 24),
      localOffset: r.u32(at + 42),
    };
    // Zip64: the 32-bit fields that read 0xFFFFFFFF are in extra field 0x0001, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength; x += 4 + r.u16(x + 2)) {
      if (r.u16(x) !== 1) continue;
      let field = x + 4;
      for (const key of ['size', 'compressed', 'localOffset'] as const) {
        if (entry[key] !== FULL32) continue;
        entry[key] = r.u64(field);
        field += 8;
      }
    }
    list.push(entry);
    at += 46 + nameLength + extraLength + r.u16(at + 32);
  }
  return list;
}

/** The KML the archive is about: `doc.kml` at its root, else its first `.kml` entry (macOS metadata aside). */
function pickKml(list: Entry[]): Entry | undefined {
  const kml = list.filter((e) => /\.kml$/i.test(e.name) && !e.name.startsWith('__MACOSX/'));
  return kml.find((e) => e.name.toLowerCase() === 'doc.kml') ?? kml[0];
}

/** Inflates `data` into at most `size` bytes; more than that (or fewer) is a damaged archive. */
function inflateExactly(data: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let written = 0;
  let done = false;
  const inflater = new Inflate((chunk, final) => {
    if (written + chunk.length > size) throw broken();
    out.set(chunk, written);
    written += chunk.length;
    if (final) done = true;
  });
  try {
    for (let at = 0; at < data.length; at += SLICE) {
      inflater.push(data.subarray(at, at + SLICE), at + SLICE >= data.length);
    }
  } catch (error) {
    if (error instanceof ImportProblem) throw error;
    throw broken(); // fflate's own errors: invalid block, unexpected end of data…
  }
  if (!done || written !== size) throw broken();
  return out;
}

/**
 * The bytes of the KML inside a KMZ. Refuses (ImportProblem) an archive that is damaged, encrypted or holds
 * no KML, and one whose KML would be larger than `limit` bytes once unpacked.
 */
export function kmlFromKmz(bytes: Uint8Array, limit: number): Uint8Array {
  const entry = pickKml(entries(bytes));
  if (!entry) throw new ImportProblem('kmz_no_kml');
  // Bit 0: encrypted (ZipCrypto or, with method 99, AES); bit 6: strong encryption.
  if (entry.flags & 0x41 || entry.method === 99) throw new ImportProblem('kmz_encrypted');
  if (entry.size > limit) throw new ImportProblem('kmz_too_large', { limit });
  const r = reader(bytes);
  const local = entry.localOffset;
  if (r.u32(local) !== 0x04034b50) throw broken();
  const start = local + 30 + r.u16(local + 26) + r.u16(local + 28);
  if (start + entry.compressed > bytes.length) throw broken();
  const data = bytes.subarray(start, start + entry.compressed);
  if (entry.method === 0) {
    if (entry.compressed !== entry.size) throw broken();
    return data.slice();
  }
  if (entry.method !== 8) throw broken();
  return inflateExactly(data, entry.size);
}
