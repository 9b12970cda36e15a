// The OAuth client rules: which redirect URIs may be registered, and which metadata-document URLs the server will
// fetch (never a loopback or private address unless OAUTH_PRIVATE_CLIENT_URLS allows it).

import { describe, expect, it } from 'vitest';
import { createSqliteRepositories } from '../../../data/repositories-sqlite.js';
import { openDatabase } from '../../../data/db.js';
import {
  clientRegistry,
  httpsMetadataFetcher,
  isMetadataDocumentUrl,
  isPrivateAddress,
  redirectUriProblem,
} from '../../../server/oauth/oauth-clients.js';
import type { OAuthProblem } from '../../../server/oauth/oauth-problem.js';

describe('redirect URIs', () => {
  it('accepts https, loopback http and a native app scheme', () => {
    for (const uri of [
      'https://client.example/cb',
      'http://localhost:3000/cb',
      'http://127.0.0.1/cb',
      'http://[::1]:9/cb',
      'com.example.app:/oauth',
    ]) {
      expect(redirectUriProblem(uri), uri).toBeUndefined();
    }
  });
  it('refuses script schemes, plain http elsewhere, fragments, credentials and relative URIs', () => {
    for (const uri of [
      'javascript:alert(1)',
      'data:text/html,x',
      'http://example.com/cb',
      'https://a.example/cb#x',
      'https://u:p@a.example/cb',
      '/cb',
    ]) {
      expect(redirectUriProblem(uri), uri).toBeTypeOf('string');
    }
  });
});

describe('client ID metadata documents', () => {
  it('are https URLs with a path', () => {
    expect(isMetadataDocumentUrl('https://client.example/oauth.json')).toBe(true);
    expect(isMetadataDocumentUrl('https://client.example/')).toBe(false);
    expect(isMetadataDocumentUrl('http://client.example/oauth.json')).toBe(false);
  });

  it('private, loopback and link-local addresses are private', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '2606:2800:220:1::1', '172.32.0.1']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('the fetcher refuses private addresses, written or resolved, before connecting', async () => {
    const fetchDocument = httpsMetadataFetcher(false);
    for (const url of [
      'https://127.0.0.1/client.json',
      'https://localhost/client.json',
      'https://[::1]/client.json',
      'https://[::ffff:127.0.0.1]/client.json',
      'https://[::ffff:a9fe:a9fe]/client.json',
      'https://2130706433/client.json',
    ]) {
      await expect(fetchDocument(url), url).rejects.toThrow(/private address/);
    }
  });

  it('an unreadable document is one generic refusal, whatever the reason', async () => {
    const repositories = createSqliteRepositories(openDatabase(':memory:'));
    const sentences = new Set<string>();
    for (const fetchDocument of [
      async () => ({ status: 404, body: new Uint8Array() }),
      async () => ({ status: 200, body: new TextEncoder().encode('not json') }),
      async () => {
        throw new Error('connect ECONNREFUSED');
      },
    ]) {
      const refused = (await clientRegistry({ oauth: repositories.oauth, fetchDocument })
        .resolve('https://a.example/c.json')
        .catch((e) => e)) as OAuthProblem;
      expect(refused.error).toBe('invalid_client');
      sentences.add(refused.description);
    }
    expect(sentences.size).toBe(1);
  });

  it('a document must name its own URL as client_id, and its redirect URIs follow the registration rules', async () => {
    const repositories = createSqliteRepositories(openDatabase(':memory:'));
    const url = 'https://client.example/client.json';
    const serve = (doc: unknown) => async () => ({ status: 200, body: new TextEncoder().encode(JSON.stringify(doc)) });
    const other = clientRegistry({
      oauth: repositories.oauth,
      fetchDocument: serve({ client_id: 'https://elsewhere/x', redirect_uris: ['https://a.example/cb'] }),
    });
    expect(((await other.resolve(url).catch((e) => e)) as OAuthProblem).error).toBe('invalid_client');
    const script = clientRegistry({
      oauth: repositories.oauth,
      fetchDocument: serve({ client_id: url, redirect_uris: ['javascript:x'] }),
    });
    expect(((await script.resolve(url).catch((e) => e)) as OAuthProblem).error).toBe('invalid_redirect_uri');
    const good = clientRegistry({
      oauth: repositories.oauth,
      fetchDocument: serve({ client_id: url, client_name: 'C', redirect_uris: ['https://a.example/cb'] }),
    });
    expect(await good.resolve(url)).toMatchObject({ id: url, name: 'C', redirectUris: ['https://a.example/cb'] });
  });
});
