// The sixteen error codes of the spec, their statuses, and the one error type every layer throws.

export interface ErrorSpec {
  status: number;
}

/** The spec's code table (interface.md, Errors → Codes). No other code exists. */
export const ERRORS = {
  BAD_REQUEST: { status: 400 },
  VALIDATION_FAILED: { status: 400 },
  UNAUTHORIZED: { status: 401 },
  PAYMENT_REQUIRED: { status: 402 },
  CARD_REQUIRED: { status: 402 },
  FORBIDDEN: { status: 403 },
  NOT_FOUND: { status: 404 },
  METHOD_NOT_ALLOWED: { status: 405 },
  CONFLICT: { status: 409 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  TOO_MANY_REQUESTS: { status: 429 },
  INTERNAL_ERROR: { status: 500 },
  NOT_IMPLEMENTED: { status: 501 },
  BAD_GATEWAY: { status: 502 },
  SERVICE_UNAVAILABLE: { status: 503 },
  GATEWAY_TIMEOUT: { status: 504 },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

/** Where in its input a failure lies: property names and array indexes, relative to the operation's input. */
export type ErrorPath = (string | number)[];

/** Most entries a 400 lists; the last of them then counts the failures left out. */
export const MAX_ERROR_ENTRIES = 50;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/**
 * One entry of the envelope before localization. `messageKey` selects a sentence in the message
 * table (defaults to the code); `message` is used verbatim when a message was already localized
 * (Ajv's own localized validation messages).
 */
export interface ErrorEntry {
  code: ErrorCode;
  path?: ErrorPath;
  messageKey?: string;
  messageParams?: Record<string, string | number>;
  message?: string;
  metadata?: unknown;
}

/** A failure the client can act on. Thrown by any layer; rendered once by the HTTP adapter. */
export class ApiError extends Error {
  readonly status: number;
  readonly entries: ErrorEntry[];
  /** Response headers the failure carries (a Data API 429's RateLimit-* headers). */
  headers: readonly (readonly [string, string])[] | undefined;

  constructor(
    readonly code: ErrorCode,
    entries?: ErrorEntry[],
    /** Envelope-level `extensions.metadata` (e.g. conflict metadata). */
    readonly metadata?: unknown,
  ) {
    super(code);
    this.status = ERRORS[code].status;
    this.entries = entries && entries.length > 0 ? entries : [{ code }];
  }

  /**
   * A 400 with one VALIDATION_FAILED entry per failed field, at most MAX_ERROR_ENTRIES: past that the last
   * entry says how many more failed (`omitted` counts failures never turned into entries), so one huge
   * bad body cannot produce a huge answer.
   */
  static validation(entries: Omit<ErrorEntry, 'code'>[], omitted = 0): ApiError {
    let listed = entries;
    let more = omitted;
    if (entries.length + omitted > MAX_ERROR_ENTRIES) {
      const keep = MAX_ERROR_ENTRIES - 1;
      listed = entries.slice(0, keep);
      more += entries.length - keep;
      const from = entries[keep]?.path ?? entries[keep - 1]?.path;
      listed.push({ ...(from ? { path: from } : {}), messageKey: 'VALIDATION_FAILED.more', messageParams: { count: more } });
    }
    return new ApiError(
      'VALIDATION_FAILED',
      listed.map((e) => ({ ...e, code: 'VALIDATION_FAILED' as const })),
    );
  }

  /**
   * The same failure with every entry's path passed through `map`: a transport turns the operation's
   * input-relative paths into its own (REST `['request','body',…]`, GraphQL `['input',…]`).
   */
  withPaths(map: (path: ErrorPath) => ErrorPath): ApiError {
    const entries = this.entries.map((e) => (e.path ? { ...e, path: map(e.path) } : e));
    const copy = new ApiError(this.code, entries, this.metadata);
    copy.headers = this.headers;
    return copy;
  }

  /** The same failure answered with these extra response headers (a copy: refusals may be cached and shared). */
  withHeaders(headers: readonly (readonly [string, string])[] | undefined): ApiError {
    const copy = new ApiError(this.code, this.entries, this.metadata);
    copy.headers = headers;
    return copy;
  }

  /** An error with a single entry carrying a specific message key. */
  static withMessage(code: ErrorCode, messageKey: string, messageParams?: Record<string, string | number>): ApiError {
    return new ApiError(code, [{ code, messageKey, ...(messageParams ? { messageParams } : {}) }]);
  }
}

/** True for statuses the time budget may replace (5xx only: a 4xx is never restated). */
export function isServerError(status: number): boolean {
  return status >= 500 && status <= 599;
}
