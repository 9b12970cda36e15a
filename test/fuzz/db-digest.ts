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
  // A read may purge locks that have lapsed (they were already gone in effect): only live ones count,
  // with a margin so a lock lapsing during the request does not look like a change.
  const reads = tables.map((name) =>
    db.prepare(name === 'locks' ? 'SELECT * FROM locks WHERE expires_at > ? ORDER BY 1, 2, 3' : `SELECT * FROM "${name}" ORDER BY 1, 2`).raw(true),
  );
  const digest = (() => {
    const hash = createHash('sha256');
    const liveAfter = new Date(Date.now() + 5000).toISOString();
    for (const [i, read] of reads.entries()) {
      hash.update(`${tables[i]}\n`);
      const rows = tables[i] === 'locks' ? read.all(liveAfter) : read.all();
      for (const row of rows) hash.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
    }
    return hash.digest('hex');
  }) as Digest;
  digest.close = () => db.close();
  return digest;
}
