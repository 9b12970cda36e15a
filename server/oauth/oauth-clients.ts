// OAuth clients of the MCP server: registered dynamically (RFC 7591, a uuid as client_id) or known by the URL of
// their client ID metadata document (an https URL as client_id, read when first seen and again after ten minutes).
// Every client is public: it proves itself with PKCE, never with a secret.

import { type LookupAddress, lookup } from 'node:dns';
import { request } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { OAuthRepository } from '../../data/repositories.js';
import type { OAuthClient } from '../../data/model/oauth.js';
import { OAuthProblem } from './oauth-problem.js';
import { MCP_SCOPE } from './oauth-urls.js';

const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 200;
const METADATA_DOCUMENT_MAX_BYTES = 64 * 1024;
const METADATA_DOCUMENT_TIMEOUT_MS = 5000;
const METADATA_DOCUMENT_MAX_AGE_MS = 10 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Schemes that would run or read something in the browser instead of returning to the client. */
const REFUSED_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'ftp:',
  'ws:',
  'wss:',
  'intent:',
  'mailto:',
  'tel:',
  'sms:',
]);
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

/**
 * Controls, and the invisible and direction-changing characters a client name could use to look like another on
 * the consent page (zero-width, bidi embeddings, overrides and isolates): never in a name or a URI we show.
 */
const hasControlCharacter = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      c < 0x20 ||
      (c >= 0x7f && c <= 0x9f) ||
      (c >= 0x200b && c <= 0x200f) ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    ) {
      return true;
    }
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

export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** The client metadata we keep, checked: what registration and metadata documents have in common. */
function checkedMetadata(raw: unknown): {
  name: string | null;
  redirectUris: string[];
  metadata: Record<string, unknown>;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
} {
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
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly unknown[]).includes(method)) {
    throw new OAuthProblem(
      'invalid_client_metadata',
      'Use token_endpoint_auth_method "none" (a public client: PKCE proves it), "client_secret_post" or "client_secret_basic".',
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
  // A requested `scope` is not kept: the only scope ever granted is `mcp`, and that is what registration answers.
  for (const field of ['client_uri', 'logo_uri', 'software_id', 'software_version']) {
    const value = asString(doc[field], field, MAX_URI_LENGTH);
    if (value !== undefined) kept[field] = value;
  }
  return { name, redirectUris: uris as string[], metadata: kept, tokenEndpointAuthMethod: method as TokenEndpointAuthMethod };
}

/** The registration answer (RFC 7591 §3.2.1): the metadata as registered, with what the server decided. */
export function registrationResponse(client: OAuthClient & { secret?: string }): Record<string, unknown> {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    ...(client.secret ? { client_secret: client.secret, client_secret_expires_at: 0 } : {}),
    client_name: client.name ?? undefined,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...client.metadata,
    scope: MCP_SCOPE,
  };
}

/** Addresses an anonymous caller must not make this server reach: loopback, private, shared, link-local, reserved. */
const PRIVATE_ADDRESSES = (() => {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ] as const) {
    list.addSubnet(net, prefix, 'ipv4');
  }
  // IPv4-mapped addresses (::ffff:a.b.c.d) are checked against the IPv4 rules by BlockList itself.
  for (const [net, prefix] of [
    ['::', 96], // unspecified, loopback, IPv4-compatible
    ['64:ff9b::', 96], // NAT64
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(net, prefix, 'ipv6');
  }
  return list;
})();

/** Whether an address is one an anonymous caller must not make this server fetch (loopback, private, link-local…). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return PRIVATE_ADDRESSES.check(bare, 'ipv4');
  if (family === 6) return PRIVATE_ADDRESSES.check(bare, 'ipv6');
  return true; // not an address at all: refuse
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

/** Reads a metadata document: https only, no redirects, 5 s, at most 64 KiB; the status when it is not 200. */
export type MetadataFetcher = (url: string) => Promise<{ status: number; body: Uint8Array }>;

/**
 * The default fetcher. Every address the host resolves to is checked when the socket connects (the lookup itself
 * refuses private ones), so a name that resolves to a public address for a check and a private one for the fetch
 * (DNS rebinding) gets nowhere. The body is read up to the limit and no further.
 */
export function httpsMetadataFetcher(allowPrivate: boolean): MetadataFetcher {
  const guardedLookup = (
    hostname: string,
    options: object,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address))) return callback(new Error('private address'), []);
      const wantsAll = (options as { all?: boolean }).all === true;
      if (wantsAll) return callback(null, list);
      const first = list[0];
      return first ? callback(null, first.address, first.family) : callback(new Error('no address'), []);
    });
  };
  return (url) =>
    new Promise((resolve, reject) => {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      // An address written in the URL is never looked up: check it here.
      if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) return reject(new Error('private address'));
      const req = request(
        url,
        { lookup: guardedLookup as never, headers: { accept: 'application/json' }, timeout: METADATA_DOCUMENT_TIMEOUT_MS },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > METADATA_DOCUMENT_MAX_BYTES) {
              req.destroy(new Error('too large'));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end();
    });
}

export interface ClientRegistryOptions {
  oauth: OAuthRepository;
  /** Reads client ID metadata documents (tests give their own). */
  fetchDocument: MetadataFetcher;
  /** Runs a store write as a unit of work (the server's); directly when absent. */
  write?: <T>(fn: () => Promise<T>) => Promise<T>;
}

export function clientRegistry(options: ClientRegistryOptions) {
  const write = options.write ?? (<T>(fn: () => Promise<T>) => fn());
  async function readMetadataDocument(url: string): Promise<Record<string, unknown>> {
    // One sentence whatever went wrong: the answer must not tell a prober which internal hosts exist.
    const unusable = () =>
      new OAuthProblem(
        'invalid_client',
        'The client ID metadata document at client_id could not be read: it must be a public https URL answering 200 with JSON of at most 64 KiB within 5 seconds, without redirects.',
        'client_id',
      );
    let answer: { status: number; body: Uint8Array };
    try {
      answer = await options.fetchDocument(url);
    } catch {
      throw unusable();
    }
    if (answer.status !== 200) throw unusable();
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(answer.body)) as Record<string, unknown>;
    } catch {
      throw unusable();
    }
  }

  return {
    /** RFC 7591 registration: checks the metadata and registers the client (with a secret when it asks for one). */
    async register(body: unknown): Promise<OAuthClient & { secret?: string }> {
      const checked = checkedMetadata(body);
      return write(() => options.oauth.registerClient(checked));
    },

    /**
     * The client a `client_id` names, or an OAuthProblem (unknown client, unusable metadata document). A document
     * not read in the last ten minutes is fetched, after `beforeFetch` (which charges the caller's rate limit).
     */
    async resolve(clientId: string | undefined, beforeFetch: () => Promise<void> = async () => undefined): Promise<OAuthClient> {
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
        await beforeFetch();
        const document = await readMetadataDocument(clientId);
        if (document.client_id !== clientId) {
          throw new OAuthProblem('invalid_client', 'The metadata document must name its own URL as client_id.', 'client_id');
        }
        const { tokenEndpointAuthMethod, ...checked } = checkedMetadata(document);
        if (tokenEndpointAuthMethod !== 'none') {
          throw new OAuthProblem(
            'invalid_client',
            'A client known by its metadata document is public: its token_endpoint_auth_method must be "none".',
            'client_id',
          );
        }
        return write(() => options.oauth.saveUrlClient({ id: clientId, ...checked }));
      }
      throw new OAuthProblem('invalid_client', 'This client_id is unknown: register at POST /oauth/register first.', 'client_id');
    },
  };
}

export type ClientRegistry = ReturnType<typeof clientRegistry>;
