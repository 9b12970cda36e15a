// The OAuth server's pages: sign in, then consent (pick the publishable key whose organization the assistant may
// reach), and the page shown when a request cannot be sent back to the client. Plain HTML forms that work without
// script, at phone width and with the keyboard; nothing on them can be framed (clickjacking) or load anything.

import { escapeHtml } from '../http/responses.js';
import type { Reply } from '../http/route.js';

export interface ConsentKey {
  id: string;
  name: string;
  hint: string;
}

export interface ConsentOrganization {
  name: string;
  role: string;
  keys: ConsentKey[];
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#212529;background:#f1f3f5}' +
  'main{max-width:26rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}' +
  'h1{font-size:1.2rem;margin:0 0 1rem}label{display:block;margin:.75rem 0 .25rem;font-weight:600}' +
  'input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #adb5bd;border-radius:4px}' +
  'fieldset{border:1px solid #dee2e6;border-radius:4px;margin:.75rem 0}legend{font-weight:600}' +
  '.key{display:flex;gap:.5rem;align-items:baseline;margin:.25rem 0}.key label{display:inline;font-weight:400;margin:0}' +
  'button{font:inherit;padding:.5rem 1rem;margin:1rem .5rem 0 0;border-radius:4px;border:1px solid #1c7ed6;background:#1c7ed6;color:#fff;cursor:pointer}' +
  'button.secondary{background:#fff;color:#1c7ed6}.error{color:#c92a2a}.muted{color:#6c757d;font-size:.9rem}' +
  ':focus-visible{outline:3px solid #ffa94d;outline-offset:2px}';

/** Where a form on these pages may post (and, in Chromium, be redirected to): here, and the client's redirect URI. */
function formTargets(redirectUri: string | undefined): string {
  if (!redirectUri) return "'self'";
  try {
    const url = new URL(redirectUri);
    return `'self' ${url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol}`;
  } catch {
    return "'self'";
  }
}

function page(status: number, title: string, body: string, redirectUri?: string): Reply {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Cairn</title>` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">` +
    `<style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return {
    status,
    contentType: 'text/html; charset=utf-8',
    body: html,
    headers: [
      [
        'Content-Security-Policy',
        `default-src 'none'; style-src 'unsafe-inline'; form-action ${formTargets(redirectUri)}; frame-ancestors 'none'`,
      ],
      ['X-Frame-Options', 'DENY'],
      ['Cache-Control', 'no-store'],
      ['Referrer-Policy', 'no-referrer'],
    ],
  };
}

/** Who is asking, as the member must see it to judge: the name it gave, where its document lives, where it returns. */
export interface ClientShown {
  name: string;
  /** For a client known by its metadata document: that document's host (the name alone proves nothing). */
  documentHost?: string;
}

function clientLine(client: ClientShown, redirectUri: string): string {
  // The URL as the browser will go to it (an internationalized host in its punycode form).
  let target = redirectUri;
  let local = false;
  try {
    const url = new URL(redirectUri);
    target = url.href;
    local = url.protocol === 'http:';
  } catch {
    // shown as given
  }
  const from = client.documentHost ? ` <span class="muted">(published by ${escapeHtml(client.documentHost)})</span>` : '';
  const back = local ? `an application on this computer (${escapeHtml(target)})` : escapeHtml(target);
  return (
    `<p><strong>${escapeHtml(client.name)}</strong>${from} asks to reach your Cairn data through the MCP server.` +
    ` <span class="muted">You will be sent back to ${back}.</span></p>`
  );
}

export function signInPage(input: {
  client: ClientShown;
  redirectUri: string;
  ticket: string;
  email?: string;
  error?: string;
  status?: number;
}): Reply {
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return page(
    input.status ?? (input.error ? 401 : 200),
    'Sign in',
    `<h1>Sign in to Cairn</h1>${clientLine(input.client, input.redirectUri)}${error}` +
      '<form method="post" action="/oauth/authorize">' +
      `<input type="hidden" name="stage" value="sign_in"><input type="hidden" name="ticket" value="${escapeHtml(input.ticket)}">` +
      `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(input.email ?? '')}">` +
      '<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>' +
      '<button type="submit">Sign in</button></form>',
    input.redirectUri,
  );
}

export function consentPage(input: {
  client: ClientShown;
  redirectUri: string;
  ticket: string;
  userEmail: string;
  organizations: ConsentOrganization[];
  error?: string;
}): Reply {
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  const usable = input.organizations.filter((o) => o.keys.length > 0);
  let first = true;
  const choices = usable
    .map(
      (o) =>
        `<fieldset><legend>${escapeHtml(o.name)} <span class="muted">(${escapeHtml(o.role)})</span></legend>` +
        o.keys
          .map((k) => {
            const checked = first ? ' checked' : '';
            first = false;
            const id = `key-${escapeHtml(k.id)}`;
            return (
              `<div class="key"><input type="radio" name="key_id" id="${id}" value="${escapeHtml(k.id)}" required${checked}>` +
              `<label for="${id}">${escapeHtml(k.name)} <span class="muted">…${escapeHtml(k.hint)}</span></label></div>`
            );
          })
          .join('') +
        '</fieldset>',
    )
    .join('');
  const none =
    '<p>None of your organizations has a publishable key with the <code>mcp</code> scope. ' +
    'Ask an owner or admin to create one (management keys, scope mcp), then connect again.</p>';
  return page(
    input.error ? 400 : 200,
    'Allow access',
    `<h1>Allow access</h1>${clientLine(input.client, input.redirectUri)}` +
      `<p class="muted">Signed in as ${escapeHtml(input.userEmail)}. The assistant will act as you, with your role, in the organization of the key you choose.</p>` +
      error +
      '<form method="post" action="/oauth/authorize">' +
      `<input type="hidden" name="stage" value="consent"><input type="hidden" name="ticket" value="${escapeHtml(input.ticket)}">` +
      (usable.length > 0 ? choices : none) +
      (usable.length > 0 ? '<button type="submit" name="decision" value="allow">Allow</button>' : '') +
      '<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button></form>',
    input.redirectUri,
  );
}

/**
 * A request refused before the member did anything: said here, never by redirecting on its own (a registered client
 * could otherwise use this server to bounce visitors anywhere). `returnTo` is the client's own error answer, offered
 * as a link when the client and its redirect URI are known.
 */
export function errorPage(status: number, sentence: string, returnTo?: string): Reply {
  const back = returnTo ? `<p><a href="${escapeHtml(returnTo)}">Return to the application</a></p>` : '';
  return page(
    status,
    'Cannot continue',
    `<h1>This sign-in cannot continue</h1><p class="error" role="alert">${escapeHtml(sentence)}</p>${back}`,
  );
}
