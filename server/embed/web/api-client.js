// The planner's client of this origin's APIs: JSON in and out, the member's bearer token on every request, and a
// refusal as an error that carries the status and the error envelope.

/** A refused request: `status` and the answer's error envelope (`body`); its message is the envelope's first. */
export class Refusal extends Error {
  /**
   * @param {number} status
   * @param {any} body
   */
  constructor(status, body) {
    super(body?.errors?.[0]?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * @typedef {object} ApiClientOptions
 * @property {string} origin where the APIs are
 * @property {() => string | null} token the member's token, if signed in
 * @property {() => void} onExpired called when a signed-in request is refused with 401 (the sign-in ended)
 * @property {typeof fetch} [fetch]
 */

/**
 * @typedef {(method: string, path: string, body?: unknown) => Promise<any>} Api
 * A request; resolves the parsed answer, rejects with a Refusal.
 */

/**
 * @param {ApiClientOptions} options
 * @returns {Api}
 */
export function createApiClient(options) {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  return async (method, path, body) => {
    const token = options.token();
    /** @type {Record<string, string>} */
    const headers = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await send(options.origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    // The sign-in's own refusal is a wrong password, not an ended sign-in.
    if (res.status === 401 && token && path !== '/v1/login') options.onExpired();
    if (!res.ok) throw new Refusal(res.status, parsed);
    return parsed;
  };
}
