// Structured one-line JSON logs. Request lines carry the route pattern, never the URL, so no
// credential passed in a query string or header can reach the log.

export interface Logger {
  /**
   * One request line: method, route pattern (never the URL), status, duration in ms, request id. The request
   * id must already be JSON-safe ([A-Za-z0-9._:-], as the pipeline guarantees): it is written as is.
   */
  request(method: string, route: string, status: number, ms: number, requestId: string): void;
  error(message: string, fields: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  /** Writes out anything buffered (called at shutdown). */
  flush(): void;
}

/** Credentials look like these; any string field matching is masked before it is written. */
const CREDENTIAL = /\b(pk|sk|sess|share|usr|mcp|mcpr|authz|emb)_[A-Za-z0-9._~+/=-]{6,}/g;

/** True when `text` contains something shaped like a Cairn credential. */
export function containsCredential(text: string): boolean {
  CREDENTIAL.lastIndex = 0;
  return CREDENTIAL.test(text);
}

export function redact(text: string): string {
  return text.replace(CREDENTIAL, (_m, prefix: string) => `${prefix}_[redacted]`);
}

/** Longest time a line waits in the buffer, and the size that forces an early write. */
const FLUSH_MS = 20;
const FLUSH_BYTES = 64 * 1024;

/**
 * A logger writing to `out` (stdout by default). Lines are encoded into one byte buffer as they come and
 * written at most every FLUSH_MS (or once 64 KiB are waiting): under load that is one write syscall for
 * many requests, and each line is encoded once (a string buffer would be flattened and encoded again at
 * every write, ~1 µs a request). `out` receives a copy it may keep. `flush()` writes everything at once
 * (shutdown).
 */
export function createLogger(
  level: 'info' | 'error' | 'silent',
  out: (chunk: Uint8Array) => void = (chunk) => process.stdout.write(chunk),
): Logger {
  const pending = Buffer.allocUnsafe(FLUSH_BYTES);
  let used = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (used > 0) {
      const chunk = Buffer.from(pending.subarray(0, used));
      used = 0;
      out(chunk);
    }
  };
  const append = (line: string) => {
    // At most 3 bytes per UTF-16 unit: a line that may not fit goes after a flush, or alone when it is longer.
    if (used + line.length * 3 > FLUSH_BYTES) {
      flush();
      if (line.length * 3 > FLUSH_BYTES) {
        out(Buffer.from(line));
        return;
      }
    }
    used += pending.write(line, used);
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, FLUSH_MS);
    }
  };
  const write = (line: Record<string, unknown>) => append(`${redact(JSON.stringify(line))}\n`);
  // The ISO time is rebuilt only when the millisecond changes (toISOString costs ~2 µs).
  let lastMs = 0;
  let lastIso = '';
  const isoNow = () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastIso = new Date(now).toISOString();
    }
    return lastIso;
  };
  return {
    request(method, route, status, ms, requestId) {
      if (level !== 'info') return;
      // Built by hand: the fields are known and credential-free (a route pattern, a validated request id),
      // so neither JSON.stringify of an object nor the credential mask is needed on this path.
      append(
        `{"time":"${isoNow()}","level":"info","msg":"request","method":${jsonString(method)},"route":${jsonString(route)},"status":${status},"ms":${Math.round(ms * 100) / 100},"requestId":"${requestId}"}\n`,
      );
    },
    error(message, fields) {
      if (level === 'silent') return;
      write({ time: isoNow(), level: 'error', msg: message, ...fields });
    },
    info(message, fields) {
      if (level !== 'info') return;
      write({ time: isoNow(), level: 'info', msg: message, ...fields });
    },
    flush,
  };
}

const PLAIN = /^[A-Za-z0-9 ._:/{}()@+-]*$/;
const literals = new Map<string, string>();

/**
 * JSON string literal; skips JSON.stringify for the plain strings request lines carry. Methods and route
 * patterns are few, so their literals are remembered (bounded in case of junk methods).
 */
function jsonString(value: string): string {
  let literal = literals.get(value);
  if (literal === undefined) {
    literal = PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
    if (literals.size < 1024) literals.set(value, literal);
  }
  return literal;
}
