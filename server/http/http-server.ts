// What both socket adapters (uWebSockets.js by default, node:http with HTTP_COMPAT) share: the server handle
// main.ts drives, the in-flight count behind graceful shutdown, the client address rule, and the
// one-line refusal when the port is taken.

import { createServer } from 'node:net';
import type { IncomingRequest } from './pipeline.js';

export interface HttpServer {
  readonly port: number;
  inFlight(): number;
  /** Stops accepting connections; requests already in flight finish (answered with Connection: close). */
  stopAccepting(): void;
  /** Resolves when no request is in flight, or after `graceMs`. */
  drain(graceMs: number): Promise<void>;
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
