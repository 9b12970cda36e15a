// `GET /studio/live?itinerary_id=…`: the live channel's WebSocket. The upgrade passes the access layer like any
// request (the embed's rules: a key, with a session when the organization requires one; a share link; a signed-in
// member, whose token may come as `auth_token` since a browser cannot set headers on a WebSocket), then the
// operation checks the itinerary is readable and hands the hub's session to the adapter. The handshake itself is
// answered before the stores are read (`websocket`: server/http/checked-socket.ts says why); these checks run once
// the socket is open, and a refusal closes it.

import { Type } from '@sinclair/typebox';
import { defineOperation } from '../core/operation.js';
import { listsPrivate } from '../core/policy.js';
import { STUDIO_SURFACE_REACH } from '../embed/studio-catalog.js';
import { ApiError } from '../errors.js';
import { rest } from '../http/rest.js';
import type { RouteDef } from '../http/route.js';
import type { SocketSession } from '../http/sockets.js';
import type { StudioOperations } from '../studio/studio-operations.js';
import { type LiveCredential, type LiveHub, type LiveVisitor, membersTopic, publicTopic } from './live-hub.js';

export function liveOperation(deps: { studio: StudioOperations; hub: LiveHub }) {
  const { getItinerary, getItineraryLocks } = deps.studio.itineraries;
  return defineOperation({
    id: 'getStudioLive',
    scope: 'embedding',
    writes: false,
    reach: STUDIO_SURFACE_REACH,
    async run(caller, input: { itinerary_id: string }, context): Promise<SocketSession> {
      const itineraryId = input.itinerary_id;
      // Record both topics from before the snapshot is read; the session replays its own topic's part on opening.
      const membersRecorder = deps.hub.watch(membersTopic(itineraryId));
      const publicRecorder = deps.hub.watch(publicTopic(itineraryId));
      // Outsiders (a share link, another organization's key) follow what they may read: the published itinerary.
      const draft = await getItinerary.run(caller, { itinerary_id: itineraryId, version: 'draft' }, context).catch((error: unknown) => {
        if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN')) return undefined;
        throw error;
      });
      // Members see drafts, locks and presence: whoever may list the organization's private side (a bare publishable
      // key is public, so it counts only with its session).
      const members = draft !== undefined && listsPrivate(caller, draft.organization_id);
      (members ? publicRecorder : membersRecorder).stop();
      const view = members ? draft : await getItinerary.run(caller, { itinerary_id: itineraryId, version: 'published' }, context);
      let visitor: LiveVisitor | null = null;
      if (caller.kind === 'user') visitor = { id: caller.user.id, name: caller.user.name || (caller.user.email.split('@')[0] as string) };
      const locks = members ? await getItineraryLocks.run(caller, { itinerary_id: itineraryId }, context) : undefined;
      // What let the socket in: it ends when that does (the hub listens for revocations, and for the end of tokens).
      let credential: LiveCredential = {};
      if (caller.kind === 'key') credential = { keyId: caller.key.id, ...(caller.session ? { expiresAt: caller.session.exp * 1000 } : {}) };
      else if (caller.kind === 'share') {
        credential = { share: { linkId: caller.link.id, resourceKind: caller.link.resourceKind, resourceId: caller.link.resourceId } };
      } else if (caller.kind === 'user') {
        credential = {
          member: { userId: caller.user.id, organizationId: view.organization_id },
          ...(caller.expiresAt ? { expiresAt: caller.expiresAt } : {}),
        };
      }
      return deps.hub.session({
        itineraryId,
        members,
        visitor,
        snapshot: { version: view.version, published_version: view.published_version, ...(locks ? { locks } : {}) },
        credential,
        recorder: members ? membersRecorder : publicRecorder,
      });
    },
  });
}

export function liveRoutes(operation: ReturnType<typeof liveOperation>): RouteDef[] {
  const route = rest(operation, {
    method: 'GET',
    path: '/studio/live',
    public: false,
    summary: 'The live channel of an itinerary (WebSocket): presence, locks, changes, publication',
    query: Type.Object({ itinerary_id: Type.String({ format: 'uuid' }) }),
    reply: (session) => ({ upgrade: session }),
  });
  const accept = route.handler;
  return [
    {
      ...route,
      userTokenInQuery: true,
      websocket: true,
      handler: (ctx) => {
        if (ctx.headers.upgrade?.toLowerCase() !== 'websocket' || !ctx.headers['sec-websocket-key']) {
          throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.websocket_required');
        }
        return accept(ctx);
      },
    },
  ];
}
