// The only module that touches uWebSockets.js. It copies each request off the socket before any
// await, streams bodies under a byte limit, writes inside cork(), never writes after an abort,
// and counts in-flight requests so that shutdown can drain them. uWS closes (or leaves unanswered)
// what its parser refuses without telling JavaScript: docs/operating.md lists those cases.

import { createRequire } from 'node:module';
import type { HttpRequest, HttpResponse, us_listen_socket, us_socket_context_t, WebSocket } from 'uWebSockets.js';
import { ApiError } from '../errors.js';
import {
  BodyCollector,
  clientAddress,
  type HttpServer,
  InFlight,
  type ListenOptions,
  listenFailure,
  pumpStream,
  runExchange,
} from './http-server.js';
import type { Handle, IncomingRequest, OutgoingResponse } from './pipeline.js';
import { errorResponse, isEmptyStatus } from './responses.js';
import type { OpenSocket, SocketSession } from './sockets.js';
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

/** uSockets' LIBUS_LISTEN_EXCLUSIVE_PORT: without it the port is bound with SO_REUSEPORT and a second server shares it. */
const LISTEN_EXCLUSIVE_PORT = 1;

/** WebSocket settings: a socket that sends nothing (not even the pong to our ping) for this long is closed. */
const SOCKET_IDLE_SECONDS = 24;
const SOCKET_MAX_MESSAGE_BYTES = 4096;
const SOCKET_MAX_BACKPRESSURE = 1 << 20;

/** An upgrade that completes once shutdown began: refused, and the connection closed. */
const SHUTTING_DOWN = errorResponse(new ApiError('SERVICE_UNAVAILABLE'), 'en', undefined, true);

interface SocketData {
  session: SocketSession;
  open: boolean;
}

export function listen(uws: Uws, handle: Handle, options: ListenOptions): Promise<HttpServer> {
  const app = uws.App();
  const gate = new InFlight();
  const sockets = new Set<WebSocket<SocketData>>();

  // Every WebSocket upgrade goes through the pipeline like any request (routing, access, validation, the
  // envelope on refusal); a route that accepts answers with a session, and the handshake completes here, always
  // before this callback returns: checks that need an await run once the socket is open (checked-socket.ts).
  app.ws<SocketData>('/*', {
    idleTimeout: SOCKET_IDLE_SECONDS,
    sendPingsAutomatically: true,
    maxPayloadLength: SOCKET_MAX_MESSAGE_BYTES,
    maxBackpressure: SOCKET_MAX_BACKPRESSURE,
    closeOnBackpressureLimit: 1,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      const request = new UwsRequest(res, req, options.trustProxy);
      // Never upgraded after an await (uNetworking/uWebSockets#1928): the pipeline answers a handshake at once.
      request.upgradeInCallback = true;
      const {
        'sec-websocket-key': key = '',
        'sec-websocket-protocol': protocol = '',
        'sec-websocket-extensions': extensions = '',
      } = request.headers;
      runExchange(handle, gate, {
        request,
        readBody: (limit) => readBody(res, limit),
        write: (response, closeAfter, inCallback) => {
          // Past the start of shutdown a socket would open that nobody closes: answer as a closing server.
          const upgrade = response.upgrade && !gate.draining ? response.upgrade : undefined;
          const answer = () =>
            upgrade
              ? res.upgrade<SocketData>({ session: upgrade, open: false }, key, protocol, extensions, context)
              : writeResponse(res, response.upgrade ? SHUTTING_DOWN : response, closeAfter);
          if (inCallback) answer();
          else res.cork(answer);
        },
        onAbort: (listener) => res.onAborted(listener),
      });
    },
    open: (ws) => {
      const data = ws.getUserData();
      data.open = true;
      sockets.add(ws);
      for (const topic of data.session.topics) ws.subscribe(topic);
      const socket: OpenSocket = {
        send: (text) => data.open && ws.send(text, false) !== 2, // 2: dropped (backpressure limit)
        end: (code, reason) => {
          if (data.open) ws.end(code, reason);
        },
        subscribe: (topic) => {
          if (data.open) ws.subscribe(topic);
        },
      };
      data.session.opened(socket);
    },
    message: (ws, message, isBinary) => {
      if (isBinary) {
        ws.end(1003, 'text messages only');
        return;
      }
      ws.getUserData().session.received(Buffer.from(message).toString('utf8'));
    },
    close: (ws) => {
      const data = ws.getUserData();
      data.open = false;
      sockets.delete(ws);
      data.session.closed();
    },
  });

  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const request = new UwsRequest(res, req, options.trustProxy);
    runExchange(handle, gate, {
      request,
      readBody: (limit) => readBody(res, limit),
      // Inside the callback uWS has already corked the socket; after an await the write must cork itself.
      write: (response, closeAfter, inCallback) => {
        if (response.stream) writeStream(res, response, request, gate);
        else if (inCallback) writeResponse(res, response, closeAfter);
        else res.cork(() => writeResponse(res, response, closeAfter));
      },
      onAbort: (listener) => res.onAborted(listener),
    });
  });

  return new Promise((resolve, reject) => {
    const onListen = (socket: us_listen_socket | false) => {
      if (!socket) {
        listenFailure(options.host, options.port).then(reject);
        return;
      }
      const port = uws.us_socket_local_port(socket as unknown as Parameters<Uws['us_socket_local_port']>[0]);
      let listenSocket: us_listen_socket | undefined = socket;
      resolve({
        port,
        inFlight: () => gate.size,
        stopAccepting() {
          gate.draining = true;
          if (listenSocket) uws.us_listen_socket_close(listenSocket);
          listenSocket = undefined;
          // 1001 Going Away: a client reconnects (to another node, or to this one restarted).
          for (const ws of [...sockets]) ws.end(1001, 'server shutting down');
        },
        publish: (topic, text) => {
          app.publish(topic, text, false);
        },
        // Safe only because app.ws() above made uWS's topic tree: on an App without a WebSocket route, numSubscribers
        // dereferences a missing tree and the process crashes (uWebSockets.js 20.30).
        subscribers: (topic) => app.numSubscribers(topic),
        drain: (graceMs) => gate.drain(graceMs),
      });
    };
    // The typings list listen(host, port, cb) and listen(port, options, cb); the native binding also takes
    // listen(host, port, options, cb), the only form that is both bound to HOST and exclusive.
    (app.listen as unknown as (host: string, port: number, options: number, cb: typeof onListen) => void)(
      options.host,
      options.port,
      LISTEN_EXCLUSIVE_PORT,
      onListen,
    );
  });
}

/** The request as copied off uWS before returning from its callback; the client address is read lazily. */
class UwsRequest implements IncomingRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Record<string, string> = {};
  upgradeInCallback = false;
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
    // uWS routes only the nine upper-case methods of RFC 9110 to JavaScript (it closes the socket on any other).
    this.method = req.getCaseSensitiveMethod();
    this.path = req.getUrl();
    this.query = req.getQuery() ?? '';
  }

  /** The HttpResponse stays valid until it ends or aborts, so the address can be read after an await. */
  get remoteAddress(): string {
    this.address ??= clientAddress(this.headers, this.trustProxy, () =>
      this.aborted ? '' : Buffer.from(this.res.getRemoteAddressAsText()).toString(),
    );
    return this.address;
  }
}

/** Reads the body through uWS's onData, copying each chunk (uWS reuses its memory). */
function readBody(res: HttpResponse, limit: number): BodyCollector {
  const body = new BodyCollector(limit);
  res.onData((chunk, isLast) => {
    if (body.settled) return;
    body.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) body.end();
  });
  return body;
}

function writeResponse(res: HttpResponse, response: OutgoingResponse, closeAfter: boolean): void {
  // uWS writes "200 OK" itself when no status was set: one native call fewer on the common path.
  if (response.status !== 200) res.writeStatus(statusLine(response.status));
  for (const [key, value] of response.headers) res.writeHeader(key, value);
  const close = response.closeConnection === true || closeAfter;
  if (isEmptyStatus(response.status)) {
    // endWithoutBody() with no argument is the one call that writes no Content-Length (RFC 9110 §8.6 forbids
    // it on a 204); any argument makes uWS write one, so a close is asked for with the header instead.
    if (close) res.writeHeader('Connection', 'close');
    res.endWithoutBody();
  } else if (response.omitBody) {
    const length = typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.byteLength;
    // The length is written as a header and the answer ended as one without a body: uWS counts a HEAD answer
    // given a length to report (endWithoutBody(length)) as still open, and closes the connection after it, so a
    // keep-alive client or proxy (HAProxy's pooled connections) would find its next request refused.
    res.writeHeader('Content-Length', String(length));
    if (close) res.writeHeader('Connection', 'close');
    res.endWithoutBody();
  } else if (typeof response.body === 'string' && response.body.length > LARGE_TEXT && response.body.length * 3 <= scratch.length) {
    // uWS copies what it is given before end() returns, so one buffer serves every large text reply: no
    // per-reply UTF-8 copy for the garbage collector. At most 3 bytes per UTF-16 unit, so the text fits.
    res.end(scratch.subarray(0, scratch.write(response.body, 0)), close);
  } else {
    res.end(response.body, close);
  }
}

/**
 * A streamed answer: status and headers at once, then each chunk as it comes, then the end. A client that goes away
 * stops the stream (its iterator's `return()`), and nothing is written after.
 */
function writeStream(res: HttpResponse, response: OutgoingResponse, request: { aborted: boolean }, gate: InFlight): void {
  // runExchange has registered the abort handler (it marks `request.aborted` and aborts the handler's signal).
  res.cork(() => {
    if (response.status !== 200) res.writeStatus(statusLine(response.status));
    for (const [key, value] of response.headers) res.writeHeader(key, value);
  });
  pumpStream(
    response.stream as AsyncIterable<string>,
    {
      write: (chunk) => res.cork(() => res.write(chunk)),
      end: () => res.cork(() => res.end()),
      gone: () => request.aborted,
    },
    gate,
  );
}

/** Text replies longer than this are encoded into `scratch` (short ones cost uWS nothing to convert). */
const LARGE_TEXT = 2048;
const scratch = Buffer.allocUnsafe(1 << 20);
