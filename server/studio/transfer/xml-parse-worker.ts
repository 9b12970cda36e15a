// Worker thread entry: parses one GPX, KML or KMZ file per message (see xml-parser-thread.ts for why).

import { parentPort } from 'node:worker_threads';
import { parseXmlTrack } from './parse-xml-track.js';
import { ImportProblem } from './transfer-messages.js';
import type { ParseReply, ParseRequest } from './xml-parser-thread.js';

parentPort?.on('message', (request: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = { id: request.id, ok: true, track: parseXmlTrack(request.bytes, request.inflateLimit) };
  } catch (error) {
    reply =
      error instanceof ImportProblem
        ? { id: request.id, ok: false, problem: { key: error.key, params: error.params } }
        : { id: request.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort?.postMessage(reply);
});
