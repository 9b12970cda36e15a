// The only module that touches uWebSockets.js. It copies each request off the socket before any
// await, streams bodies under a byte limit, writes inside cork(), never writes after an abort,
// and counts in-flight requests so that shutdown can drain them.

import { createRequire } from 'node:module';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { ApiError } from '../errors.js';
import type { Handle, IncomingRequest, OutgoingResponse } from './pipeline.js';
import { RequestAbort } from './request-abort.js';
import { statusLine } from './status-line.js';

const require = createRequire(import.meta.url);
export type Uws = typeof import('uWebSockets.js');

/**
 * Loads uWebSockets.js and proves the native binary is what loaded: the package silently falls back
 * to a slow Node implementation when its binary does not fit this Node build, and we refuse that.
 */
export function loadNativeUws(): Uws {
  if (/^(1|true)$/i.test(process.env.UWS_USE_FALLBACK ?? '')) {
    throw new Error('uWebSockets.js: UWS_USE_FALLBACK is set; Cairn runs only on the native binary. Unset it.');
  }
  const binary = `uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  let native: Uws;
  try {
    native = require(binary) as Uws;
  } catch (error) {
    throw new Error(
      `uWebSockets.js native binary did not load (${binary}): ${(error as Error).message}. ` +
        'Cairn needs Node 20 on linux/darwin x64/arm64 with the package pinned in package.json.',
    );
  }
  const uws = require('uWebSockets.js') as Uws;
  if (uws !== native) throw new Error('uWebSockets.js loaded its JavaScript fallback instead of the native binary.');
  return uws;
}

export interface HttpServer {
  readonly port: number;
  readonly app: TemplatedApp;
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

export function listen(uws: Uws, handle: Handle, options: ListenOptions): Promise<HttpServer> {
  const app = uws.App();
  let inFlight = 0;
  let draining = false;
  let drained: (() => void) | undefined;

  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const request = new UwsRequest(res, req, options.trustProxy);
    const abort = new RequestAbort();
    let bodyStarted = false;
    const startBody = (limit: number) => {
      bodyStarted = true;
      return readBody(res, limit);
    };

    const outcome = handle(request, startBody, abort);
    if (!(outcome instanceof Promise)) {
      // Answered within this callback, where uWS has already corked the socket. A body still arriving
      // (an error before it was read) is cut off by closing after the answer.
      writeResponse(res, outcome, draining || bodyStarted === false && hasBody(request));
      return;
    }

    inFlight++;
    res.onAborted(() => {
      request.aborted = true;
      abort.abort(new ApiError('BAD_REQUEST'));
    });
    outcome.then(
      (response) => {
        if (!request.aborted) res.cork(() => writeResponse(res, response, draining));
        done();
      },
      () => {
        // The pipeline renders its own errors; reaching here is a bug in it. Never leave a client hanging.
        if (!request.aborted) res.cork(() => writeResponse(res, { status: 500, headers: [], body: '', closeConnection: true }, draining));
        done();
      },
    );
  });

  const done = () => {
    inFlight--;
    if (draining && inFlight === 0) drained?.();
  };

  return new Promise((resolve, reject) => {
    const onListen = (socket: us_listen_socket | false) => {
      if (!socket) {
        reject(new Error(`could not listen on ${options.host}:${options.port}`));
        return;
      }
      const port = uws.us_socket_local_port(socket as unknown as Parameters<Uws['us_socket_local_port']>[0]);
      let listenSocket: us_listen_socket | undefined = socket;
      resolve({
        port,
        app,
        inFlight: () => inFlight,
        stopAccepting() {
          draining = true;
          if (listenSocket) uws.us_listen_socket_close(listenSocket);
          listenSocket = undefined;
        },
        drain(graceMs) {
          draining = true;
          if (inFlight === 0) return Promise.resolve();
          return new Promise<void>((done) => {
            const timer = setTimeout(done, graceMs);
            drained = () => {
              clearTimeout(timer);
              done();
            };
          });
        },
      });
    };
    app.listen(options.host, options.port, onListen);
  });
}

/** The request as copied off uWS before returning from its callback; the client address is read lazily. */
class UwsRequest implements IncomingRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Record<string, string> = {};
  aborted = false;
  private address: string | undefined;

  constructor(
    private readonly res: HttpResponse,
    req: HttpRequest,
    private readonly trustProxy: boolean,
  ) {
    const headers = this.headers;
    req.forEach((key, value) => {
      const prior = headers[key];
      headers[key] = prior === undefined ? value : `${prior}, ${value}`;
    });
    this.method = req.getCaseSensitiveMethod().toUpperCase();
    this.path = req.getUrl();
    this.query = req.getQuery() ?? '';
  }

  /** The HttpResponse stays valid until it ends or aborts, so the address can be read after an await. */
  get remoteAddress(): string {
    if (this.address === undefined) {
      const forwarded = this.trustProxy ? this.headers['x-forwarded-for']?.split(',')[0]?.trim() : undefined;
      this.address = forwarded || (this.aborted ? '' : Buffer.from(this.res.getRemoteAddressAsText()).toString());
    }
    return this.address;
  }
}

function hasBody(request: IncomingRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** Collects the body, copying each chunk (uWS reuses its memory), and rejects as soon as it passes `limit`. */
function readBody(res: HttpResponse, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    res.onData((chunk, isLast) => {
      if (over) return;
      size += chunk.byteLength;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(ApiError.withMessage('PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', { limit }));
        return;
      }
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (isLast) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    });
  });
}

function writeResponse(res: HttpResponse, response: OutgoingResponse, closeAfter: boolean): void {
  // uWS writes "200 OK" itself when no status was set: one native call fewer on the common path.
  if (response.status !== 200) res.writeStatus(statusLine(response.status));
  for (const [key, value] of response.headers) res.writeHeader(key, value);
  const close = response.closeConnection === true || closeAfter;
  if (response.omitBody || response.status === 204 || response.status === 304) {
    const length = typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.byteLength;
    const reported = response.status === 204 || response.status === 304 ? 0 : length;
    // uWS counts a HEAD answer that reports a length as still open: it needs an abort handler to return.
    if (reported > 0) res.onAborted(() => undefined);
    res.endWithoutBody(reported, close);
  } else {
    res.end(response.body, close);
  }
}
