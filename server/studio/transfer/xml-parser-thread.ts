// GPX, KML and KMZ parsing off the event loop. @xmldom/xmldom and @tmcw/togeojson need about a second per
// MiB of GPX, so a large upload parsed on the main thread would stall every other request. Files above
// INLINE_LIMIT, and every KMZ (a small archive can unpack to the whole import limit), go to one lazily
// started worker thread, one file at a time; a parse whose request is aborted (client gone, time budget
// spent) terminates the thread instead of finishing work nobody will read.
// (The process's Piscina pool declares its task set in workers/protocol.ts; this parser can move there.)

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../../errors.js';
import type { ImportedTrack } from './imported-track.js';
import { isZip } from './kmz-archive.js';
import { parseXmlTrack } from './parse-xml-track.js';
import { ImportProblem, type ProblemKey } from './transfer-messages.js';

export interface ParseRequest {
  id: number;
  bytes: Uint8Array;
  /** Most bytes a KMZ's KML may unpack to. */
  inflateLimit: number;
}

export type ParseReply =
  | { id: number; ok: true; track: ImportedTrack }
  | { id: number; ok: false; problem: { key: ProblemKey; params: Record<string, string | number> } }
  | { id: number; ok: false; error: string };

export interface XmlParser {
  /** Reads a GPX, KML or KMZ file; rejects with ImportProblem (the file) or ApiError (busy, aborted, crashed). */
  parse(bytes: Uint8Array, signal?: AbortSignal): Promise<ImportedTrack>;
  /** Stops the thread, if one is running. */
  close(): Promise<void>;
}

export interface XmlParserOptions {
  /** Files up to this many bytes are parsed inline (a few milliseconds; no thread hop); never a KMZ. */
  inlineLimit?: number;
  /** Files waiting beyond this answer SERVICE_UNAVAILABLE. */
  maxQueue?: number;
  /** Most bytes a KMZ's KML may unpack to (the import body limit). */
  inflateLimit?: number;
}

interface Job {
  request: ParseRequest;
  signal: AbortSignal | undefined;
  resolve: (track: ImportedTrack) => void;
  reject: (error: unknown) => void;
  onAbort: () => void;
}

const WORKER_URL = new URL('./xml-parse-worker.js', import.meta.url);

export function createXmlParser(options: XmlParserOptions = {}): XmlParser {
  // Run from TypeScript sources (tests through tsx) there is no compiled worker file: parse inline then.
  const threadAvailable = existsSync(fileURLToPath(WORKER_URL));
  const inlineLimit = options.inlineLimit ?? 256 * 1024;
  const maxQueue = options.maxQueue ?? 8;
  const inflateLimit = options.inflateLimit ?? 10 * 1024 * 1024;
  let worker: Worker | undefined;
  let running: Job | undefined;
  const queue: Job[] = [];
  let nextId = 1;

  const settle = (job: Job) => {
    job.signal?.removeEventListener('abort', job.onAbort);
    if (running === job) running = undefined;
  };

  const ensureWorker = (): Worker => {
    if (worker) return worker;
    const w = new Worker(WORKER_URL);
    w.unref();
    w.on('message', (reply: ParseReply) => {
      const job = running;
      if (!job || job.request.id !== reply.id) return;
      settle(job);
      if (reply.ok) job.resolve(reply.track);
      else if ('problem' in reply) job.reject(new ImportProblem(reply.problem.key, reply.problem.params));
      else job.reject(new Error(reply.error));
      pump();
    });
    const lost = (error: unknown) => {
      if (worker !== w) return;
      worker = undefined;
      const job = running;
      if (job) {
        settle(job);
        job.reject(error instanceof Error ? error : new Error(`xml parser thread exited (${String(error)})`));
      }
      pump();
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(code));
    worker = w;
    return w;
  };

  const pump = () => {
    if (running) return;
    const job = queue.shift();
    if (!job) return;
    running = job;
    ensureWorker().postMessage(job.request);
  };

  return {
    parse(bytes, signal) {
      if (!threadAvailable || (bytes.byteLength <= inlineLimit && !isZip(bytes))) {
        return Promise.resolve().then(() => parseXmlTrack(bytes, inflateLimit));
      }
      if (signal?.aborted) return Promise.reject(new ApiError('GATEWAY_TIMEOUT'));
      if (queue.length >= maxQueue) return Promise.reject(new ApiError('SERVICE_UNAVAILABLE'));
      return new Promise<ImportedTrack>((resolve, reject) => {
        const job: Job = {
          request: { id: nextId++, bytes, inflateLimit },
          signal,
          resolve,
          reject,
          onAbort: () => {
            const index = queue.indexOf(job);
            if (index >= 0) queue.splice(index, 1);
            settle(job);
            reject(new ApiError('GATEWAY_TIMEOUT'));
            // The thread is mid-parse on a file nobody waits for: stop it (the next file starts a new one).
            if (index < 0 && worker) {
              const w = worker;
              worker = undefined;
              void w.terminate();
            }
            pump();
          },
        };
        signal?.addEventListener('abort', job.onAbort, { once: true });
        queue.push(job);
        pump();
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      if (w) await w.terminate();
    },
  };
}
