// A digest of everything a request could change in the database, to prove a refused request changed
// nothing. Usage counters (every authenticated read counts) and server settings are left out.

import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

const IGNORED = new Set(['usage_counters', 'server_settings', 'schema_migrations']);

export interface Digest {
  (): string;
  close(): void;
}

/** Opens `path` read-only (the server writes in WAL mode, so each read sees every committed write). */
export function openDigest(path: string): Digest {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[])
    .map((t) => t.name)
    .filter((name) => !IGNORED.has(name));
  const reads = tables.map((name) => db.prepare(`SELECT * FROM "${name}" ORDER BY 1, 2`).raw(true));
  const digest = (() => {
    const hash = createHash('sha256');
    for (const [i, read] of reads.entries()) {
      hash.update(`${tables[i]}\n`);
      for (const row of read.all()) hash.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
    }
    return hash.digest('hex');
  }) as Digest;
  digest.close = () => db.close();
  return digest;
}
