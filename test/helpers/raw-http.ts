// Raw HTTP over a socket, for what fetch cannot do: streaming a body slowly, hanging up mid-request,
// sending malformed requests and telling "closed without an answer" from "left unanswered".

import { connect, type Socket } from 'node:net';

export interface RawOutcome {
  /** Everything the server wrote back. */
  bytes: Buffer;
  /** The same, as UTF-8 text. */
  text: string;
  /** True when the connection was closed (by the server, or by `send` itself) within the window. */
  closed: boolean;
}

/**
 * Sends raw bytes to 127.0.0.1:`port` and resolves when the server closes the connection, or after `ms`
 * (then the client hangs up itself), with everything the server wrote back.
 */
export function rawSession(port: number, send: (socket: Socket) => void, ms = 2000): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let connected = false;
    socket.setNoDelay(true);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const bytes = Buffer.concat(chunks);
      resolve({ bytes, text: bytes.toString('utf8'), closed });
    };
    const timer = setTimeout(() => finish(false), ms);
    socket.on('data', (d: Buffer) => chunks.push(d));
    // The server's FIN counts as its close, even while the client still has bytes on their way.
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // The server may reset the connection after answering (413, a refused head): what it wrote before counts.
    socket.on('error', (error) => {
      if (connected) finish(true);
      else {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.on('connect', () => {
      connected = true;
      send(socket);
    });
  });
}

/** Sends raw bytes to 127.0.0.1:`port` and resolves with everything the server wrote back before closing or `ms`. */
export async function rawExchange(port: number, send: (socket: Socket) => void, ms = 2000): Promise<string> {
  return (await rawSession(port, send, ms)).text;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
  /** The bytes after this response (the next response on a kept-alive connection). */
  rest: Buffer;
}

/**
 * The first response in `bytes` (framed by Content-Length, none meaning no body; an answer to HEAD has none
 * whatever its Content-Length says), or undefined.
 */
export function parseResponse(bytes: Buffer, options: { head?: boolean } = {}): RawResponse | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = options.head ? 0 : Number(headers['content-length'] ?? '0');
  const body = bytes.subarray(end + 4, end + 4 + length).toString('utf8');
  return { status: Number(status[1]), headers, body, rest: bytes.subarray(end + 4 + length) };
}
