// `GET /studio`: the planner, a page for signed-in members (DESIGN §9). The page itself holds nothing private: it
// signs the member in with POST /v1/login and then works through the same APIs as any client (the Studio API with
// the member's own rights, the live channel, the agent), so this route only serves the shell and its policy.

import type { Access } from '../auth/access.js';
import { keyOrigins } from '../auth/origins.js';
import { studioPagePolicy } from '../embed/embed-page.js';
import { ApiError } from '../errors.js';
import type { Reply, RouteDef } from '../http/route.js';

const ASSETS = '/studio/assets';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Cairn planner</title>
<link rel="stylesheet" href="${ASSETS}/maplibre-gl.css">
<link rel="stylesheet" href="${ASSETS}/planner.css">
</head>
<body>
<header id="bar">
  <strong>Cairn planner</strong>
  <span id="who"></span>
  <button type="button" id="sign-out" hidden>Sign out</button>
</header>
<main id="app">
  <section id="sign-in" hidden aria-labelledby="sign-in-title">
    <h1 id="sign-in-title">Sign in</h1>
    <form id="sign-in-form">
      <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
      <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit">Sign in</button>
    </form>
  </section>
  <section id="browse" hidden aria-labelledby="browse-title">
    <h1 id="browse-title">Itineraries</h1>
    <label for="organization">Organization</label><select id="organization"></select>
    <label for="collection">Collection</label><select id="collection"></select>
    <ul id="itineraries"></ul>
    <form id="new-itinerary">
      <h2>New itinerary</h2>
      <label for="new-name">Name</label><input id="new-name" required maxlength="200">
      <label for="new-activity">Activity</label><select id="new-activity"></select>
      <button type="submit">Create and open</button>
    </form>
  </section>
  <section id="editor" hidden aria-label="Itinerary editor">
    <div id="map" role="application" aria-label="Map: click to add a waypoint, drag a waypoint to move it"></div>
    <aside id="panel">
      <div id="presence" aria-label="Who is here"></div>
      <label for="itinerary-name">Name</label><input id="itinerary-name" maxlength="200">
      <p id="stats"></p>
      <div class="row" role="group" aria-label="Drawing">
        <button type="button" id="mode-smart" aria-pressed="true">Smart</button>
        <button type="button" id="mode-freehand" aria-pressed="false">Freehand</button>
        <button type="button" id="undo" title="Undo (Ctrl+Z)">Undo</button>
        <button type="button" id="redo" title="Redo (Ctrl+Shift+Z)">Redo</button>
        <button type="button" id="finish-line" hidden title="Finish the freehand line (Enter)">Finish line</button>
        <button type="button" id="add-centre" title="Pan with the arrow keys, then place a point where the map is centred">Add a point at the map centre</button>
      </div>
      <details id="parts-box"><summary>Segments and waypoints</summary><div id="parts"></div></details>
      <div id="selection" aria-live="polite"></div>
      <div class="row">
        <button type="button" id="publish">Publish</button>
        <button type="button" id="share">Share link and embed code</button>
        <button type="button" id="back">All itineraries</button>
      </div>
      <div id="share-out" hidden>
        <label for="share-url">Share link</label><input id="share-url" readonly>
        <label for="embed-code">Embed code</label><textarea id="embed-code" readonly rows="3"></textarea>
      </div>
      <section id="chat" aria-label="Assistant">
        <h2>Assistant</h2>
        <div id="chat-log" aria-live="polite"></div>
        <form id="chat-form"><label for="chat-input">Ask the assistant</label><textarea id="chat-input" rows="2"></textarea><button type="submit">Send</button></form>
      </section>
    </aside>
    <section id="profile" aria-label="Elevation profile"><canvas id="profile-canvas"></canvas></section>
  </section>
  <div id="confirm" role="alertdialog" aria-modal="true" aria-labelledby="confirm-text" hidden>
    <p id="confirm-text"></p>
    <button type="button" id="confirm-keep">Keep it</button>
    <button type="button" id="confirm-decline">Decline</button>
  </div>
  <p id="status" role="status" aria-live="polite"></p>
</main>
<script src="${ASSETS}/maplibre-gl.js"></script>
<script src="${ASSETS}/profile.js"></script>
<script src="${ASSETS}/planner.js"></script>
</body>
</html>
`;

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
