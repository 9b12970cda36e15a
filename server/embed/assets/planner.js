// The planner (DESIGN §9): a signed-in member opens a collection's itinerary on the embed's map and edits it. Every
// action goes through the Studio API with the member's own token and rights, taking the soft locks it needs; the live
// channel shows who else is here, their locks and their edits; the agent panel talks with the organization's model.
// A placement that routes through a toll or access-restricted way asks first, and Decline restores the last accepted
// shape; opening a saved itinerary that already crosses one does not ask. Undo and redo cover the member's own edits.
(() => {
  const origin = location.origin;
  const $ = (id) => document.getElementById(id);
  /**
   * The sign-in kept for this tab. Inside another site's frame a browser that blocks third-party storage (an
   * incognito window) throws on any sessionStorage access: the member then signs in again on reload.
   */
  const kept = {
    get: () => {
      try {
        return sessionStorage.getItem('cairn.token');
      } catch {
        return null;
      }
    },
    set: (token) => {
      try {
        if (token) sessionStorage.setItem('cairn.token', token);
        else sessionStorage.removeItem('cairn.token');
      } catch {
        // not kept: see above
      }
    },
  };
  const state = {
    token: kept.get(),
    me: null,
    organizationId: null,
    activities: [],
    itinerary: null,
    map: null,
    mode: 'smart',
    pendingStart: null,
    /** Freehand mode: the points clicked so far, drawn dashed until Finish line (Enter) sends them. */
    sketch: [],
    selected: null,
    presence: [],
    anonymous: 0,
    locks: new Map(), // "type:id" → holder id
    lockEvents: [],
    undo: [],
    redo: [],
    busy: false,
    /** The edit under way, or resolved: the next edit starts after it. */
    editing: Promise.resolve(),
    live: null,
    liveMessages: [],
    /** Each close of the live channel the planner saw: `{code, reason}`. */
    liveCloses: [],
    confirmations: [],
    chat: [],
    errors: [],
  };
  window.cairnPlanner = state;

  // --- HTTP ------------------------------------------------------------------------------------------------------

  class Refusal extends Error {
    constructor(status, body) {
      super(body?.errors?.[0]?.message || `HTTP ${status}`);
      this.status = status;
      this.body = body;
    }
  }

  async function api(method, path, body) {
    const headers = { Accept: 'application/json' };
    if (state.token) headers.Authorization = `Bearer ${state.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (res.status === 401 && state.token && path !== '/v1/login') {
      signOut('Your sign-in has expired: sign in again.');
    }
    if (!res.ok) throw new Refusal(res.status, parsed);
    return parsed;
  }

  function say(text) {
    $('status').textContent = text;
  }

  /** A refusal said in words a member can act on; a 409 names who holds the part. */
  function sayRefusal(error) {
    if (!(error instanceof Refusal)) {
      state.errors.push(String(error?.message || error));
      say(String(error?.message || error));
      return;
    }
    if (error.status === 409 && error.body?.extensions?.metadata?.holder) {
      const holder = error.body.extensions.metadata.holder.id;
      const who = holder === '00000000-0000-0000-0000-000000000000' ? 'nobody yet (take the lock first)' : nameOf(holder);
      say(`That part is held by ${who}: wait for them to finish, or pick another part.`);
      return;
    }
    say(error.message);
  }

  function nameOf(userId) {
    if (state.me && userId === state.me.user.id) return 'you';
    const entry = state.presence.find((p) => p.user.id === userId);
    return entry ? entry.user.name : 'another member';
  }

  // --- Screens ---------------------------------------------------------------------------------------------------

  function show(screen) {
    for (const id of ['sign-in', 'browse', 'editor']) $(id).hidden = id !== screen;
    $('sign-out').hidden = screen === 'sign-in';
  }

  function signOut(message) {
    state.token = null;
    kept.set(null);
    closeLive();
    show('sign-in');
    if (message) say(message);
  }

  $('sign-out').addEventListener('click', () => signOut('Signed out.'));

  $('sign-in-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const answer = await api('POST', '/v1/login', { email: $('email').value, password: $('password').value });
      state.token = answer.data.token;
      kept.set(state.token);
      await start();
    } catch (error) {
      say(error.status === 401 ? 'That email and password do not match an account.' : error.message);
    }
  });

  async function start() {
    if (!state.token) return show('sign-in');
    try {
      state.me = (await api('GET', '/studio/me')).data;
    } catch {
      return signOut();
    }
    $('who').textContent = state.me.user.name || state.me.user.email;
    state.activities = (await api('GET', '/studio/activities')).data.activities;
    $('new-activity').replaceChildren(...state.activities.map((a) => new Option(a.title, a.id)));
    $('organization').replaceChildren(...state.me.organizations.map((o) => new Option(`${o.name} (${o.role})`, o.id)));
    state.organizationId = state.me.organizations[0]?.id ?? null;
    const opened = new URLSearchParams(location.hash.slice(1)).get('itinerary');
    if (opened) return openItinerary(opened);
    await browse();
  }

  async function browse() {
    closeLive();
    show('browse');
    location.hash = '';
    if (!state.organizationId) return say('You belong to no organization yet: ask an owner to add you.');
    const collections = (await api('GET', `/v1/organizations/${state.organizationId}/collections?limit=100`)).data;
    $('collection').replaceChildren(...collections.map((c) => new Option(c.name, c.id)));
    await listItineraries();
  }

  async function listItineraries() {
    const collectionId = $('collection').value;
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

  $('organization').addEventListener('change', () => {
    state.organizationId = $('organization').value;
    browse().catch(sayRefusal);
  });
  $('collection').addEventListener('change', () => listItineraries().catch(sayRefusal));
  $('new-itinerary').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const created = await api('POST', '/v1/itineraries', {
        name: $('new-name').value,
        activity: $('new-activity').value,
        privacy: 'private',
        ...($('collection').value ? { collection_id: $('collection').value } : {}),
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

  // --- The editor ------------------------------------------------------------------------------------------------

  async function openItinerary(id) {
    show('editor');
    location.hash = `itinerary=${id}`;
    state.undo = [];
    state.redo = [];
    state.pendingStart = null;
    state.selected = null;
    ensureMap();
    const view = (await api('GET', `/v1/itineraries/${id}`)).data;
    // A saved itinerary is shown as it is: no question about the restrictions it already crosses.
    setItinerary(view, { fit: true });
    openLive(id);
    loadAgent();
  }

  function ensureMap() {
    if (state.map) return;
    maplibregl.setWorkerUrl('/studio/assets/maplibre-gl-csp-worker.js');
    const map = new maplibregl.Map({
      container: 'map',
      style: {
        version: 8,
        sources: { trails: { type: 'vector', url: `${origin}/v1/tiles/trails.json` } },
        layers: [
          { id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } },
          {
            id: 'trails-contours',
            type: 'line',
            source: 'trails',
            'source-layer': 'contours',
            paint: { 'line-color': '#c9b99a', 'line-width': 0.6 },
          },
          {
            id: 'trails-lines',
            type: 'line',
            source: 'trails',
            'source-layer': 'trails',
            paint: { 'line-color': '#8a5a2b', 'line-width': ['interpolate', ['linear'], ['zoom'], 10, 0.6, 16, 2.2] },
          },
          {
            id: 'trails-hazards',
            type: 'line',
            source: 'trails',
            'source-layer': 'hazards',
            paint: { 'line-color': '#e8590c', 'line-width': 2.5, 'line-opacity': 0.7 },
          },
        ],
      },
      center: [1.56, 42.5],
      zoom: 13,
      transformRequest: (url) => (url.indexOf(`${origin}/`) === 0 ? { url, headers: { Authorization: `Bearer ${state.token}` } } : { url }),
    });
    state.map = map;
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    map.on('error', (event) => state.errors.push(String(event.error?.message || event.error || 'map error')));
    map.on('load', () => {
      map.addSource('route', { type: 'geojson', data: emptyCollection() });
      map.addSource('points', { type: 'geojson', data: emptyCollection() });
      map.addSource('sketch', { type: 'geojson', data: emptyCollection() });
      map.addLayer({
        id: 'sketch-line',
        type: 'line',
        source: 'sketch',
        paint: { 'line-color': '#495057', 'line-width': 3, 'line-dasharray': [2, 1] },
      });
      map.addLayer({
        id: 'route-lines',
        type: 'line',
        source: 'route',
        paint: {
          'line-color': ['get', 'colour'],
          'line-width': ['case', ['get', 'selected'], 7, 5],
          'line-dasharray': ['case', ['get', 'locked'], ['literal', [1, 1]], ['literal', [1, 0]]],
        },
      });
      map.addLayer({
        id: 'route-points',
        type: 'circle',
        source: 'points',
        paint: {
          'circle-radius': ['case', ['get', 'selected'], 9, 7],
          'circle-color': ['case', ['get', 'locked'], '#868e96', ['get', 'pending'], '#fab005', '#fff'],
          'circle-stroke-color': '#1c7ed6',
          'circle-stroke-width': 3,
        },
      });
      state.mapReady = true;
      draw();
    });
    map.on('click', onMapClick);
    map.on('mousedown', 'route-points', onPointDown);
    map.on('mousedown', 'route-lines', onLineDown);
    map.on('mouseenter', 'route-points', () => {
      map.getCanvas().style.cursor = 'grab';
    });
    map.on('mouseleave', 'route-points', () => {
      map.getCanvas().style.cursor = '';
    });
  }

  const emptyCollection = () => ({ type: 'FeatureCollection', features: [] });

  function setItinerary(view, options = {}) {
    state.itinerary = view;
    // The name being typed stays as typed; it is sent when the field is left.
    if (document.activeElement !== $('itinerary-name')) $('itinerary-name').value = view.name;
    const hours = view.duration / 3600;
    $('stats').textContent = `${(view.distance / 1000).toFixed(1)} km · ↑ ${Math.round(view.ascent)} m · ↓ ${Math.round(
      view.descent,
    )} m · ${Math.floor(hours)} h ${String(Math.round((hours % 1) * 60)).padStart(2, '0')} · version ${view.version}${
      view.published_version ? ` (published ${view.published_version})` : ''
    }`;
    if (options.fit) fitTo(view);
    draw();
    drawProfile(view);
    describeSelection();
    listParts(view);
  }

  /** The parts as buttons: everything the map's clicks select can be reached from the keyboard too. */
  function listParts(view) {
    const box = $('parts');
    const items = [];
    view.waypoints.forEach((w, k) => {
      items.push(partButton(`Waypoint ${k + 1}${w.name ? `: ${w.name}` : ''}`, { type: 'waypoint', id: w.id }));
      const s = view.segments[k];
      if (s) {
        const c = s.geometry.coordinates[Math.floor(s.geometry.coordinates.length / 2)];
        items.push(
          partButton(`Segment ${k + 1} (${s.engine}, ${(s.distance / 1000).toFixed(1)} km)`, {
            type: 'segment',
            id: s.id,
            at: [c[0], c[1]],
          }),
        );
      }
    });
    box.replaceChildren(...items);
  }

  function partButton(label, selection) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', () => select(selection));
    return b;
  }

  function lockedByOther(type, id) {
    const holder = state.locks.get(`${type}:${id}`);
    return holder !== undefined && holder !== state.me?.user.id;
  }

  function draw() {
    if (!state.mapReady || !state.itinerary) return;
    const view = state.itinerary;
    const colours = Object.fromEntries(view.groups.map((g) => [g.id, g.color]));
    state.map.getSource('route').setData({
      type: 'FeatureCollection',
      features: view.segments.map((s) => ({
        type: 'Feature',
        properties: {
          id: s.id,
          colour: s.hazards.length ? '#e8590c' : (s.groupId && colours[s.groupId]) || '#d9480f',
          selected: state.selected?.type === 'segment' && state.selected.id === s.id,
          locked: lockedByOther('segment', s.id),
        },
        geometry: s.geometry,
      })),
    });
    const points = view.waypoints.map((w) => ({
      type: 'Feature',
      properties: {
        id: w.id,
        selected: state.selected?.type === 'waypoint' && state.selected.id === w.id,
        locked: lockedByOther('waypoint', w.id),
        pending: false,
      },
      geometry: { type: 'Point', coordinates: w.coordinates.slice(0, 2) },
    }));
    if (state.pendingStart) {
      points.push({
        type: 'Feature',
        properties: { id: 'pending', selected: false, locked: false, pending: true },
        geometry: { type: 'Point', coordinates: state.pendingStart },
      });
    }
    const end = view.waypoints.length ? view.waypoints[view.waypoints.length - 1].coordinates.slice(0, 2) : null;
    const sketch = state.sketch.length ? [...(end ? [end] : []), ...state.sketch] : [];
    state.map
      .getSource('sketch')
      .setData(
        sketch.length >= 2 ? { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: sketch } } : emptyCollection(),
      );
    $('finish-line').hidden = state.sketch.length === 0;
    state.pointsData = { type: 'FeatureCollection', features: points };
    state.map.getSource('points').setData(state.pointsData);
    $('undo').disabled = state.undo.length === 0;
    $('redo').disabled = state.redo.length === 0;
  }

  function fitTo(view) {
    const coords = view.segments.flatMap((s) => s.geometry.coordinates);
    if (!state.map || coords.length === 0) return;
    const lons = coords.map((c) => c[0]);
    const lats = coords.map((c) => c[1]);
    state.map.resize();
    state.map.fitBounds(
      [
        [Math.min(...lons), Math.min(...lats)],
        [Math.max(...lons), Math.max(...lats)],
      ],
      { padding: 60, duration: 0, maxZoom: 15 },
    );
  }

  // --- Edits -----------------------------------------------------------------------------------------------------

  /**
   * Runs one edit at a time; the itinerary as the server answered it becomes the one shown. A button pressed while an
   * edit is under way (the group's Save right after a Redo, say) waits its turn instead of being dropped; map gestures
   * made while busy are still ignored by their own handlers, since their positions refer to the line being redrawn.
   */
  function edit(action) {
    if (state.asking) return Promise.resolve(undefined);
    const turn = state.editing.then(() => runEdit(action));
    state.editing = turn.catch(() => {});
    return turn;
  }

  async function runEdit(action) {
    state.busy = true;
    try {
      const result = await action();
      if (result?.data?.segments) {
        setItinerary(result.data);
        return result;
      }
      // An answer without the itinerary (204, or a group): read it, so the view and Undo see the edit's outcome.
      const view = (await api('GET', base())).data;
      setItinerary(view);
      return { data: view };
    } catch (error) {
      sayRefusal(error);
    } finally {
      state.busy = false;
      draw();
    }
  }

  const base = () => `/v1/itineraries/${state.itinerary.id}`;

  /** Records an edit of the member's own for Undo (and clears Redo). */
  function remember(label, undo, redo) {
    state.undo.push({ label, undo, redo });
    state.redo = [];
  }

  /**
   * A placement that crosses a restriction asks first. `changed` are the segments the placement routed; `restore`
   * puts back the last accepted shape. Resolves true when the placement is kept.
   */
  async function confirmRestrictions(view, changed, restore) {
    const crossing = view.segments.filter((s) => changed.includes(s.id) && s.hazards.length > 0);
    if (crossing.length === 0) return true;
    const kinds = [...new Set(crossing.flatMap((s) => s.hazards.map((h) => h.kind)))];
    const words = kinds.map((k) => (k === 'TOLLWAY' ? 'a toll way' : 'an access-restricted way')).join(' and ');
    const keep = await ask(`This placement routes through ${words}. Keep it?`);
    state.confirmations.push({ kinds, kept: keep });
    if (keep) return true;
    await edit(restore);
    say('Declined: the itinerary is back to its last accepted shape.');
    return false;
  }

  /** Asks a yes/no question; nothing else can be edited until it is answered. */
  function ask(text) {
    state.asking = true;
    const returnTo = document.activeElement;
    return new Promise((resolve) => {
      $('confirm-text').textContent = text;
      $('confirm').hidden = false;
      $('confirm-keep').focus();
      // Escape declines; Tab stays between the two answers.
      const onKey = (event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          done(false);
        } else if (event.key === 'Tab') {
          event.preventDefault();
          (document.activeElement === $('confirm-keep') ? $('confirm-decline') : $('confirm-keep')).focus();
        }
      };
      const done = (answer) => {
        state.asking = false;
        $('confirm').hidden = true;
        $('confirm-keep').onclick = null;
        $('confirm-decline').onclick = null;
        document.removeEventListener('keydown', onKey, true);
        if (returnTo instanceof HTMLElement) returnTo.focus();
        resolve(answer);
      };
      document.addEventListener('keydown', onKey, true);
      $('confirm-keep').onclick = () => done(true);
      $('confirm-decline').onclick = () => done(false);
    });
  }

  async function append(lngLat) {
    const view = state.itinerary;
    const to = [lngLat.lng, lngLat.lat];
    if (state.mode === 'freehand') {
      state.sketch.push(to);
      say(`Drawing: ${state.sketch.length} point(s). Finish line (Enter) to add it, Escape to drop it.`);
      draw();
      return;
    }
    let body;
    if (view.segments.length === 0) {
      if (!state.pendingStart) {
        state.pendingStart = to;
        say('Start placed: click where the first segment should end.');
        draw();
        return;
      }
      body = { engine: 'smart', from: state.pendingStart, to };
    } else {
      body = { engine: 'smart', to };
    }
    await place(body);
  }

  /** Sends the freehand line drawn so far (an empty itinerary needs two points: its start and one more). */
  async function finishLine() {
    const points = state.sketch;
    if (points.length === 0) return;
    if (state.itinerary.segments.length === 0 && points.length < 2) return say('Draw at least two points for the first line.');
    state.sketch = [];
    await place({ engine: 'freehand', coordinates: points });
  }

  /** Appends a segment, asks about restrictions it crosses, and remembers it for Undo. */
  async function place(body) {
    const answer = await edit(() => api('POST', `${base()}/segments`, body));
    if (!answer) return;
    state.pendingStart = null;
    const added = answer.data.segments[answer.data.segments.length - 1];
    const kept = await confirmRestrictions(answer.data, [added.id], () => api('DELETE', `${base()}/segments/${added.id}`));
    if (!kept) return draw();
    let segmentId = added.id;
    remember(
      'add segment',
      () => api('DELETE', `${base()}/segments/${segmentId}`),
      async () => {
        const again = await api('POST', `${base()}/segments`, body);
        segmentId = again.data.segments[again.data.segments.length - 1].id;
        return again;
      },
    );
    say(`Segment ${answer.data.segments.length} added.`);
  }

  /** The parts a waypoint edit needs: the waypoint and the segments either side. */
  function waypointParts(waypointId) {
    const view = state.itinerary;
    const k = view.waypoints.findIndex((w) => w.id === waypointId);
    const parts = [{ type: 'waypoint', id: waypointId }];
    if (k > 0) parts.push({ type: 'segment', id: view.segments[k - 1].id });
    if (k < view.segments.length) parts.push({ type: 'segment', id: view.segments[k].id });
    return parts;
  }

  /** Locks last while the member works: 20 s after their last edit they are let go (and presence says viewing). */
  const LOCK_IDLE_MS = 20_000;
  let idleRelease = null;
  async function takeLocks(parts) {
    await api('POST', `${base()}/locks`, { parts });
    sendPresence('editing');
    clearTimeout(idleRelease);
    idleRelease = setTimeout(releaseLocks, LOCK_IDLE_MS);
  }

  async function moveWaypoint(waypointId, to) {
    const view = state.itinerary;
    const waypoint = view.waypoints.find((w) => w.id === waypointId);
    const from = waypoint.coordinates.slice(0, 2);
    const parts = waypointParts(waypointId);
    const answer = await edit(async () => {
      await takeLocks(parts);
      return api('PUT', `${base()}/waypoints/${waypointId}`, { coordinates: to });
    });
    if (!answer) return draw();
    const changed = parts.filter((p) => p.type === 'segment').map((p) => p.id);
    const kept = await confirmRestrictions(answer.data, changed, () =>
      api('PUT', `${base()}/waypoints/${waypointId}`, { coordinates: from }),
    );
    if (!kept) return;
    remember(
      'move waypoint',
      () => api('PUT', `${base()}/waypoints/${waypointId}`, { coordinates: from }),
      () => api('PUT', `${base()}/waypoints/${waypointId}`, { coordinates: to }),
    );
    say('Waypoint moved.');
  }

  function onMapClick(event) {
    // A press that began on a waypoint (a drag, or a refused one) is never also a placement where it ended.
    const fromPoint = state.pressedPoint;
    state.pressedPoint = false;
    if (fromPoint || state.dragging || state.busy || state.asking) return;
    const hits = state.map.queryRenderedFeatures(event.point, { layers: ['route-points', 'route-lines'] });
    const point = hits.find((f) => f.layer.id === 'route-points' && f.properties.id !== 'pending');
    const line = hits.find((f) => f.layer.id === 'route-lines');
    if (point) return select({ type: 'waypoint', id: point.properties.id });
    if (line) return select({ type: 'segment', id: line.properties.id, at: [event.lngLat.lng, event.lngLat.lat] });
    if (state.selected) {
      select(null);
      return;
    }
    append(event.lngLat).catch(sayRefusal);
  }

  function onPointDown(event) {
    const feature = event.features?.[0];
    if (!feature || feature.properties.id === 'pending' || state.busy || state.asking) return;
    event.preventDefault();
    state.pressedPoint = true;
    const id = feature.properties.id;
    if (lockedByOther('waypoint', id)) {
      say(`That waypoint is held by ${nameOf(state.locks.get(`waypoint:${id}`))}.`);
      return;
    }
    drag(event, {
      move: (lngLat) => {
        const f = state.pointsData.features.find((x) => x.properties.id === id);
        if (f) {
          f.geometry.coordinates = [lngLat.lng, lngLat.lat];
          state.map.getSource('points').setData(state.pointsData);
        }
      },
      drop: (lngLat) => moveWaypoint(id, [lngLat.lng, lngLat.lat]).catch(sayRefusal),
    });
  }

  /**
   * Follows a press on a waypoint or a segment: past 4 px it is a drag (`move` on every step, `drop` where it ends)
   * and the click the map fires after it is ignored; otherwise it is a click, which the map's click handler selects.
   */
  function drag(event, { move, drop }) {
    const map = state.map;
    const start = event.point;
    let moved = false;
    const onMove = (e) => {
      if (!moved && Math.hypot(e.point.x - start.x, e.point.y - start.y) < 4) return;
      moved = true;
      state.dragging = true;
      map.getCanvas().style.cursor = 'grabbing';
      move(e.lngLat);
    };
    map.on('mousemove', onMove);
    map.once('mouseup', (e) => {
      map.off('mousemove', onMove);
      map.getCanvas().style.cursor = '';
      setTimeout(() => {
        state.dragging = false;
      }, 0);
      if (moved) drop(e.lngLat);
      else state.pressedPoint = false;
    });
  }

  function select(selection) {
    state.selected = selection;
    draw();
    describeSelection();
  }

  function button(label, action) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', () => action().catch(sayRefusal));
    return b;
  }

  /**
   * A new waypoint at `at` on the way of segment `segmentId`: the segment re-routes through it (what dragging a
   * segment does too). The API inserts after a segment's start; the first segment has none before it, so there the
   * segment is split where the point is nearest and the new waypoint moved to the point.
   */
  async function insertWaypoint(segmentId, at) {
    const view = state.itinerary;
    const k = view.segments.findIndex((x) => x.id === segmentId);
    if (k < 0) return;
    const s = view.segments[k];
    const known = new Set(view.segments.map((x) => x.id));
    const insert = async () => {
      const current = state.itinerary;
      if (k === 0) {
        await takeLocks([{ type: 'segment', id: current.segments[0].id }]);
        const split = await api('POST', `${base()}/segments/${current.segments[0].id}/split`, { point: at });
        const middle = split.data.waypoints[1].id;
        await takeLocks([
          { type: 'waypoint', id: middle },
          { type: 'segment', id: split.data.segments[0].id },
          { type: 'segment', id: split.data.segments[1].id },
        ]);
        return api('PUT', `${base()}/waypoints/${middle}`, { coordinates: at });
      }
      const target = current.segments[k];
      await takeLocks([
        { type: 'segment', id: current.segments[k - 1].id },
        { type: 'segment', id: target.id },
      ]);
      return api('POST', `${base()}/segments/insert`, { before_segment_id: target.id, point: at, engine: target.engine });
    };
    const answer = await edit(insert);
    if (!answer) return;
    let inserted = answer.data.waypoints[k + 1].id;
    const removeInserted = async () => {
      await takeLocks(waypointParts(inserted));
      return api('DELETE', `${base()}/waypoints/${inserted}`);
    };
    const changed = answer.data.segments
      .filter((x) => !known.has(x.id) || x.id === s.id || x.id === view.segments[k - 1]?.id)
      .map((x) => x.id);
    const kept = await confirmRestrictions(answer.data, changed, removeInserted);
    select(null);
    if (!kept) return;
    remember('insert waypoint', removeInserted, async () => {
      const again = await insert();
      inserted = again.data.waypoints[k + 1].id;
      return again;
    });
  }

  /** Dragging a segment: a new waypoint where it is dropped, the segment re-routed through it. */
  function onLineDown(event) {
    const feature = event.features?.[0];
    if (!feature || state.busy || state.asking) return;
    // A waypoint drawn over the line is the waypoint's to drag.
    if (state.map.queryRenderedFeatures(event.point, { layers: ['route-points'] }).length > 0) return;
    const id = feature.properties.id;
    if (lockedByOther('segment', id)) return;
    event.preventDefault();
    state.pressedPoint = true;
    drag(event, {
      move: (lngLat) => {
        const ghost = {
          type: 'Feature',
          properties: { id: 'ghost', selected: false, locked: false, pending: true },
          geometry: { type: 'Point', coordinates: [lngLat.lng, lngLat.lat] },
        };
        state.map.getSource('points').setData({ type: 'FeatureCollection', features: [...state.pointsData.features, ghost] });
      },
      drop: (lngLat) => {
        state.map.getSource('points').setData(state.pointsData);
        insertWaypoint(id, [lngLat.lng, lngLat.lat]).catch(sayRefusal);
      },
    });
  }

  function describeSelection() {
    const box = $('selection');
    const typed = typedGroupValues(box);
    box.replaceChildren();
    const selection = state.selected;
    const view = state.itinerary;
    if (!selection || !view) return;
    if (selection.type === 'waypoint') {
      const k = view.waypoints.findIndex((w) => w.id === selection.id);
      if (k < 0) return select(null);
      box.append(`Waypoint ${k + 1}`, document.createElement('br'));
      box.append(
        button('Move it to the map centre', () => {
          const centre = state.map.getCenter();
          return moveWaypoint(selection.id, [centre.lng, centre.lat]);
        }),
      );
      box.append(
        button('Delete waypoint', async () => {
          const at = view.waypoints[k].coordinates.slice(0, 2);
          const last = k === view.waypoints.length - 1;
          const before = view.segments[k - 1];
          const engine = (last ? before : view.segments[k])?.engine ?? 'smart';
          const answer = await edit(async () => {
            await takeLocks(waypointParts(selection.id));
            return api('DELETE', `${base()}/waypoints/${selection.id}`);
          });
          select(null);
          if (!answer) return;
          // Undo puts a waypoint back where it was (a new one: ids are not reused), Redo deletes that one.
          let restored = null;
          remember(
            'delete waypoint',
            async () => {
              const current = state.itinerary;
              let again;
              if (last)
                again = await api('POST', `${base()}/segments`, engine === 'smart' ? { engine, to: at } : { engine, coordinates: [at] });
              else {
                const target = current.segments[Math.max(0, k - 1)];
                await takeLocks([
                  { type: 'segment', id: target.id },
                  ...(k > 1 ? [{ type: 'segment', id: current.segments[k - 2].id }] : []),
                ]);
                again = await api('POST', `${base()}/segments/insert`, {
                  before_segment_id: k === 0 ? current.segments[0].id : target.id,
                  point: at,
                  engine,
                });
              }
              restored = again.data.waypoints[k].id;
              return again;
            },
            async () => {
              await takeLocks(waypointParts(restored));
              return api('DELETE', `${base()}/waypoints/${restored}`);
            },
          );
        }),
      );
      return;
    }
    const k = view.segments.findIndex((s) => s.id === selection.id);
    if (k < 0) return select(null);
    const s = view.segments[k];
    box.append(`Segment ${k + 1}: ${s.engine}, ${(s.distance / 1000).toFixed(2)} km`, document.createElement('br'));
    const guarded = (parts, call) =>
      edit(async () => {
        await takeLocks(parts);
        return call();
      });
    const other = s.engine === 'smart' ? 'freehand' : 'smart';
    box.append(
      button(`Switch to ${other}`, async () => {
        const answer = await guarded([{ type: 'segment', id: s.id }], () =>
          api('PATCH', `${base()}/segments/${s.id}/mode`, { engine: other }),
        );
        if (answer) {
          remember(
            'switch engine',
            () => api('PATCH', `${base()}/segments/${s.id}/mode`, { engine: s.engine }),
            () => api('PATCH', `${base()}/segments/${s.id}/mode`, { engine: other }),
          );
          if (other === 'smart')
            await confirmRestrictions(answer.data, [s.id], () => api('PATCH', `${base()}/segments/${s.id}/mode`, { engine: 'freehand' }));
        }
      }),
      button('Split here', async () => {
        const at = selection.at;
        const answer = await guarded([{ type: 'segment', id: s.id }], () => api('POST', `${base()}/segments/${s.id}/split`, { point: at }));
        if (!answer) return;
        // Undo merges the two parts back (the first keeps its id); Redo splits it again at the same point.
        let tail = answer.data.segments[k + 1].id;
        const parts = () => [
          { type: 'segment', id: s.id },
          { type: 'segment', id: tail },
        ];
        remember(
          'split',
          async () => {
            await takeLocks(parts());
            return api('POST', `${base()}/segments/${s.id}/merge`, { with_segment_id: tail });
          },
          async () => {
            await takeLocks([{ type: 'segment', id: s.id }]);
            const again = await api('POST', `${base()}/segments/${s.id}/split`, { point: at });
            tail = again.data.segments[k + 1].id;
            return again;
          },
        );
        select(null);
      }),
      button('Insert a waypoint here', () => insertWaypoint(s.id, selection.at)),
      button('Delete segment', async () => {
        const answer = await guarded([{ type: 'segment', id: s.id }], () => api('DELETE', `${base()}/segments/${s.id}`));
        select(null);
        // The last segment comes back as it was drawn or routed to its end; a middle one cannot be put back as it was.
        if (!answer || k !== view.segments.length - 1 || k === 0) {
          if (answer) say('Segment deleted (this one cannot be undone).');
          return;
        }
        const coords = s.geometry.coordinates.map((c) => [c[0], c[1]]);
        const body =
          s.engine === 'smart' ? { engine: 'smart', to: coords[coords.length - 1] } : { engine: 'freehand', coordinates: coords.slice(1) };
        let restored = null;
        remember(
          'delete segment',
          async () => {
            const again = await api('POST', `${base()}/segments`, body);
            restored = again.data.segments[again.data.segments.length - 1].id;
            return again;
          },
          async () => {
            await takeLocks([{ type: 'segment', id: restored }]);
            return api('DELETE', `${base()}/segments/${restored}`);
          },
        );
      }),
    );
    const next = view.segments[k + 1];
    const colour = ['#2f9e44', '#ae3ec9', '#0c8599', '#f08c00'][view.groups.length % 4];
    const group = async (ids) => {
      const body = { name: `Group ${view.groups.length + 1}`, color: colour, segment_ids: ids };
      let groupId = null;
      const create = async () => {
        await takeLocks(ids.map((id) => ({ type: 'segment', id })));
        const made = await api('POST', `${base()}/segment-groups`, body);
        groupId = made.data.id;
        return made;
      };
      if (!(await edit(create))) return;
      // Undo ungroups (the group goes, the segments stay); Redo makes the group again.
      remember(
        'group',
        async () => {
          await takeLocks([{ type: 'segment_group', id: groupId }]);
          return api('DELETE', `${base()}/segment-groups/${groupId}`);
        },
        create,
      );
    };
    if (!s.groupId) {
      box.append(button('Group this segment', () => group([s.id])));
      if (next && !next.groupId) box.append(button('Group with the next segment', () => group([s.id, next.id])));
    } else {
      const current = view.groups.find((g) => g.id === s.groupId);
      if (current) box.append(groupEditor(current, typed?.groupId === current.id ? typed.values : {}));
    }
    if (next && next.engine === s.engine) {
      box.append(
        button('Merge with next', async () => {
          const junction = view.waypoints[k + 1].coordinates.slice(0, 2);
          let second = next.id;
          const merge = async () => {
            await takeLocks([
              { type: 'segment', id: s.id },
              { type: 'segment', id: second },
            ]);
            return api('POST', `${base()}/segments/${s.id}/merge`, { with_segment_id: second });
          };
          const answer = await edit(merge);
          if (!answer) return;
          // Undo splits the merged segment at the old junction; Redo merges the parts again.
          remember(
            'merge',
            async () => {
              await takeLocks([{ type: 'segment', id: s.id }]);
              const again = await api('POST', `${base()}/segments/${s.id}/split`, { point: junction });
              second = again.data.segments[k + 1].id;
              return again;
            },
            merge,
          );
          select(null);
        }),
      );
    }
  }

  /**
   * What the member has typed into the open group form and not saved, by field, so that redrawing the panel (a
   * colleague's edit arriving, the own edit answering) does not throw it away.
   */
  function typedGroupValues(box) {
    const form = box.querySelector('form.group');
    if (!form) return null;
    const values = {};
    for (const input of form.querySelectorAll('input[name]')) {
      // A colour input reports its value in lower case whatever case the saved one had.
      const same = input.type === 'color' ? input.value === input.defaultValue.toLowerCase() : input.value === input.defaultValue;
      if (!same) values[input.name] = input.value;
    }
    return { groupId: form.dataset.groupId, values };
  }

  /**
   * A group's name, colour and speed (km/h, blank: the activity's own), saved with the group's lock. `typed` holds
   * values the member typed before the panel was redrawn; they win over the saved ones until saved.
   */
  function groupEditor(group, typed = {}) {
    const form = document.createElement('form');
    form.className = 'group';
    form.dataset.groupId = group.id;
    const field = (label, input) => {
      const l = document.createElement('label');
      l.textContent = label;
      l.append(input);
      return l;
    };
    // defaultValue holds the saved value (what typedGroupValues compares with); value what is typed.
    const input = (name, saved, attributes) => {
      const element = Object.assign(document.createElement('input'), { ...attributes, name, defaultValue: saved });
      if (typed[name] !== undefined) element.value = typed[name];
      return element;
    };
    const name = input('name', group.name, { maxLength: 200, required: true });
    const color = input('color', group.color.length === 7 ? group.color : '#d9480f', { type: 'color' });
    const speed = input('speed', group.speed === null ? '' : String(group.speed), { type: 'number', min: '0.5', max: '100', step: '0.5' });
    form.append(field('Group name', name), field('Colour', color), field('Speed (km/h)', speed));
    const save = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Save group' });
    form.append(save);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const put = (values) => async () => {
        await takeLocks([{ type: 'segment_group', id: group.id }]);
        return api('PUT', `${base()}/segment-groups/${group.id}`, values);
      };
      const before = { name: group.name, color: group.color, speed: group.speed };
      const after = { name: name.value, color: color.value, speed: speed.value === '' ? null : Number(speed.value) };
      const answer = await edit(put(after)).catch(sayRefusal);
      if (answer) remember('edit group', put(before), put(after));
    });
    form.append(
      button('Ungroup', () =>
        edit(async () => {
          await takeLocks([{ type: 'segment_group', id: group.id }]);
          return api('DELETE', `${base()}/segment-groups/${group.id}`);
        }),
      ),
    );
    return form;
  }

  /** Undo or Redo: the entry moves from one stack to the other once its edit went through. */
  async function step(from, to, direction) {
    const entry = from.pop();
    if (!entry) return;
    const answer = await edit(direction === 'undo' ? entry.undo : entry.redo);
    if (answer) {
      to.push(entry);
      say(`${direction === 'undo' ? 'Undone' : 'Redone'}: ${entry.label}.`);
    } else from.push(entry);
    draw();
  }
  const undo = () => step(state.undo, state.redo, 'undo');
  const redo = () => step(state.redo, state.undo, 'redo');

  $('undo').addEventListener('click', () => undo().catch(sayRefusal));
  $('finish-line').addEventListener('click', () => finishLine().catch(sayRefusal));
  $('add-centre').addEventListener('click', () => {
    if (state.busy || state.asking) return;
    append(state.map.getCenter()).catch(sayRefusal);
  });
  $('redo').addEventListener('click', () => redo().catch(sayRefusal));
  for (const mode of ['smart', 'freehand']) {
    $(`mode-${mode}`).addEventListener('click', () => {
      state.mode = mode;
      $('mode-smart').setAttribute('aria-pressed', String(mode === 'smart'));
      $('mode-freehand').setAttribute('aria-pressed', String(mode === 'freehand'));
    });
  }
  // In the capture phase: the map's own keyboard handling (arrows, +/-) must not swallow the planner's keys.
  document.addEventListener(
    'keydown',
    (event) => {
      if ($('editor').hidden || state.asking || event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement)
        return;
      const z = event.key === 'z' || event.key === 'Z';
      if ((event.ctrlKey || event.metaKey) && z && !event.shiftKey) {
        event.preventDefault();
        undo().catch(sayRefusal);
      } else if ((event.ctrlKey || event.metaKey) && ((z && event.shiftKey) || event.key === 'y')) {
        event.preventDefault();
        redo().catch(sayRefusal);
      } else if (event.key === 'Escape') {
        state.pendingStart = null;
        state.sketch = [];
        select(null);
      } else if (event.key === 'Enter' && state.sketch.length) {
        event.preventDefault();
        finishLine().catch(sayRefusal);
      }
    },
    true,
  );

  $('itinerary-name').addEventListener('change', async () => {
    const before = state.itinerary.name;
    const after = $('itinerary-name').value;
    const answer = await edit(() => api('PATCH', base(), { name: after }));
    if (answer)
      remember(
        'rename',
        () => api('PATCH', base(), { name: before }),
        () => api('PATCH', base(), { name: after }),
      );
    else $('itinerary-name').value = before;
  });

  $('publish').addEventListener('click', async () => {
    const answer = await edit(() => api('POST', `${base()}/publish`));
    if (answer) say(`Published (version ${answer.data.published_version}).`);
  });

  $('share').addEventListener('click', async () => {
    try {
      const link = (await api('POST', `${base()}/share`)).data;
      $('share-url').value = link.url;
      $('embed-code').value =
        `<iframe src="${link.url}" width="100%" height="480" style="border:0" loading="lazy" title="${state.itinerary.name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}"></iframe>`;
      $('share-out').hidden = false;
      if (!state.itinerary.published_version) say('The link shows the published itinerary: publish it first.');
    } catch (error) {
      sayRefusal(error);
    }
  });

  function releaseLocks() {
    clearTimeout(idleRelease);
    if (!state.itinerary || !state.token) return;
    // keepalive: the request outlives the page when it is being closed.
    fetch(`${origin}${base()}/locks`, { method: 'DELETE', keepalive: true, headers: { Authorization: `Bearer ${state.token}` } }).catch(
      () => undefined,
    );
    sendPresence('viewing');
  }
  window.addEventListener('pagehide', releaseLocks);

  // --- Elevation profile (profile.js) ---

  function drawProfile(view) {
    window.cairnProfile.draw($('profile-canvas'), view);
  }

  // --- Live channel ----------------------------------------------------------------------------------------------

  let reconnect = 0;
  let refetch = null;
  /** The live channel closed since its last hello: the member was told, and is told again when it is back. */
  let interrupted = false;

  function openLive(itineraryId) {
    closeLive();
    const url = `${origin.replace(/^http/, 'ws')}/studio/live?itinerary_id=${itineraryId}&auth_token=${encodeURIComponent(state.token)}`;
    const socket = new WebSocket(url);
    state.live = socket;
    socket.onmessage = (event) => onLive(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (state.live !== socket) return;
      state.live = null;
      interrupted = true;
      state.liveCloses.push({ code: event.code, reason: event.reason });
      // 4401, 4403, 4404…: the server refused or ended what let this socket in, and would refuse it again.
      if (event.code >= 4400 && event.code < 4500) {
        say(`Live updates stopped: ${event.reason || `refused (${event.code})`}. Open the itinerary again to retry.`);
        return;
      }
      // Back again after a dropped connection (1, 2, 4 … 30 s); the hello tells what changed meanwhile.
      const wait = Math.min(30000, 1000 * 2 ** reconnect++);
      say(`Live updates interrupted (${event.code}): reconnecting in ${wait / 1000} s.`);
      setTimeout(() => {
        if (!$('editor').hidden && state.itinerary?.id === itineraryId) openLive(itineraryId);
      }, wait);
    };
  }

  function closeLive() {
    clearTimeout(refetch);
    state.agentRun?.abort();
    const socket = state.live;
    state.live = null;
    socket?.close();
  }

  function sendPresence(mode) {
    if (state.live?.readyState === WebSocket.OPEN) state.live.send(JSON.stringify({ type: 'presence', mode }));
  }

  function onLive(message) {
    state.liveMessages.push(message);
    switch (message.type) {
      case 'hello':
        reconnect = 0;
        if (interrupted) say('Live updates are back.');
        interrupted = false;
        state.locks = new Map((message.locks || []).map((l) => [`${l.type}:${l.id}`, l.holder.id]));
        showPresence(message);
        if (state.itinerary && message.version !== state.itinerary.version) scheduleRefetch();
        break;
      case 'presence':
        showPresence(message);
        break;
      case 'lock.taken':
        for (const p of message.parts) state.locks.set(`${p.type}:${p.id}`, message.holder.id);
        state.lockEvents.push(message);
        draw();
        break;
      case 'lock.released':
      case 'lock.expired':
        for (const p of message.parts) state.locks.delete(`${p.type}:${p.id}`);
        state.lockEvents.push(message);
        draw();
        break;
      case 'itinerary.changed':
        if (!state.itinerary || message.version !== state.itinerary.version) scheduleRefetch();
        break;
      case 'itinerary.published':
        if (state.itinerary) {
          state.itinerary.published_version = message.version;
          say(`Published (version ${message.version}).`);
        }
        break;
      case 'itinerary.deleted':
        say('This itinerary was deleted.');
        browse().catch(sayRefusal);
        break;
    }
  }

  /** Another member's edit: read the itinerary again (once for a burst of changes). */
  function scheduleRefetch() {
    clearTimeout(refetch);
    const id = state.itinerary?.id;
    refetch = setTimeout(async () => {
      if (!state.itinerary || state.itinerary.id !== id) return;
      if (state.busy || state.asking) return scheduleRefetch();
      try {
        const view = (await api('GET', base())).data;
        // Only ever forward, and only for the itinerary still open (an own edit may have answered meanwhile): the
        // same version again would only redraw what is shown.
        const current = state.itinerary;
        const newer =
          view.version > current.version ||
          (view.version === current.version && (view.published_version ?? 0) > (current.published_version ?? 0));
        if (view.id === current?.id && newer) setItinerary(view);
      } catch (error) {
        sayRefusal(error);
      }
    }, 80);
  }

  function showPresence(message) {
    state.presence = message.presence || [];
    state.anonymous = message.anonymous || 0;
    const box = $('presence');
    box.replaceChildren(
      ...state.presence.map((p) => {
        const chip = document.createElement('span');
        chip.style.background = p.colour;
        chip.textContent = `${p.user.id === state.me?.user.id ? 'You' : p.user.name}${p.mode === 'editing' ? ' ✎' : ''}`;
        chip.title = `${p.user.name}: ${p.mode}`;
        return chip;
      }),
    );
    if (state.anonymous) box.append(` +${state.anonymous} viewing`);
  }

  // --- The agent -------------------------------------------------------------------------------------------------

  async function loadAgent() {
    const log = $('chat-log');
    log.replaceChildren();
    state.chat = [];
    try {
      const status = (await api('GET', `/studio/agent?organization_id=${state.itinerary.organization_id}`)).data;
      state.agent = status;
      $('chat-form').hidden = !status.configured;
      if (!status.configured) chatLine('note', status.how_to_configure);
    } catch (error) {
      sayRefusal(error);
    }
  }

  function chatLine(kind, text) {
    const p = document.createElement('p');
    p.className = kind;
    p.textContent = text;
    $('chat-log').append(p);
    $('chat-log').scrollTop = $('chat-log').scrollHeight;
  }

  $('chat-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = $('chat-input').value.trim();
    if (!text) return;
    if (state.agentRun) return;
    $('chat-input').value = '';
    state.chat.push({ role: 'user', content: text.slice(0, 8000) });
    chatLine('you', `You: ${text}`);
    // One answer at a time; leaving the itinerary stops it.
    const run = new AbortController();
    state.agentRun = run;
    const send = $('chat-form').querySelector('button');
    send.disabled = true;
    try {
      const res = await fetch(`${origin}/studio/agent`, {
        method: 'POST',
        signal: run.signal,
        headers: { Authorization: `Bearer ${state.token}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        // The server takes the last 50 messages of at most 8,000 characters each.
        body: JSON.stringify({
          organization_id: state.itinerary.organization_id,
          itinerary_id: state.itinerary.id,
          messages: state.chat.slice(-50),
        }),
      });
      if (!res.ok) throw new Refusal(res.status, await res.json());
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          onAgentEvent(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch (error) {
      if (!run.signal.aborted) sayRefusal(error);
    } finally {
      state.agentRun = null;
      send.disabled = false;
    }
  });

  function onAgentEvent(block) {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] || 'null');
    if (event === 'message') {
      state.chat.push({ role: 'assistant', content: String(data.content).slice(0, 8000) });
      chatLine('assistant', `Assistant: ${data.content}`);
    } else if (event === 'tool_call') {
      chatLine('tool', `… ${data.name}`);
    } else if (event === 'tool_result') {
      chatLine('tool', data.ok ? `✓ ${data.summary}` : `✗ ${data.error.message}`);
    } else if (event === 'error') {
      chatLine('error', data.message);
    }
  }

  start().catch(sayRefusal);
})();
