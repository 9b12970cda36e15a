// The least a durable edit over HTTP can cost on this machine: the peer that tells what bench/studio's edit
// goal asks of Cairn. bare uWebSockets.js and better-sqlite3 with Cairn's durability scheme and nothing else
// (no credentials, validation, policy, change events, request log or envelope):
//   PATCH /v1/itineraries/{id} {"description": …} → one UPDATE … RETURNING of the record, in one transaction
//   per event-loop turn (WAL, synchronous=NORMAL, then an fdatasync of the WAL on libuv's thread pool), each
//   answer written once its batch is on disk, as JSON of the record.
// Usage: node bench/lib/edit-floor-peer.mjs <database file> <itinerary count>
// Prints {"msg":"listening","port":N} on stdout once it accepts connections.

import { fdatasync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { onJsonBody } from './uws-json-body.mjs';

const require = createRequire(import.meta.url);
const uws = require(`uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
const Database = require('better-sqlite3');

const [file, countText] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(
  'CREATE TABLE itineraries (id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, ' +
    'draft_version INTEGER NOT NULL, updated_at TEXT NOT NULL)',
);
const insert = db.prepare("INSERT INTO itineraries VALUES (?, ?, '', 1, ?)");
for (let i = 0; i < Number(countText); i++) insert.run(`it${i}`, `Edited ${i}`, new Date().toISOString());
const update = db.prepare(
  'UPDATE itineraries SET description = ?, updated_at = ?, draft_version = draft_version + 1 WHERE id = ? RETURNING *',
);

let wal;
/** Answers waiting for the open transaction's commit and sync; undefined when none is open. */
let batch;
function commit() {
  const answers = batch;
  batch = undefined;
  db.exec('COMMIT');
  wal ??= openSync(`${file}-wal`, 'r+');
  fdatasync(wal, (error) => {
    if (error) throw error;
    for (const answer of answers) answer();
  });
}

const app = uws.App();
app.patch('/v1/itineraries/:id', (res, req) => {
  const id = req.getParameter(0);
  onJsonBody(res, ({ description }, request) => {
    if (!batch) {
      db.exec('BEGIN IMMEDIATE');
      batch = [];
      setImmediate(commit);
    }
    const row = update.get(description, new Date().toISOString(), id);
    const text = row ? JSON.stringify({ data: row }) : '{"error":"not found"}';
    batch.push(() => {
      if (request.aborted) return;
      res.cork(() => {
        if (!row) res.writeStatus('404 Not Found');
        res.writeHeader('Content-Type', 'application/json');
        res.end(text);
      });
    });
  });
});
app.listen('127.0.0.1', Number(process.env.PORT ?? 0), (socket) => {
  if (!socket) throw new Error('edit floor peer could not listen');
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: uws.us_socket_local_port(socket) })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
