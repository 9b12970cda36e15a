// Dynamic client registration (RFC 7591): charged to the caller's registration budget, since each stores a client.

import type { Reply, RequestContext } from '../http/route.js';
import { registrationResponse } from './oauth-clients.js';
import type { OAuthContext } from './oauth-context.js';
import { NO_STORE } from './oauth-problem.js';

export function registerHandler(context: OAuthContext) {
  const { deps, chargeRegistration } = context;
  async function register(ctx: RequestContext): Promise<Reply> {
    await chargeRegistration(ctx.remoteAddress);
    const client = await deps.clients.register(ctx.body);
    return { status: 201, headers: NO_STORE, json: registrationResponse(client) };
  }
  return register;
}
