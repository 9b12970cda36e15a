// Helpers for Data API tests over real HTTP: a session for a bootstrapped organization, and GraphQL requests
// by POST or GET with its publishable key and session token.

import type { Bootstrapped, RunningServer } from '../../helpers/server.js';

export interface GraphqlAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** Mints a session token for the organization's publishable key (POST /v1/sessions with its secret key). */
export async function mintSession(server: RunningServer, org: Bootstrapped): Promise<string> {
  const res = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': org.secretKey.key },
    body: JSON.stringify({ publishable_key: org.publishableKey.key }),
  });
  if (res.status !== 201) throw new Error(`session minting answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

export interface Caller {
  key: string;
  session?: string;
}

export function callerOf(org: Bootstrapped, session: string): Caller {
  return { key: org.publishableKey.key, session };
}

function credentialHeaders(caller: Caller | undefined, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  if (caller?.key) headers['X-API-Key'] = caller.key;
  if (caller?.session) headers['X-Session-Token'] = caller.session;
  return headers;
}

async function answer(res: Response): Promise<GraphqlAnswer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** POST /graphql with a JSON body (an object is serialized; a string is sent as it is). */
export async function postGraphql(
  server: RunningServer,
  caller: Caller | undefined,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<GraphqlAnswer> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: credentialHeaders(caller, { 'Content-Type': 'application/json', ...headers }),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return answer(res);
}

/** GET /graphql with the given query parameters. */
export async function getGraphql(
  server: RunningServer,
  caller: Caller | undefined,
  params: Record<string, string>,
): Promise<GraphqlAnswer> {
  const res = await fetch(`${server.url}/graphql?${new URLSearchParams(params)}`, { headers: credentialHeaders(caller, {}) });
  return answer(res);
}
