// `GET /studio`: the planner, a page for signed-in members (DESIGN §9). The page itself holds nothing private: it
// signs the member in with POST /v1/login and then works through the same APIs as any client (the Studio API with
// the member's own rights, the live channel, the agent), so this route only serves the shell and its policy.

import type { Access } from '../auth/access.js';
import { keyOrigins } from '../auth/origins.js';
import { studioPagePolicy } from '../embed/embed-page.js';
import { ASSETS_PATH, pageTemplate } from '../embed/web-pages.js';
import { ApiError } from '../errors.js';
import { fillTemplate } from '../http/html-template.js';
import type { Reply, RouteDef } from '../http/route.js';

/** The page (server/embed/web/planner.html): the shell the planner's modules fill; the same for every member. */
const PAGE = fillTemplate(pageTemplate('planner.html'), { assets: ASSETS_PATH });

function page(ancestors: string): Reply {
  return {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: PAGE,
    headers: [
      ['Content-Security-Policy', studioPagePolicy(ancestors)],
      ['Cache-Control', 'no-cache'],
      ['Referrer-Policy', 'no-referrer'],
      ...(ancestors === "'none'" ? ([['X-Frame-Options', 'DENY']] as [string, string][]) : []),
    ],
  };
}

export function plannerRoutes(): RouteDef[] {
  return [
    {
      op: 'getStudioPlanner',
      method: 'GET',
      path: '/studio',
      scope: 'public',
      writes: false,
      summary: 'The planner page for signed-in members',
      htmlErrors: true,
      handler: () => page("'none'"),
    },
    {
      // The planner inside an embed: opened from the embed page with its publishable key (checked like the embed's,
      // origins included), when the organization lets its members plan there; framed by the key's allowed origins.
      op: 'getStudioEmbedPlanner',
      method: 'GET',
      path: '/studio/embed/planner',
      scope: 'embedding',
      writes: false,
      summary: "The planner inside an organization's embeds, for its members",
      htmlErrors: true,
      handler: ({ access }) => {
        const caller = access as Access;
        if (caller.kind !== 'key') throw new ApiError('FORBIDDEN');
        if (!caller.organization.embedPlanner) throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.embed_planner');
        const origins = keyOrigins(caller.key, caller.organization);
        return page(origins.length > 0 ? origins.join(' ') : '*');
      },
    },
  ];
}
