// HTTP status lines for the statuses Cairn answers with (414, 431 and 505 only in HTTP_COMPAT mode,
// where Node's parser reports what it refuses).

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  201: '201 Created',
  202: '202 Accepted',
  204: '204 No Content',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  402: '402 Payment Required',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  413: '413 Payload Too Large',
  414: '414 URI Too Long',
  429: '429 Too Many Requests',
  431: '431 Request Header Fields Too Large',
  500: '500 Internal Server Error',
  501: '501 Not Implemented',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout',
  505: '505 HTTP Version Not Supported',
};

/** Status line text for a status code. */
export function statusLine(status: number): string {
  return STATUS_TEXT[status] ?? String(status);
}
