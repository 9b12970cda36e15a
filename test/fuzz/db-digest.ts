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
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]
  )
    .map((t) => t.name)
    .filter((name) => !IGNORED.has(name));
  // A read may purge locks that have lapsed (they were already gone in effect): only live ones count,
  // with a margin so a lock lapsing during the request does not look like a change.
  const reads = tables.map((name) =>
    db
      .prepare(name === 'locks' ? 'SELECT * FROM locks WHERE expires_at > ? ORDER BY 1, 2, 3' : `SELECT * FROM "${name}" ORDER BY 1, 2`)
      .raw(true),
  );
  // PRAGMA data_version changes only when another connection commits: until it does, the last digest
  // still holds, so a run costs a full digest per commit, not per request.
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let cached: { version: unknown; value: string; at: number } | undefined;
  const digest = (() => {
    const version = dataVersion.get();
    // Lapsing locks change the digest without a commit: the cache lives at most a second.
    if (cached && cached.version === version && Date.now() - cached.at < 1000) return cached.value;
    const hash = createHash('sha256');
    const liveAfter = new Date(Date.now() + 5000).toISOString();
    for (const [i, read] of reads.entries()) {
      hash.update(`${tables[i]}\n`);
      const rows = tables[i] === 'locks' ? read.all(liveAfter) : read.all();
      for (const row of rows as unknown[][]) {
        for (const value of row) {
          // Blobs (segment geometry) are hashed as bytes: turning them into JSON would dominate the run.
          if (Buffer.isBuffer(value)) hash.update(value);
          else hash.update(value === null ? '\u0001null' : `${typeof value}:${String(value)}`);
          hash.update('\u0000');
        }
        hash.update('\n');
      }
    }
    cached = { version, value: hash.digest('hex'), at: Date.now() };
    return cached.value;
  }) as Digest;
  digest.close = () => db.close();
  return digest;
}
