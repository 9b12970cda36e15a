// The embed page's script: a MapLibre map of the region's trails with the published overlay of a collection
// (or one itinerary, focused), and the elevation profile of the focused itinerary coloured by segment group.
// Credentials come from the page's own address (publishable_key and session_token, or share_token) and go with
// every request to this origin as headers, with the page's own credential (X-Embed-Token: it speaks for the site that
// framed the page, whose origin the page's requests do not carry; the page renews it before it ends). A session
// token lives 5 minutes: a minute before it ends, the page asks the site that frames it for a new one (postMessage,
// see docs/embed.md), and a request refused with 401 asks at once and is tried again once. A tile or data request
// that fails is said on the map. No secret ever reaches the browser.
(() => {
  const config = JSON.parse(document.getElementById('cairn-embed').textContent);
  const params = new URLSearchParams(location.search);
  const creds = {
    key: params.get('publishable_key'),
    session: params.get('session_token'),
    share: params.get('share_token'),
    sessionExpiresAt: config.sessionExpiresAt,
    embed: config.embedToken,
    embedExpiresAt: config.embedTokenExpiresAt,
  };
  const origin = location.origin;
  const state = { map: null, profileDrawn: false, renewals: 0, embedRenewals: 0, retried401: 0, errors: [], notices: [] };
  window.cairnEmbed = state;

  function headers() {
    const h = {};
    if (creds.share) {
      h['X-Share-Token'] = creds.share;
      return h;
    }
    if (creds.key) h['X-API-Key'] = creds.key;
    if (creds.embed) h['X-Embed-Token'] = creds.embed;
    if (creds.session) h['X-Session-Token'] = creds.session;
    return h;
  }

  // --- Session renewal (only when the page was given a session token) ---
  let renewing = null;
  let renewTimer = null;
  function scheduleRenewal() {
    if (!creds.session || !creds.sessionExpiresAt) return;
    clearTimeout(renewTimer);
    const lead = Math.min(60000, (creds.sessionExpiresAt - Date.now()) / 5);
    renewTimer = setTimeout(renewSession, Math.max(0, creds.sessionExpiresAt - lead - Date.now()));
  }
  function renewSession() {
    if (!creds.session) return Promise.resolve(false);
    if (renewing) return renewing;
    renewing = new Promise((resolve) => {
      const timer = setTimeout(() => {
        finish(false);
      }, 10000);
      function onMessage(event) {
        const data = event.data;
        if (event.source !== window.parent || !data || data.type !== 'cairn:session-token' || typeof data.token !== 'string') return;
        creds.session = data.token;
        creds.sessionExpiresAt = data.expires_at ? Date.parse(data.expires_at) : Date.now() + 300000;
        state.renewals++;
        finish(true);
      }
      function finish(ok) {
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
        renewing = null;
        scheduleRenewal();
        resolve(ok);
      }
      window.addEventListener('message', onMessage);
      window.parent.postMessage(
        { type: 'cairn:session-expiring', expires_at: new Date(creds.sessionExpiresAt || Date.now()).toISOString() },
        '*',
      );
    });
    return renewing;
  }

  // --- What went wrong, on the map (notice.js) ---
  const { reasonOf } = window.cairnNotice;
  const tell = (what, status, reason) =>
    state.notices.push(window.cairnNotice.tell(document.getElementById('map-notice'), what, status, reason));
  /** A refused answer as an error that knows its status and the server's sentence. */
  function refusal(res, path) {
    return reasonOf(res).then((reason) => {
      const error = new Error(`${path} answered ${res.status}`);
      error.status = res.status;
      error.reason = reason;
      throw error;
    });
  }

  /** A request to this origin with the credentials; a 401 renews the session and tries once more. */
  function send(path, method) {
    const go = () =>
      fetch(origin + path, { method: method || 'GET', headers: headers() }).catch((error) => {
        error.status = 0; // not reached: no answer
        throw error;
      });
    return go().then((res) => {
      if (res.status !== 401 || !creds.session) return res;
      state.retried401++;
      return renewSession().then(go);
    });
  }
  /** This origin's JSON; a refusal throws an error carrying its status and sentence. */
  function api(path, method) {
    return send(path, method).then((res) => (res.ok ? res.json() : refusal(res, path)));
  }
  /** A failed data request: recorded, and said on the map. */
  function dataFailed(error) {
    state.errors.push(String(error.message || error));
    if (typeof error.status === 'number') tell('load its itineraries', error.status, error.reason || '');
  }

  // --- The page's own credential: renewed before it ends, for the same site ---
  let embedTimer = null;
  function scheduleEmbedRenewal(delay) {
    if (!creds.embed || !creds.embedExpiresAt) return;
    clearTimeout(embedTimer);
    const lead = Math.min(120000, (creds.embedExpiresAt - Date.now()) / 5);
    embedTimer = setTimeout(renewEmbed, delay ?? Math.max(0, creds.embedExpiresAt - lead - Date.now()));
  }
  function renewEmbed() {
    api(config.embedTokenUrl, 'POST')
      .then((body) => {
        creds.embed = body.data.token;
        creds.embedExpiresAt = Date.parse(body.data.expires_at);
        state.embedRenewals++;
        scheduleEmbedRenewal();
      })
      .catch((error) => {
        state.errors.push(String(error.message || error));
        // A passing failure (the network) is tried again while the current credential lasts.
        if (error.status === 0 && Date.now() < creds.embedExpiresAt) scheduleEmbedRenewal(5000);
        else tell('renew its access to tiles and data', error.status || 0, error.reason || '');
      });
  }

  // --- Map ---
  const has = (layer) => config.layers.indexOf(layer) >= 0;
  const style = {
    version: 8,
    sources: {},
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } }],
  };
  if (has('trails')) {
    style.sources.trails = { type: 'vector', url: `${origin}/v1/tiles/trails.json` };
    style.layers.push(
      {
        id: 'trails-contours',
        type: 'line',
        source: 'trails',
        'source-layer': 'contours',
        paint: { 'line-color': '#c9b99a', 'line-width': ['case', ['==', ['get', 'index'], 1], 1.1, 0.5], 'line-opacity': 0.8 },
      },
      {
        id: 'trails-roads',
        type: 'line',
        source: 'trails',
        'source-layer': 'trails',
        filter: ['!', ['in', ['get', 'highway'], ['literal', ['path', 'footway', 'track', 'steps', 'bridleway', 'cycleway']]]],
        paint: { 'line-color': '#bdb6a8', 'line-width': ['interpolate', ['linear'], ['zoom'], 10, 0.8, 16, 3] },
      },
      {
        id: 'trails-paths',
        type: 'line',
        source: 'trails',
        'source-layer': 'trails',
        filter: ['in', ['get', 'highway'], ['literal', ['path', 'footway', 'track', 'steps', 'bridleway', 'cycleway']]],
        paint: {
          'line-color': ['match', ['get', 'sac_scale'], ['T3', 'T4'], '#c92a2a', ['T5', 'T6'], '#5f3dc4', '#8a5a2b'],
          'line-width': ['interpolate', ['linear'], ['zoom'], 10, 0.6, 16, 2],
          'line-dasharray': [3, 2],
        },
      },
      {
        id: 'trails-hazards',
        type: 'line',
        source: 'trails',
        'source-layer': 'hazards',
        paint: { 'line-color': '#e8590c', 'line-width': 2, 'line-opacity': 0.6 },
      },
      {
        id: 'trails-places',
        type: 'circle',
        source: 'trails',
        'source-layer': 'places',
        paint: { 'circle-radius': 3, 'circle-color': '#495057' },
      },
    );
  }

  // The CSP build of MapLibre runs its worker from a file of this origin (no blob: workers).
  maplibregl.setWorkerUrl(`${config.assets}/maplibre-gl-csp-worker.js`);
  const map = new maplibregl.Map({
    container: 'map',
    style: style,
    center: [0, 0],
    zoom: 1,
    attributionControl: { compact: true },
    transformRequest: (url) => (url.indexOf(`${origin}/`) === 0 ? { url: url, headers: headers() } : { url: url }),
  });
  state.map = map;
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  map.on('error', (event) => {
    const error = event?.error;
    const status = error?.status;
    state.errors.push(String(error?.message || error || 'map error'));
    // An expired session: renew, then ask for the sources' tiles again (once per renewal).
    if (status === 401 && creds.session) {
      state.retried401++;
      renewSession().then(reloadSources);
      return;
    }
    // A request of the map's own that failed (MapLibre's AJAXError: status, url, the answer's body).
    if (typeof status === 'number' && typeof error.url === 'string') {
      reasonOf(error.body).then((reason) => tell('load its tiles', status, reason));
    }
  });
  function reloadSources() {
    Object.keys(map.getStyle().sources).forEach((id) => {
      const source = map.getSource(id);
      if (source?.tiles && source.setTiles) source.setTiles(source.tiles);
      else if (source?.url && source.setUrl) source.setUrl(source.url);
    });
  }

  const overlayPath =
    config.itineraryId && !config.collectionId
      ? `/v1/tiles/overlays/itineraries/${config.itineraryId}.json`
      : `/v1/tiles/overlays/collections/${config.collectionId}.json`;

  map.on('load', () => {
    api(overlayPath)
      .then((overlay) => {
        Object.keys(overlay.sources).forEach((id) => {
          map.addSource(id, overlay.sources[id]);
        });
        overlay.layers
          .filter((layer) => has(layer['source-layer']))
          .forEach((layer) => {
            map.addLayer(layer);
          });
      })
      .catch(dataFailed);
    focusAndProfile().catch(dataFailed);
  });

  /** The focused itinerary (or the collection's first published one): fit the map to it, draw its profile. */
  function focusAndProfile() {
    const pick = config.itineraryId
      ? Promise.resolve(config.itineraryId)
      : api(`/v1/collections/${config.collectionId}/itineraries?limit=100`).then((page) => {
          const published = page.data.filter((i) => i.published_version !== null);
          return published.length ? published[0].id : null;
        });
    return pick.then((id) => {
      if (!id) return null;
      return api(`/v1/itineraries/${id}?version=published`).then((body) => {
        const view = body.data;
        fitTo(view);
        drawProfile(view);
        return view;
      });
    });
  }

  function fitTo(view) {
    let west = 180,
      south = 90,
      east = -180,
      north = -90;
    view.segments.forEach((s) => {
      s.geometry.coordinates.forEach((c) => {
        west = Math.min(west, c[0]);
        east = Math.max(east, c[0]);
        south = Math.min(south, c[1]);
        north = Math.max(north, c[1]);
      });
    });
    if (west > east) return;
    map.resize(); // the frame may have been laid out after the map was made
    map.fitBounds(
      [
        [west, south],
        [east, north],
      ],
      { padding: 40, duration: 0, maxZoom: 16 },
    );
  }

  // --- Elevation profile (profile.js) ---
  function drawProfile(view) {
    document.getElementById('profile-stats').textContent =
      `${view.name} · ${(view.distance / 1000).toFixed(1)} km · ↑ ${Math.round(view.ascent)} m · ↓ ${Math.round(view.descent)} m`;
    if (window.cairnProfile.draw(document.getElementById('profile-canvas'), view)) state.profileDrawn = true;
  }

  // Members of an organization that allows it may open the planner in this frame (they sign in there).
  if (config.plannerUrl && creds.key) {
    const link = document.getElementById('edit-in-planner');
    link.hidden = false;
    link.addEventListener('click', () => {
      const query = new URLSearchParams({ publishable_key: creds.key });
      if (creds.session) query.set('session_token', creds.session);
      link.href = `${config.plannerUrl}?${query}${config.itineraryId ? `#itinerary=${config.itineraryId}` : ''}`;
    });
  }

  scheduleRenewal();
  scheduleEmbedRenewal();
})();
