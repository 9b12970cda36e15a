// The compatibility front door (HTTP_COMPAT=on): node:http owns the port and feeds the same pipeline as the
// uWebSockets.js adapter. It is slower, but its parser reports what it refuses, so HTTP/1.0, bare-LF lines,
// unknown methods, oversized heads and ambiguous framing all get an answer in the error envelope.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors.js';
import {
  BodyCollector,
  clientAddress,
  type HttpServer,
  InFlight,
  type ListenOptions,
  PortInUseError,
  pumpStream,
  runExchange,
} from './http-server.js';
import { answerParseError, HEAD_LIMITS, IDLE_MS } from './node-parse-errors.js';
import type { Handle, IncomingRequest, OutgoingResponse } from './pipeline.js';
import { errorResponse, isEmptyStatus, type Refusal } from './responses.js';

const VERSION_REFUSAL: Refusal = { status: 505, messageKey: 'BAD_REQUEST.http_version' };
const HOST_REFUSAL: Refusal = { status: 400, messageKey: 'BAD_REQUEST.host' };
const FIELDS_REFUSAL: Refusal = {
  status: 431,
  messageKey: 'BAD_REQUEST.headers_too_large',
  params: { limit: HEAD_LIMITS.bytes, fields: HEAD_LIMITS.fields },
};

export function listenNode(handle: Handle, options: ListenOptions): Promise<HttpServer> {
  const gate = new InFlight();
  const server = createServer({
    maxHeaderSize: HEAD_LIMITS.bytes,
    // RFC 9112 §3.2 asks for a 400 to an HTTP/1.1 request without Host; Node's own is not in the envelope.
    requireHostHeader: false,
    // Never lenient: a parser that accepts what a proxy in front reads differently allows request smuggling.
    insecureHTTPParser: false,
    // As uWS: 10 s for a complete request head, and for an idle keep-alive connection.
    headersTimeout: IDLE_MS,
    keepAliveTimeout: IDLE_MS,
    connectionsCheckingInterval: 1000,
  });
  // Node drops the fields past this count without a word; one more than allowed tells that it happened.
  server.maxHeadersCount = HEAD_LIMITS.fields + 1;

  // The latest request on each connection: a parse error in its body belongs to it, not to a new request.
  const latest = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    latest.set(req.socket, { req, res });
    runExchange(handle, gate, {
      request: new NodeRequest(req, options.trustProxy),
      readBody: (limit) => readBody(req, limit),
      write: (response, closeAfter) => writeResponse(res, response, closeAfter, gate),
      onAbort: (listener) =>
        res.once('close', () => {
          if (!res.writableFinished) listener();
        }),
    });
  };
  server.on('request', serve);
  // An Expect other than 100-continue is ignored, as uWS does (RFC 9110 §10.1.1 allows it), instead of
  // Node's bare 417.
  server.on('checkExpectation', serve);

  server.on('clientError', (error: Error, socket: Socket) => {
    const last = latest.get(socket);
    const owner = last && !last.req.complete ? (last.res.writableEnded ? 'answered' : 'pending') : undefined;
    answerParseError(handle, error, socket, owner);
  });

  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUseError(options.port)
          : new Error(`could not listen on ${options.host}:${options.port} (${error.code ?? error.message})`),
      );
    });
    server.listen({ host: options.host, port: options.port, exclusive: true }, () => {
      // Once listening, an error here is a failed accept (out of file descriptors): the client is turned
      // away and the server goes on, as uWS does, instead of the process ending on an unheard 'error'.
      server.on('error', () => undefined);
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : options.port,
        inFlight: () => gate.size,
        stopAccepting() {
          gate.draining = true;
          // Stops listening and closes the idle keep-alive connections; the busy ones end after their answer.
          server.close();
        },
        drain: (graceMs) => gate.drain(graceMs),
        // No WebSockets here (the live channel answers 501): nothing is subscribed.
        publish: () => undefined,
        subscribers: () => 0,
      });
    });
  });
}

/** The request as Node parsed it, in the pipeline's shape (headers from the raw list, joined as uWS does). */
class NodeRequest implements IncomingRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Record<string, string> = {};
  refusal?: Refusal;
  aborted = false;
  private address: string | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly trustProxy: boolean,
  ) {
    const raw = req.rawHeaders;
    const headers = this.headers;
    for (let i = 0; i < raw.length; i += 2) {
      const key = (raw[i] as string).toLowerCase();
      const value = raw[i + 1] as string;
      const prior = headers[key];
      headers[key] = prior === undefined ? value : `${prior}, ${value}`;
    }
    this.method = req.method ?? '';
    const [path, query] = splitTarget(req.url ?? '');
    this.path = path;
    this.query = query;
    if (req.httpVersionMajor !== 1) this.refusal = VERSION_REFUSAL;
    else if (raw.length > HEAD_LIMITS.fields * 2) this.refusal = FIELDS_REFUSAL;
    else if (req.httpVersionMinor === 1 && headers.host === undefined) this.refusal = HOST_REFUSAL;
  }

  get remoteAddress(): string {
    this.address ??= clientAddress(this.headers, this.trustProxy, () => this.req.socket.remoteAddress ?? '');
    return this.address;
  }
}

/** Path and raw query of a request target; the absolute form (RFC 9112 §3.2.2) is reduced to its path. */
function splitTarget(target: string): [string, string] {
  let origin = target;
  if (!target.startsWith('/')) {
    try {
      const url = new URL(target);
      origin = url.pathname + url.search;
    } catch {
      return [target, ''];
    }
  }
  const mark = origin.indexOf('?');
  return mark === -1 ? [origin, ''] : [origin.slice(0, mark), origin.slice(mark + 1)];
}

/** Reads the body under `limit`; a client silent for IDLE_MS mid-body is cut off, as uWS does. */
function readBody(req: IncomingMessage, limit: number): BodyCollector {
  const body = new BodyCollector(limit, () => req.setTimeout(0));
  req.setTimeout(IDLE_MS, () => req.destroy());
  req.on('data', (chunk: Buffer) => body.push(chunk));
  req.on('end', () => body.end());
  // A connection reset mid-body: the response's close handler aborts the request.
  req.on('error', () => body.fail(new ApiError('BAD_REQUEST')));
  return body;
}

function writeResponse(res: ServerResponse, given: OutgoingResponse, closeAfter: boolean, gate: InFlight): void {
  // node:http hands upgrade requests to this adapter as plain requests: it has no WebSockets to give them.
  const response = given.upgrade ? errorResponse(ApiError.withMessage('NOT_IMPLEMENTED', 'NOT_IMPLEMENTED.websocket_compat'), 'en') : given;
  if (response.stream) {
    writeStream(res, response, gate);
    return;
  }
  const head: string[] = [];
  for (const [key, value] of response.headers) head.push(key, value);
  const empty = isEmptyStatus(response.status);
  if (!empty) {
    const length = typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.byteLength;
    head.push('Content-Length', String(length));
  }
  if (response.closeConnection === true || closeAfter) head.push('Connection', 'close');
  res.writeHead(response.status, head);
  // Node itself leaves the body out of a HEAD answer, 204 and 304.
  res.end(empty || response.omitBody ? undefined : response.body);
}

/** A streamed answer (server-sent events): chunked, each chunk as it comes; the client going away stops it. */
function writeStream(res: ServerResponse, response: OutgoingResponse, gate: InFlight): void {
  const head: string[] = [];
  for (const [key, value] of response.headers) head.push(key, value);
  res.writeHead(response.status, head);
  let gone = false;
  res.once('close', () => {
    gone = true;
  });
  pumpStream(
    response.stream as AsyncIterable<string>,
    { write: (chunk) => res.write(chunk), end: () => res.end(), gone: () => gone },
    gate,
  );
}
