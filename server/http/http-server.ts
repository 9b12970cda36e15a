// What both socket adapters (uWebSockets.js by default, node:http with HTTP_COMPAT) share: the server handle
// main.ts drives, the flow of one request through the pipeline, the in-flight count behind graceful shutdown, the client address rule, and the
// one-line refusal when the port is taken.

import { createServer } from 'node:net';
import { ApiError } from '../errors.js';
import type { Handle, IncomingRequest, OutgoingResponse } from './pipeline.js';
import { RequestAbort } from './request-abort.js';
import { tooLarge } from './responses.js';

export interface HttpServer {
  readonly port: number;
  inFlight(): number;
  /** Stops accepting connections; requests already in flight finish (answered with Connection: close). */
  stopAccepting(): void;
  /** Resolves when no request is in flight, or after `graceMs`. */
  drain(graceMs: number): Promise<void>;
  /** Publishes a text message to the WebSockets subscribed to `topic` (none under HTTP_COMPAT). */
  publish(topic: string, text: string): void;
  /** How many WebSockets are subscribed to `topic` (0 under HTTP_COMPAT). */
  subscribers(topic: string): number;
}

export interface ListenOptions {
  host: string;
  port: number;
  trustProxy: boolean;
}

/** Counts requests answered asynchronously, so that shutdown can wait for them. */
export class InFlight {
  private count = 0;
  private drained: (() => void) | undefined;
  /** Set at shutdown: every answer from now on closes its connection. */
  draining = false;

  get size(): number {
    return this.count;
  }

  start(): void {
    this.count++;
  }

  done(): void {
    this.count--;
    if (this.draining && this.count === 0) this.drained?.();
  }

  drain(graceMs: number): Promise<void> {
    this.draining = true;
    if (this.count === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      this.drained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** True when the request announces a body (a non-zero Content-Length, or any Transfer-Encoding). */
export function hasBody(request: IncomingRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** The client address: the first X-Forwarded-For entry behind a trusted proxy, else the socket's peer. */
export function clientAddress(headers: Record<string, string>, trustProxy: boolean, peer: () => string): string {
  const forwarded = trustProxy ? headers['x-forwarded-for']?.split(',')[0]?.trim() : undefined;
  return forwarded || peer();
}

/** Another process (or another Cairn) already listens on the port. */
export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`port ${port} is in use`);
  }
}

/**
 * Why a listen failed, asked of the kernel again with a plain exclusive bind (uWebSockets.js only reports
 * "false"): EADDRINUSE becomes a PortInUseError, anything else names its errno code.
 */
export function listenFailure(host: string, port: number): Promise<Error> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'EADDRINUSE' ? new PortInUseError(port) : new Error(`could not listen on ${host}:${port} (${error.code})`));
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(new Error(`could not listen on ${host}:${port}`))));
  });
}

/** For main.ts: a taken port ends the process with one line on stderr; any other failure is thrown on. */
export function exitIfPortInUse(error: unknown): never {
  if (error instanceof PortInUseError) {
    process.stderr.write(`cairn: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

/** A request body being read by an adapter: the whole body, or a settled failure. */
export interface BodyRead {
  readonly promise: Promise<Buffer>;
  /** Ends the read early (the client went away), so the request settles now rather than at its deadline. */
  fail(error: ApiError): void;
}

/**
 * Collects a request body under `limit` bytes, as chunks arrive from either socket library: a body past
 * the limit fails at once with 413 and its chunks are dropped; `onSettle` runs once, however it ends.
 */
export class BodyCollector implements BodyRead {
  readonly promise: Promise<Buffer>;
  settled = false;
  private resolve!: (body: Buffer) => void;
  private reject!: (error: ApiError) => void;
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly limit: number,
    private readonly onSettle?: () => void,
  ) {
    this.promise = new Promise<Buffer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Adds a chunk the caller owns (uWS reuses its memory: copy first). */
  push(chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.byteLength;
    if (this.size > this.limit) {
      this.chunks.length = 0;
      this.fail(tooLarge(this.limit));
      return;
    }
    this.chunks.push(chunk);
  }

  end(): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettle?.();
    this.resolve(this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size));
  }

  fail(error: ApiError): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettle?.();
    this.reject(error);
  }
}

/** What a socket adapter supplies for one request. */
export interface Exchange {
  readonly request: IncomingRequest & { aborted: boolean };
  /** Starts reading the body under `limit` bytes (called by the pipeline before its first await). */
  readBody(limit: number): BodyRead;
  /** Writes the answer; `inCallback` is true when still inside the socket library's request callback. */
  write(response: OutgoingResponse, closeAfter: boolean, inCallback: boolean): void;
  /** Registers what to do when the client goes away before the answer. */
  onAbort(listener: () => void): void;
}

const BROKEN: OutgoingResponse = Object.freeze({ status: 500, headers: [], body: '', closeConnection: true }) as OutgoingResponse;

/**
 * Runs one request through the pipeline, the same way for both adapters: a synchronous answer is written
 * at once (closing the connection when a body it never read is still arriving); an asynchronous one is
 * counted in `gate` for shutdown, and a client that goes away aborts it and settles its body read.
 */
export function runExchange(handle: Handle, gate: InFlight, exchange: Exchange): void {
  const { request } = exchange;
  const abort = new RequestAbort();
  let body: BodyRead | undefined;
  const outcome = handle(request, (limit) => (body = exchange.readBody(limit)).promise, abort);
  const onAbort = () =>
    exchange.onAbort(() => {
      request.aborted = true;
      abort.abort(new ApiError('BAD_REQUEST'));
      body?.fail(new ApiError('BAD_REQUEST'));
    });
  if (!(outcome instanceof Promise)) {
    // A stream outlives this callback: the client going away must stop it.
    if (outcome.stream) onAbort();
    exchange.write(outcome, gate.draining || (body === undefined && hasBody(request)), true);
    return;
  }
  gate.start();
  onAbort();
  outcome.then(
    (response) => {
      if (!request.aborted) exchange.write(response, gate.draining, false);
      gate.done();
    },
    () => {
      // The pipeline renders its own errors; reaching here is a bug in it. Never leave a client hanging.
      if (!request.aborted) exchange.write({ ...BROKEN, headers: [] }, true, false);
      gate.done();
    },
  );
}

/** Where a streamed answer's chunks go, in either socket library. */
export interface StreamSink {
  write(chunk: string): void;
  end(): void;
  /** The client went away: nothing more is written. */
  gone(): boolean;
}

/**
 * Writes a streamed answer's chunks as they come (after the adapter wrote the status and headers), then ends it. The
 * client going away stops the stream (its iterator's `return()`); it counts in flight while it runs, so shutdown
 * waits for it (up to its grace).
 */
export function pumpStream(stream: AsyncIterable<string>, sink: StreamSink, gate: InFlight): void {
  gate.start();
  void (async () => {
    const iterator = stream[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await iterator.next();
        if (sink.gone()) break;
        if (next.done) return sink.end();
        sink.write(next.value);
      }
      await iterator.return?.();
    } catch {
      // The producer failed after the status was sent: end what was written.
      if (!sink.gone()) sink.end();
    } finally {
      gate.done();
    }
  })();
}
