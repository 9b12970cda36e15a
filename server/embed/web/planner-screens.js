// The planner's screens: sign in, browse the organization's itineraries (and create one), and the editor.

import { loadAgent } from './agent-panel.js';
import { $, field, say, sayRefusal } from './dom.js';
import { releaseLocks } from './edit-locks.js';
import { ensureMap } from './editor-map.js';
import { setItinerary } from './editor.js';
import { closeLive, openLive } from './live-channel.js';
import { api } from './planner-api.js';
import { keptToken, state } from './planner-state.js';

/** @param {'sign-in' | 'browse' | 'editor'} screen */
function show(screen) {
  for (const id of ['sign-in', 'browse', 'editor']) $(id).hidden = id !== screen;
  $('sign-out').hidden = screen === 'sign-in';
}

/** @param {string} [message] */
export function signOut(message) {
  state.token = null;
  keptToken.set(null);
  closeLive();
  show('sign-in');
  if (message) say(message);
}

/** Signs the kept token in again (or shows the sign-in), then opens the itinerary the address names, or the list. */
export async function start() {
  if (!state.token) return show('sign-in');
  try {
    state.me = (await api('GET', '/studio/me')).data;
  } catch {
    return signOut();
  }
  $('who').textContent = state.me.user.name || state.me.user.email;
  state.activities = (await api('GET', '/studio/activities')).data.activities;
  $('new-activity').replaceChildren(...state.activities.map((a) => new Option(a.title, a.id)));
  $('organization').replaceChildren(
    ...state.me.organizations.map(
      (/** @type {{ id: string, name: string, role: string }} */ o) => new Option(`${o.name} (${o.role})`, o.id),
    ),
  );
  state.organizationId = state.me.organizations[0]?.id ?? null;
  const opened = new URLSearchParams(location.hash.slice(1)).get('itinerary');
  if (opened) return openItinerary(opened);
  await browse();
}

export async function browse() {
  closeLive();
  show('browse');
  location.hash = '';
  if (!state.organizationId) return say('You belong to no organization yet: ask an owner to add you.');
  const collections = (await api('GET', `/v1/organizations/${state.organizationId}/collections?limit=100`)).data;
  $('collection').replaceChildren(...collections.map((/** @type {{ id: string, name: string }} */ c) => new Option(c.name, c.id)));
  await listItineraries();
}

async function listItineraries() {
  const collectionId = field('collection').value;
  const list = $('itineraries');
  list.replaceChildren();
  if (!collectionId) return;
  const items = (await api('GET', `/v1/collections/${collectionId}/itineraries?limit=100`)).data;
  for (const item of items) {
    const li = document.createElement('li');
    const open = document.createElement('button');
    open.type = 'button';
    open.textContent = item.name;
    open.addEventListener('click', () => openItinerary(item.id));
    li.append(open, ` ${item.published_version ? 'published' : 'draft'}`);
    list.append(li);
  }
}

/** @param {string} id */
async function openItinerary(id) {
  show('editor');
  location.hash = `itinerary=${id}`;
  state.history.clear();
  state.pendingStart = null;
  state.selected = null;
  ensureMap();
  const view = (await api('GET', `/v1/itineraries/${id}`)).data;
  // A saved itinerary is shown as it is: no question about the restrictions it already crosses.
  setItinerary(view, { fit: true });
  openLive(id);
  loadAgent();
}

/** The sign-in, sign-out and browsing controls. */
export function wireScreens() {
  $('sign-out').addEventListener('click', () => signOut('Signed out.'));
  $('sign-in-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const answer = await api('POST', '/v1/login', { email: field('email').value, password: field('password').value });
      state.token = answer.data.token;
      keptToken.set(state.token);
      await start();
    } catch (/** @type {any} */ error) {
      say(error.status === 401 ? 'That email and password do not match an account.' : error.message);
    }
  });
  $('organization').addEventListener('change', () => {
    state.organizationId = field('organization').value;
    browse().catch(sayRefusal);
  });
  $('collection').addEventListener('change', () => listItineraries().catch(sayRefusal));
  $('new-itinerary').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const created = await api('POST', '/v1/itineraries', {
        name: field('new-name').value,
        activity: field('new-activity').value,
        privacy: 'private',
        ...(field('collection').value ? { collection_id: field('collection').value } : {}),
      });
      await openItinerary(created.data.id);
    } catch (error) {
      sayRefusal(error);
    }
  });
  $('back').addEventListener('click', () => {
    releaseLocks();
    browse().catch(sayRefusal);
  });
}
