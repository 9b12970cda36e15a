// OAuth clients of the MCP server: registered dynamically (RFC 7591, a uuid as client_id) or known by the URL of
// their client ID metadata document (an https URL as client_id, read when first seen and again after ten minutes).
// Every client is public: it proves itself with PKCE, never with a secret.

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { OAuthRepository } from '../../data/repositories.js';
import type { OAuthClient } from '../../data/stores/oauth-store.js';
import { OAuthProblem } from './oauth-problem.js';

const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 200;
const METADATA_DOCUMENT_MAX_BYTES = 64 * 1024;
const METADATA_DOCUMENT_TIMEOUT_MS = 5000;
const METADATA_DOCUMENT_MAX_AGE_MS = 10 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Schemes that would run or read something in the browser instead of returning to the client. */
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'ftp:', 'ws:', 'wss:']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect URI cannot be registered, or undefined when it can: https anywhere, http only back to this
 * machine (native apps, RFC 8252 §7.3), a private-use scheme of a native app (RFC 8252 §7.1); never a fragment.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `Use a redirect URI of at most ${MAX_URI_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'Use an absolute redirect URI, for example https://client.example/callback.';
  }
  if (url.hash !== '' || uri.includes('#')) return 'A redirect URI must not carry a fragment (#); remove it.';
  if (REFUSED_SCHEMES.has(url.protocol)) return `The ${url.protocol} scheme cannot be a redirect URI; use https.`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return 'Use https for a redirect URI; plain http is accepted only for localhost, 127.0.0.1 and [::1].';
  }
  if (url.username || url.password) return 'A redirect URI must not carry a user name or password.';
  return undefined;
}

/** C0 controls and DEL: never in a name or a URI we show on the consent page. */
const hasControlCharacter = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
};

const asString = (value: unknown, field: string, max: number): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max || hasControlCharacter(value)) {
    throw new OAuthProblem('invalid_client_metadata', `Use a ${field} of at most ${max} characters without control characters.`, field);
  }
  return value;
};

/** The client metadata we keep, checked: what registration and metadata documents have in common. */
function checkedMetadata(raw: unknown): { name: string | null; redirectUris: string[]; metadata: Record<string, unknown> } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new OAuthProblem('invalid_client_metadata', 'Send the client metadata as a JSON object.');
  }
  const doc = raw as Record<string, unknown>;
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || uris.some((u) => typeof u !== 'string')) {
    throw new OAuthProblem(
      'invalid_redirect_uri',
      `Give redirect_uris as an array of 1 to ${MAX_REDIRECT_URIS} absolute URIs.`,
      'redirect_uris',
    );
  }
  for (const uri of uris as string[]) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthProblem('invalid_redirect_uri', problem, 'redirect_uris');
  }
  const method = doc.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw new OAuthProblem(
      'invalid_client_metadata',
      'Only public clients are supported: set token_endpoint_auth_method to "none" (PKCE proves the client).',
      'token_endpoint_auth_method',
    );
  }
  const grants = doc.grant_types;
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))) {
    throw new OAuthProblem('invalid_client_metadata', 'Use grant_types among "authorization_code" and "refresh_token".', 'grant_types');
  }
  const responses = doc.response_types;
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== 'code'))) {
    throw new OAuthProblem('invalid_client_metadata', 'Use response_types ["code"].', 'response_types');
  }
  const name = asString(doc.client_name, 'client_name', MAX_NAME_LENGTH) ?? null;
  const kept: Record<string, unknown> = {};
  for (const field of ['client_uri', 'logo_uri', 'scope', 'software_id', 'software_version']) {
    const value = asString(doc[field], field, MAX_URI_LENGTH);
    if (value !== undefined) kept[field] = value;
  }
  return { name, redirectUris: uris as string[], metadata: kept };
}

/** The registration answer (RFC 7591 §3.2.1): the metadata as registered, with what the server decided. */
export function registrationResponse(client: OAuthClient): Record<string, unknown> {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    client_name: client.name ?? undefined,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...client.metadata,
  };
}

/** Whether an address is one an anonymous caller must not make this server fetch (loopback, private, link-local). */
export function isPrivateAddress(address: string): boolean {
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(mapped) === 4) {
    const [a = 0, b = 0] = mapped.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const v6 = mapped.toLowerCase();
  return v6 === '::' || v6 === '::1' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || /^ff/.test(v6);
}

/** Whether `clientId` names a client ID metadata document: an https URL with a path (draft-ietf-oauth-client-id-metadata-document). */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith('https://') || clientId.length > MAX_URI_LENGTH) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== '/' && url.hash === '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

export interface ClientRegistryOptions {
  oauth: OAuthRepository;
  /** Allow metadata documents on loopback and private addresses (OAUTH_PRIVATE_CLIENT_URLS). */
  privateClientUrls: boolean;
  fetch?: typeof fetch;
}

export function clientRegistry(options: ClientRegistryOptions) {
  const fetchDocument = options.fetch ?? fetch;

  async function readMetadataDocument(url: string): Promise<Record<string, unknown>> {
    const unreachable = (why: string) =>
      new OAuthProblem('invalid_client', `The client ID metadata document at client_id could not be used: ${why}.`, 'client_id');
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (!options.privateClientUrls) {
      const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
      if (addresses.length === 0) throw unreachable('its host does not resolve');
      if (addresses.some((a) => isPrivateAddress(a.address))) throw unreachable('its host is a private address');
    }
    let response: Response;
    try {
      response = await fetchDocument(url, {
        redirect: 'error',
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(METADATA_DOCUMENT_TIMEOUT_MS),
      });
    } catch {
      throw unreachable('it did not answer within 5 seconds without redirecting');
    }
    if (!response.ok) throw unreachable(`it answered HTTP ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > METADATA_DOCUMENT_MAX_BYTES) throw unreachable('it is larger than 64 KiB');
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > METADATA_DOCUMENT_MAX_BYTES) throw unreachable('it is larger than 64 KiB');
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as Record<string, unknown>;
    } catch {
      throw unreachable('it is not UTF-8 JSON');
    }
  }

  return {
    /** RFC 7591 registration: checks the metadata and registers a public client. */
    async register(body: unknown): Promise<OAuthClient> {
      const checked = checkedMetadata(body);
      return options.oauth.registerClient(checked);
    },

    /** The client a `client_id` names, or an OAuthProblem (unknown client, unusable metadata document). */
    async resolve(clientId: string | undefined): Promise<OAuthClient> {
      if (!clientId)
        throw new OAuthProblem(
          'invalid_request',
          'Send client_id: the id registration returned, or your metadata document URL.',
          'client_id',
        );
      if (UUID.test(clientId)) {
        const client = await options.oauth.getClient(clientId);
        if (client && client.fetchedAt === null) return client;
      } else if (isMetadataDocumentUrl(clientId)) {
        const known = await options.oauth.getClient(clientId);
        if (known?.fetchedAt && Date.now() - Date.parse(known.fetchedAt) < METADATA_DOCUMENT_MAX_AGE_MS) return known;
        const document = await readMetadataDocument(clientId);
        if (document.client_id !== clientId) {
          throw new OAuthProblem('invalid_client', 'The metadata document must name its own URL as client_id.', 'client_id');
        }
        return options.oauth.saveUrlClient({ id: clientId, ...checkedMetadata(document) });
      }
      throw new OAuthProblem('invalid_client', 'This client_id is unknown: register at POST /oauth/register first.', 'client_id');
    },
  };
}

export type ClientRegistry = ReturnType<typeof clientRegistry>;
