// The embed page's credentials: from the page's own address (publishable_key and session_token, or share_token) and
// its configuration (the page's own credential, X-Embed-Token: it speaks for the site that framed the page, whose
// origin the page's requests do not carry). They go with every request to this origin as headers. A session token
// lives 5 minutes: a minute before it ends, the page asks the site that frames it for a new one (postMessage, see
// docs/embed.md), and a request refused with 401 asks at once and is tried again once. The page's own credential is
// renewed before it ends, for the same site. No secret ever reaches the browser.

import { reasonOf } from './notice.js';

/**
 * @typedef {object} EmbedConfig What the page was told (server/embed/embed-page.ts, EmbedConfig).
 * @property {string | null} collectionId
 * @property {string | null} itineraryId
 * @property {string} name
 * @property {string[]} layers
 * @property {string} assets
 * @property {number | null} sessionExpiresAt
 * @property {string | null} plannerUrl
 * @property {string | null} embedToken
 * @property {number | null} embedTokenExpiresAt
 * @property {string} embedTokenUrl
 */

/**
 * @typedef {object} EmbedCounters What the page's browser tests read (window.cairnEmbed).
 * @property {number} renewals
 * @property {number} embedRenewals
 * @property {number} retried401
 * @property {string[]} errors
 */

/** An error that knows the status of the answer (0: none came) and the server's sentence. */
export class RequestFailure extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {string} [reason]
   */
  constructor(message, status, reason = '') {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

/**
 * @param {EmbedConfig} config
 * @param {URLSearchParams} params the page's query
 * @param {EmbedCounters} counters
 * @param {(what: string, status: number, reason: string) => void} tell says on the page what could not be done
 */
export function embedCredentials(config, params, counters, tell) {
  const origin = location.origin;
  const creds = {
    key: params.get('publishable_key'),
    session: params.get('session_token'),
    share: params.get('share_token'),
    sessionExpiresAt: config.sessionExpiresAt,
    embed: config.embedToken,
    embedExpiresAt: config.embedTokenExpiresAt,
  };

  /** @returns {Record<string, string>} */
  function headers() {
    /** @type {Record<string, string>} */
    const h = {};
    if (creds.share) {
      h['X-Share-Token'] = creds.share;
      return h;
    }
    if (creds.key) h['X-API-Key'] = creds.key;
    if (creds.embed) h['X-Embed-Token'] = creds.embed;
    if (creds.session) h['X-Session-Token'] = creds.session;
    return h;
  }

  // --- Session renewal (only when the page was given a session token) ---
  /** @type {Promise<boolean> | null} */
  let renewing = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let renewTimer;
  function scheduleRenewal() {
    if (!creds.session || !creds.sessionExpiresAt) return;
    clearTimeout(renewTimer);
    const lead = Math.min(60000, (creds.sessionExpiresAt - Date.now()) / 5);
    renewTimer = setTimeout(renewSession, Math.max(0, creds.sessionExpiresAt - lead - Date.now()));
  }
  /** Asks the framing site for a new session token; resolves whether one came within 10 s. */
  function renewSession() {
    if (!creds.session) return Promise.resolve(false);
    if (renewing) return renewing;
    renewing = new Promise((resolve) => {
      const timer = setTimeout(() => {
        finish(false);
      }, 10000);
      /** @param {MessageEvent} event */
      function onMessage(event) {
        const data = event.data;
        if (event.source !== window.parent || !data || data.type !== 'cairn:session-token' || typeof data.token !== 'string') return;
        creds.session = data.token;
        creds.sessionExpiresAt = data.expires_at ? Date.parse(data.expires_at) : Date.now() + 300000;
        counters.renewals++;
        finish(true);
      }
      /** @param {boolean} ok */
      function finish(ok) {
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
        renewing = null;
        scheduleRenewal();
        resolve(ok);
      }
      window.addEventListener('message', onMessage);
      window.parent.postMessage(
        { type: 'cairn:session-expiring', expires_at: new Date(creds.sessionExpiresAt || Date.now()).toISOString() },
        '*',
      );
    });
    return renewing;
  }

  /**
   * A refused answer as an error that knows its status and the server's sentence.
   * @param {Response} res
   * @param {string} path
   * @returns {Promise<never>}
   */
  function refusal(res, path) {
    return reasonOf(res).then((reason) => {
      throw new RequestFailure(`${path} answered ${res.status}`, res.status, reason);
    });
  }

  /**
   * A request to this origin with the credentials; a 401 renews the session and tries once more.
   * @param {string} path
   * @param {string} [method]
   * @returns {Promise<Response>}
   */
  function send(path, method) {
    const go = () =>
      fetch(origin + path, { method: method || 'GET', headers: headers() }).catch((error) => {
        throw new RequestFailure(String(error?.message || error), 0); // not reached: no answer
      });
    return go().then((res) => {
      if (res.status !== 401 || !creds.session) return res;
      counters.retried401++;
      return renewSession().then(go);
    });
  }

  /**
   * This origin's JSON; a refusal throws a RequestFailure.
   * @param {string} path
   * @param {string} [method]
   * @returns {Promise<any>}
   */
  function api(path, method) {
    return send(path, method).then((res) => (res.ok ? res.json() : refusal(res, path)));
  }

  // --- The page's own credential: renewed before it ends, for the same site ---
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let embedTimer;
  /** @param {number} [delay] */
  function scheduleEmbedRenewal(delay) {
    if (!creds.embed || !creds.embedExpiresAt) return;
    clearTimeout(embedTimer);
    const lead = Math.min(120000, (creds.embedExpiresAt - Date.now()) / 5);
    embedTimer = setTimeout(renewEmbed, delay ?? Math.max(0, creds.embedExpiresAt - lead - Date.now()));
  }
  function renewEmbed() {
    api(config.embedTokenUrl, 'POST')
      .then((body) => {
        creds.embed = body.data.token;
        creds.embedExpiresAt = Date.parse(body.data.expires_at);
        counters.embedRenewals++;
        scheduleEmbedRenewal();
      })
      .catch((error) => {
        counters.errors.push(String(error.message || error));
        // A passing failure (the network) is tried again while the current credential lasts.
        if (error.status === 0 && Date.now() < (creds.embedExpiresAt ?? 0)) scheduleEmbedRenewal(5000);
        else tell('renew its access to tiles and data', error.status || 0, error.reason || '');
      });
  }

  return {
    creds,
    headers,
    api,
    renewSession,
    /** Starts the timers that renew the credentials before they end. */
    start() {
      scheduleRenewal();
      scheduleEmbedRenewal();
    },
  };
}
