// Allowed-origin matching for publishable keys (DESIGN §5): exact origins, `*.` subdomain wildcards,
// and `:*` any port.

/** The origin a request comes from: `Origin`, or for navigations (which send none) the Referer's origin. */
export function requestOrigin(headers: Record<string, string>): string | undefined {
  const origin = headers.origin;
  if (origin && origin !== 'null') return origin.toLowerCase();
  const referer = headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** True when `origin` (scheme://host[:port]) matches `pattern`. */
export function originMatches(pattern: string, origin: string): boolean {
  const p = /^(https?):\/\/(\*\.)?([^:/]+)(?::(\d+|\*))?$/i.exec(pattern.trim());
  const o = /^(https?):\/\/([^:/]+)(?::(\d+))?$/i.exec(origin);
  if (!p || !o) return false;
  const [, pScheme, pWildcard, pHost, pPort] = p;
  const [, oScheme, oHost, oPort] = o;
  if (pScheme?.toLowerCase() !== oScheme?.toLowerCase()) return false;
  const host = (oHost ?? '').toLowerCase();
  const base = (pHost ?? '').toLowerCase();
  if (pWildcard ? !host.endsWith(`.${base}`) : host !== base) return false;
  if (pPort === '*') return true;
  return (pPort ?? '') === (oPort ?? '');
}

/**
 * Whether a request from `origin` may use a key restricted to `patterns`. No patterns: any origin.
 * No origin at all (a server, a mobile app, curl): allowed, since origin checks protect browser use.
 */
export function originAllowed(patterns: readonly string[], origin: string | undefined): boolean {
  if (patterns.length === 0 || origin === undefined) return true;
  return patterns.some((p) => originMatches(p, origin));
}

/** The origins a publishable key may be used from: its own list, or the organization's defaults when it has none. */
export function keyOrigins(
  key: { allowedOrigins: readonly string[] },
  organization: { defaultAllowedOrigins: readonly string[] },
): readonly string[] {
  return key.allowedOrigins.length > 0 ? key.allowedOrigins : organization.defaultAllowedOrigins;
}
