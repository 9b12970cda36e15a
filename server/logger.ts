// Structured one-line JSON logs. Request lines carry the route pattern, never the URL, so no
// credential passed in a query string or header can reach the log.

export interface RequestLog {
  method: string;
  route: string;
  status: number;
  ms: number;
  requestId: string;
}

export interface Logger {
  request(entry: RequestLog): void;
  error(message: string, fields: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  /** Writes out anything buffered (called at shutdown). */
  flush(): void;
}

/** Credentials look like these; any string field matching is masked before it is written. */
const CREDENTIAL = /\b(pk|sk|sess|share|usr|mcp)_[A-Za-z0-9._~+/=-]{6,}/g;

export function redact(text: string): string {
  return text.replace(CREDENTIAL, (_m, prefix: string) => `${prefix}_[redacted]`);
}

/**
 * A logger writing to `out` (stdout by default). Lines are buffered and written once per
 * event-loop turn, which keeps per-request logging off the hot path under load.
 */
export function createLogger(
  level: 'info' | 'error' | 'silent',
  out: (chunk: string) => void = (chunk) => process.stdout.write(chunk),
): Logger {
  let buffer = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer) {
      const chunk = buffer;
      buffer = '';
      out(chunk);
    }
  };
  const write = (line: Record<string, unknown>) => {
    buffer += `${redact(JSON.stringify(line))}\n`;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return {
    request(entry) {
      if (level !== 'info') return;
      write({ time: new Date().toISOString(), level: 'info', msg: 'request', ...entry });
    },
    error(message, fields) {
      if (level === 'silent') return;
      write({ time: new Date().toISOString(), level: 'error', msg: message, ...fields });
    },
    info(message, fields) {
      if (level !== 'info') return;
      write({ time: new Date().toISOString(), level: 'info', msg: message, ...fields });
    },
    flush,
  };
}
