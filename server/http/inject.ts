// In-process requests through the real pipeline, without a socket: for tests of behaviour that needs an
// injected dependency (a failing counter store, a fake clock), and contract suites of plain requests
// (test/helpers/in-process.ts). What depends on the socket (framing, upgrades, signals) goes over real HTTP.

import type { Handle } from './pipeline.js';
import { RequestAbort } from './request-abort.js';

export interface InjectRequest {
  method?: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  remoteAddress?: string;
}

export interface InjectResponse {
  status: number;
  headers: Record<string, string>;
  /** Every header as written, in order (a name may repeat, as Set-Cookie does). */
  headerList: [string, string][];
  bytes: Uint8Array;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape they expect
  json<T = any>(): T;
}

export async function inject(handle: Handle, request: InjectRequest): Promise<InjectResponse> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers ?? {})) headers[k.toLowerCase()] = v;
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  if (request.body !== undefined) headers['content-length'] ??= String(body.length);
  const response = await handle(
    {
      method: (request.method ?? 'GET').toUpperCase(),
      path: request.path,
      query: request.query ?? '',
      headers,
      remoteAddress: request.remoteAddress ?? '127.0.0.1',
    },
    (limit) => (body.length > limit ? Promise.reject(new Error('inject: body over limit')) : Promise.resolve(body)),
    new RequestAbort(),
  );
  const bytes = typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
  const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers.map(([k, v]) => [k.toLowerCase(), v])),
    headerList: response.headers.map(([k, v]) => [k, v]),
    bytes,
    text,
    json: () => JSON.parse(text),
  };
}
