// The only module that touches uWebSockets.js. It copies each request off the socket before any
// await, streams bodies under a byte limit, writes inside cork(), never writes after an abort,
// and counts in-flight requests so that shutdown can drain them.

import { createRequire } from 'node:module';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { ApiError } from '../errors.js';
import type { Handle, IncomingRequest, OutgoingResponse } from './pipeline.js';
import { statusLine } from './pipeline.js';

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
    const request = copyRequest(res, req, options.trustProxy);
    const controller = new AbortController();
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
      controller.abort(new ApiError('BAD_REQUEST'));
    });
    inFlight++;

    const startBody = (limit: number) =>
      new Promise<Buffer>((resolve, reject) => {
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
          // uWS reuses the chunk's memory after this callback returns: copy it.
          chunks.push(Buffer.from(new Uint8Array(chunk)));
          if (isLast) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
        });
      });

    const done = () => {
      inFlight--;
      if (draining && inFlight === 0) drained?.();
    };
    handle(request, startBody, controller).then(
      (response) => {
        if (!aborted) write(res, response, draining);
        done();
      },
      () => {
        // The pipeline renders its own errors; reaching here is a bug in it. Never leave a client hanging.
        if (!aborted) write(res, { status: 500, headers: [], body: '', closeConnection: true }, draining);
        done();
      },
    );
  });

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

function copyRequest(res: HttpResponse, req: HttpRequest, trustProxy: boolean): IncomingRequest {
  const headers: Record<string, string> = {};
  req.forEach((key, value) => {
    const prior = headers[key];
    headers[key] = prior === undefined ? value : `${prior}, ${value}`;
  });
  let remoteAddress = Buffer.from(res.getRemoteAddressAsText()).toString();
  if (trustProxy && headers['x-forwarded-for']) {
    remoteAddress = headers['x-forwarded-for'].split(',')[0]?.trim() || remoteAddress;
  }
  return {
    method: req.getCaseSensitiveMethod().toUpperCase(),
    path: req.getUrl(),
    query: req.getQuery() ?? '',
    headers,
    remoteAddress,
  };
}

function write(res: HttpResponse, response: OutgoingResponse, draining: boolean): void {
  res.cork(() => {
    res.writeStatus(statusLine(response.status));
    for (const [key, value] of response.headers) res.writeHeader(key, value);
    const close = response.closeConnection === true || draining;
    if (response.omitBody || response.status === 204 || response.status === 304) {
      const length = typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.byteLength;
      res.endWithoutBody(response.status === 204 || response.status === 304 ? 0 : length, close);
    } else {
      res.end(response.body, close);
    }
  });
}
