// Brolly web app: plain JavaScript, no build step. Every place name, description and message is
// inserted with textContent, never as HTML.
'use strict';

(() => {
  const LAST_KEY = 'brolly.last.v1';
  const UNITS_KEY = 'brolly.units';
  const FRESH_MS = 10 * 60 * 1000;
  const FETCH_TIMEOUT_MS = 15000;
  const US_BOUNDS = [[24.396308, -124.848974], [49.384358, -66.885444]];
  const PLACE_ZOOM = 11;

  const $ = (id) => document.getElementById(id);
  const region = $('weather');
  const mapEl = $('map');

  const state = {
    units: ['C', 'F', 'K'].includes(localStorage.getItem(UNITS_KEY)) ? localStorage.getItem(UNITS_KEY) : 'C',
    doc: null,          // the weather shown (metric, as the API sent it)
    target: null,       // { lat, lon, name?, region?, country?, here: bool } the weather is for
    location: null,     // { lat, lon } this visit's position, when the browser gave one
    geolocation: 'pending',
    fetchCount: 0,      // API calls made by this page (for tests: a unit switch makes none)
    seq: 0,
    retry: null,        // what the Retry button does
    repollTimer: null,
  };
  window.brolly = state;

  // ---------- errors ----------

  class AppError extends Error {
    constructor(kind, detail) { super(detail || kind); this.kind = kind; this.detail = detail || ''; }
  }

  const MESSAGES = {
    offline: ['No connection', 'Brolly could not reach the weather service. Check your connection and try again.'],
    timeout: ['The weather service is taking too long', 'It did not answer in time. Try again in a moment.'],
    unreadable: ['The weather data could not be read', 'The weather service sent something Brolly does not understand. Try again later.'],
    'not-found': ['Place not found', 'No place matched. Check the spelling or try a nearby city.'],
    'permission-denied': ['Location access is blocked', 'Brolly needs your permission to show the weather where you are. Allow location access in your browser\u2019s settings, or search for a city.'],
    'location-unavailable': ['Your location could not be found', 'Your device could not tell where you are. Search for a city, or try again.'],
    provider: ['The weather service is unavailable', 'It reported a problem. Try again later.'],
  };

  function errorKindForProblem(status, problem) {
    const code = problem && problem.code;
    if (code === 'timeout' || status === 504) return 'timeout';
    if (code === 'offline') return 'offline';
    if (code === 'not-found' || status === 404) return 'not-found';
    if (code === 'unreadable') return 'unreadable';
    return 'provider';
  }

  async function api(path) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), FETCH_TIMEOUT_MS);
    state.fetchCount += 1;
    let response, text;
    try {
      response = await fetch(path, { signal: controller.signal, headers: { Accept: 'application/json' } });
      text = await response.text();
    } catch (e) {
      throw new AppError(controller.signal.aborted ? 'timeout' : 'offline');
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) {
      let problem = null;
      try { problem = JSON.parse(text); } catch (_) { /* not a problem document */ }
      throw new AppError(errorKindForProblem(response.status, problem), problem && problem.detail);
    }
    try {
      return JSON.parse(text);
    } catch (_) {
      throw new AppError('unreadable');
    }
  }

  function isWeatherDocument(doc) {
    return doc && doc.place && doc.current && typeof doc.current.temperature === 'number' &&
      Array.isArray(doc.days) && Array.isArray(doc.hours) && doc.source && doc.current.condition;
  }

  // ---------- state of the weather region ----------

  function setState(name, opts = {}) {
    region.dataset.state = name;
    region.setAttribute('aria-busy', String(name === 'loading'));
    if (opts.error) region.dataset.error = opts.error; else delete region.dataset.error;
    $('loading').hidden = name !== 'loading';
    $('empty').hidden = name !== 'empty';
    $('error').hidden = name !== 'error';
    $('card').hidden = name !== 'ready';
    if (name !== 'ready') hideNotice();
    if (name === 'empty' || name === 'error') {
      const [title, detail] = MESSAGES[opts.error] || ['Something went wrong', ''];
      const prefix = name === 'empty' ? 'empty' : 'error';
      $(prefix + '-title').textContent = opts.title || title;
      $(prefix + '-detail').textContent = opts.detail || detail;
      $('permission-help').hidden = opts.error !== 'permission-denied';
      if (name === 'error') {
        $('error').appendChild($('permission-help'));
      } else {
        $('empty').insertBefore($('permission-help'), $('empty').querySelector('.hint'));
      }
    }
  }

  function showNotice(text, withRetry) {
    const notice = $('notice');
    notice.textContent = text;
    if (withRetry) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'ghost';
      button.dataset.testid = 'notice-retry';
      button.textContent = 'Retry';
      button.style.marginLeft = '.5rem';
      button.addEventListener('click', () => state.retry && state.retry());
      notice.append(button);
    }
    notice.hidden = false;
  }

  function hideNotice() { $('notice').hidden = true; $('notice').textContent = ''; }

  // ---------- units ----------

  const temp = (c) => state.units === 'F' ? c * 9 / 5 + 32 : state.units === 'K' ? c + 273.15 : c;
  const tempText = (c) => state.units === 'K' ? `${Math.round(temp(c))} K` : `${Math.round(temp(c))}°${state.units}`;
  const shortTemp = (c) => state.units === 'K' ? `${Math.round(temp(c))}` : `${Math.round(temp(c))}°`;
  const speedText = (ms) => state.units === 'F' ? `${(ms * 2.236936).toFixed(1)} mph` : `${ms.toFixed(1)} m/s`;
  const amountText = (mm) => state.units === 'F' ? `${(mm / 25.4).toFixed(2)} in` : `${mm.toFixed(1)} mm`;

  function setUnits(unit) {
    state.units = unit;
    localStorage.setItem(UNITS_KEY, unit);
    document.querySelectorAll('.units button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.unit === unit)));
    if (state.viewing && region.dataset.state === 'ready') render(state.viewing.weather, { keepNotice: true, historyNote: state.viewing.note });
    else if (state.doc && region.dataset.state === 'ready') render(state.doc, { keepNotice: true });
  }

  // ---------- icons (our own drawings; constant markup, no data inside) ----------

  const SUN = '<circle cx="32" cy="32" r="11" fill="#f59e0b"/><g stroke="#f59e0b" stroke-width="4" stroke-linecap="round"><path d="M32 6v7M32 51v7M6 32h7M51 32h7M13.6 13.6l5 5M45.4 45.4l5 5M13.6 50.4l5-5M45.4 18.6l5-5"/></g>';
  const MOON = '<path d="M40 10a22 22 0 1 0 14 34A18 18 0 0 1 40 10z" fill="#cbd5e1"/>';
  const CLOUD = (fill = '#94a3b8', y = 0) => `<path transform="translate(0 ${y})" d="M20 50h26a11 11 0 0 0 0-22 15 15 0 0 0-28.5 4A9 9 0 0 0 20 50z" fill="${fill}"/>`;
  const DROPS = '<g stroke="#3b82f6" stroke-width="3.5" stroke-linecap="round"><path d="M24 52l-3 7M34 52l-3 7M44 52l-3 7"/></g>';
  const ICONS = {
    'clear-day': SUN,
    'clear-night': MOON,
    'partly-cloudy-day': `<g transform="translate(-8 -8) scale(.8)">${SUN}</g>${CLOUD('#94a3b8', 6)}`,
    'partly-cloudy-night': `<g transform="translate(-6 -8) scale(.8)">${MOON}</g>${CLOUD('#94a3b8', 6)}`,
    cloudy: `${CLOUD('#cbd5e1', -8)}${CLOUD('#94a3b8', 2)}`,
    fog: `${CLOUD('#94a3b8', -8)}<g stroke="#94a3b8" stroke-width="4" stroke-linecap="round"><path d="M12 50h40M18 58h30"/></g>`,
    drizzle: `${CLOUD('#94a3b8', -6)}<g stroke="#60a5fa" stroke-width="3" stroke-linecap="round"><path d="M26 52v4M38 52v4"/></g>`,
    rain: `${CLOUD('#64748b', -6)}${DROPS}`,
    sleet: `${CLOUD('#64748b', -6)}<g stroke="#60a5fa" stroke-width="3.5" stroke-linecap="round"><path d="M24 52l-3 7M44 52l-3 7"/></g><circle cx="33" cy="56" r="3" fill="#e2e8f0" stroke="#64748b"/>`,
    snow: `${CLOUD('#94a3b8', -6)}<g fill="#e2e8f0" stroke="#64748b"><circle cx="23" cy="55" r="3"/><circle cx="33" cy="59" r="3"/><circle cx="43" cy="55" r="3"/></g>`,
    thunderstorm: `${CLOUD('#475569', -6)}<path d="M34 44l-8 11h7l-4 9 11-13h-7l4-7z" fill="#facc15"/>`,
  };

  function setIcon(el, icon, label) {
    el.innerHTML = `<svg viewBox="0 0 64 64" aria-hidden="true">${ICONS[icon] || ICONS.cloudy}</svg>`;
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', label);
  }

  // ---------- rendering ----------

  const COMPASS = ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'];
  const COMPASS_SHORT = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];
  const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

  function ageMs(doc) {
    const t = Date.parse(doc.source.fetchedAt);
    return Number.isFinite(t) ? Math.max(0, Date.now() - t) : 0;
  }

  function ageText(ms) {
    const m = Math.floor(ms / 60000);
    if (m < 1) return 'Updated just now';
    if (m < 60) return `Updated ${m} minute${m === 1 ? '' : 's'} ago`;
    const h = Math.floor(m / 60);
    if (h < 48) return `Updated ${h} hour${h === 1 ? '' : 's'} ago`;
    return `Updated ${Math.floor(h / 24)} days ago`;
  }

  function isStale(doc) { return Boolean(doc.source.stale) || ageMs(doc) > FRESH_MS || Boolean(state.forceStale); }

  function updateAge() {
    const doc = state.viewing ? state.viewing.weather : state.doc;
    if (!doc || region.dataset.state !== 'ready') return;
    $('updated').textContent = ageText(ageMs(doc));
    const slot = $('stale-slot');
    const stale = isStale(doc);
    const marker = slot.querySelector('[data-testid="stale"]');
    if (stale && !marker) {
      const span = document.createElement('span');
      span.className = 'stale';
      span.dataset.testid = 'stale';
      span.textContent = 'Stale';
      span.title = 'This weather is not current; Brolly will refresh it when it can.';
      slot.append(span);
    } else if (!stale && marker) {
      marker.remove();
    }
  }

  function text(id, value) { $(id).textContent = value; }

  function render(doc, opts = {}) {
    const c = doc.current;
    setState('ready');
    if (!opts.keepNotice) hideNotice();
    text('place-name', doc.place.name || 'Unknown place');
    text('address', doc.addressLine || [doc.place.region, doc.place.country].filter((s) => s && s !== doc.place.name).join(', ') ||
      `${doc.place.latitude.toFixed(3)}, ${doc.place.longitude.toFixed(3)}`);
    $('history-banner').hidden = !opts.historyNote;
    $('history-banner').textContent = opts.historyNote || '';
    $('save-place').hidden = Boolean(opts.historyNote);
    setIcon($('now-icon'), c.condition.icon, c.condition.description);
    text('temperature', tempText(c.temperature));
    text('description', c.condition.description);
    text('feels', typeof c.feelsLike === 'number' ? `Feels like ${tempText(c.feelsLike)}` : 'Feels like —');
    text('minmax', `Min ${tempText(c.temperatureMin)} · Max ${tempText(c.temperatureMax)}`);
    text('humidity', typeof c.humidity === 'number' ? `${Math.round(c.humidity)}%` : '—');
    text('pressure', typeof c.pressure === 'number' ? `${Math.round(c.pressure)} hPa` : '—');
    if (typeof c.windSpeed === 'number') {
      const dir = typeof c.windDirection === 'number' ? c.windDirection : null;
      const i = dir === null ? null : Math.round((((dir % 360) + 360) % 360) / 45) % 8;
      $('wind-arrow').style.transform = `rotate(${dir === null ? 0 : (dir + 180) % 360}deg)`;
      $('wind-arrow').hidden = dir === null;
      text('wind-text', `${speedText(c.windSpeed)}${i === null ? '' : ' ' + COMPASS_SHORT[i]}`);
      $('wind').setAttribute('aria-label', `${speedText(c.windSpeed)}${i === null ? '' : ' from the ' + COMPASS[i]}`);
    } else {
      text('wind-text', '—');
      $('wind-arrow').hidden = true;
    }
    text('clouds', typeof c.clouds === 'number' ? `${Math.round(c.clouds)}%` : '—');
    text('rain', typeof c.rain === 'number' ? amountText(c.rain) : amountText(0));
    text('snow', typeof c.snow === 'number' ? amountText(c.snow) : amountText(0));

    const hours = $('hours');
    hours.replaceChildren(...doc.hours.slice(0, 24).map((h) => {
      const li = document.createElement('li');
      const time = document.createElement('div');
      time.textContent = String(h.time).slice(11, 16);
      const icon = document.createElement('div');
      icon.className = 'mini';
      setIcon(icon, h.condition.icon, h.condition.description);
      const t = document.createElement('div');
      t.textContent = shortTemp(h.temperature);
      li.append(time, icon, t);
      if (typeof h.precipitationProbability === 'number' && h.precipitationProbability > 0) {
        const p = document.createElement('div');
        p.className = 'dlow';
        p.textContent = `${Math.round(h.precipitationProbability)}%`;
        li.append(p);
      }
      return li;
    }));

    const days = $('days');
    days.replaceChildren(...doc.days.slice(0, 7).map((d, index) => {
      const li = document.createElement('li');
      const name = document.createElement('span');
      name.className = 'dname';
      const date = new Date(`${d.date}T12:00:00Z`);
      // A history snapshot's first day is the day of the lookup, not today.
      name.textContent = index === 0 && !opts.historyNote ? 'Today' : WEEKDAYS[date.getUTCDay()] || d.date;
      name.title = d.date;
      const icon = document.createElement('span');
      icon.className = 'mini';
      setIcon(icon, d.condition.icon, d.condition.description);
      const desc = document.createElement('span');
      desc.className = 'ddesc';
      desc.textContent = d.condition.description;
      const range = document.createElement('span');
      range.className = 'drange';
      const low = document.createElement('span');
      low.className = 'dlow';
      low.textContent = shortTemp(d.temperatureMin);
      range.append(low, ` / ${shortTemp(d.temperatureMax)}`);
      li.append(name, icon, desc, range);
      return li;
    }));
    updateAge();
  }

  // ---------- map ----------

  let map = null;
  let marker = null;

  function syncMap() {
    if (!map) return;
    const c = map.getCenter();
    mapEl.dataset.lat = c.lat.toFixed(4);
    mapEl.dataset.lon = c.lng.toFixed(4);
    mapEl.dataset.zoom = String(map.getZoom());
  }

  function initMap() {
    if (!window.L) {
      const p = document.createElement('p');
      p.className = 'map-fallback';
      p.textContent = 'The map is unavailable on this server.';
      mapEl.append(p);
      return;
    }
    map = window.L.map(mapEl, { zoomControl: true, attributionControl: true, fadeAnimation: false, zoomAnimation: false });
    window.L.tileLayer('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', {
      maxZoom: 19,
      attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    }).addTo(map);
    map.on('moveend zoomend', syncMap);
    state.map = map;
  }

  function showUnitedStates() {
    mapEl.dataset.view = 'us';
    mapEl.setAttribute('aria-label', 'Map of the contiguous United States');
    if (map) { map.fitBounds(US_BOUNDS); syncMap(); }
  }

  function showPlace(lat, lon, label) {
    mapEl.dataset.view = 'place';
    mapEl.setAttribute('aria-label', `Map of ${label || 'your location'}`);
    if (map) { map.setView([lat, lon], PLACE_ZOOM); syncMap(); } else {
      mapEl.dataset.lat = lat.toFixed(4); mapEl.dataset.lon = lon.toFixed(4); mapEl.dataset.zoom = String(PLACE_ZOOM);
    }
  }

  function setMarker(lat, lon) {
    mapEl.dataset.marker = 'shown';
    if (!map) return;
    if (marker) marker.setLatLng([lat, lon]);
    else {
      marker = window.L.circleMarker([lat, lon], { radius: 9, color: '#ffffff', weight: 3, fillColor: '#1d4ed8', fillOpacity: 1 })
        .addTo(map).bindTooltip('You are here');
    }
  }

  function removeMarker() {
    mapEl.dataset.marker = 'hidden';
    if (marker) { marker.remove(); marker = null; }
  }

  // ---------- the device's memory ----------

  function saveLast() {
    try {
      localStorage.setItem(LAST_KEY, JSON.stringify({ doc: state.doc, target: state.target, savedAt: Date.now() }));
    } catch (_) { /* storage full or disabled: nothing to keep */ }
  }

  function loadLast() {
    try {
      const last = JSON.parse(localStorage.getItem(LAST_KEY) || 'null');
      if (last && isWeatherDocument(last.doc) && last.target && Number.isFinite(last.target.lat)) return last;
    } catch (_) { /* unreadable: start afresh */ }
    return null;
  }

  // ---------- loading weather ----------

  const sameTarget = (a, b) => a && b && Math.abs(a.lat - b.lat) < 0.01 && Math.abs(a.lon - b.lon) < 0.01;

  async function loadWeather(target, opts = {}) {
    const seq = ++state.seq;
    const showing = state.doc && region.dataset.state === 'ready';
    const keep = showing && (opts.quiet || sameTarget(state.target, target));
    if (!keep) setState('loading');
    state.retry = () => loadWeather(target);
    clearTimeout(state.repollTimer);
    try {
      await deviceReady;  // so that this lookup lands in this browser's history
      const doc = await api(`/api/v1/weather?lat=${target.lat.toFixed(4)}&lon=${target.lon.toFixed(4)}`);
      if (seq !== state.seq) return;
      if (!isWeatherDocument(doc)) throw new AppError('unreadable');
      if (target.name) {
        doc.place.name = target.name;
        doc.place.region = target.region || null;
        doc.place.country = target.country || '';
      }
      if (state.doc && sameTarget(state.target, target) && state.doc.addressLine) doc.addressLine = state.doc.addressLine;
      state.doc = doc;
      state.target = target;
      state.viewing = null;
      state.forceStale = false;
      saveLast();
      render(doc);
      if (target.here) loadAddress(target);
      loadNews(target);
      setTimeout(loadHistory, 1200);
      // A stale answer is being refreshed on the server: look again shortly.
      if (doc.source.stale && !opts.repolled) {
        state.repollTimer = setTimeout(() => loadWeather(target, { quiet: true, repolled: true }), 4000);
      }
    } catch (e) {
      if (seq !== state.seq) return;
      const kind = e instanceof AppError ? e.kind : 'unreadable';
      if (keep) {
        state.forceStale = true;
        render(state.doc, { keepNotice: true });
        const [title] = MESSAGES[kind] || MESSAGES.provider;
        showNotice(`${title}. Showing the weather from ${ageText(ageMs(state.doc)).replace('Updated ', '')}.`, true);
      } else {
        setState('error', { error: kind, detail: e.detail || undefined });
      }
    }
  }

  function refresh() {
    if (state.target) loadWeather(state.target, { quiet: true });
  }

  // ---------- location ----------

  function locate(userAsked) {
    if (!('geolocation' in navigator)) return locationFailed({ code: 2 }, userAsked);
    state.retry = () => locate(true);
    navigator.geolocation.getCurrentPosition((pos) => {
      const lat = pos.coords.latitude;
      const lon = pos.coords.longitude;
      state.geolocation = 'granted';
      state.location = { lat, lon };
      setMarker(lat, lon);
      showPlace(lat, lon, 'your location');
      // On a later visit the last weather stays on screen until the new answer arrives, and
      // stays (marked stale) if none can.
      loadWeather({ lat, lon, here: true }, { quiet: Boolean(state.doc) && !userAsked });
    }, (err) => locationFailed(err, userAsked), { enableHighAccuracy: false, timeout: 10000, maximumAge: 300000 });
  }

  function locationFailed(err, userAsked) {
    const denied = err && err.code === 1;
    state.geolocation = denied ? 'denied' : 'unavailable';
    removeMarker();
    const kind = denied ? 'permission-denied' : 'location-unavailable';
    const why = err && err.code === 3 ? 'Finding your location took too long. Search for a city, or try again.' : undefined;
    if (state.doc && !userAsked) {
      // A later visit: keep the map and the weather where they were, and refresh that place.
      showNotice(denied ? 'Location access is off: showing your last place.' : 'Your location is unavailable: showing your last place.');
      loadWeather(state.target, { quiet: true }).then(() => {
        if (region.dataset.state === 'ready' && $('notice').hidden) {
          showNotice(denied ? 'Location access is off: showing your last place.' : 'Your location is unavailable: showing your last place.');
        }
      });
      return;
    }
    if (userAsked) {
      setState('error', { error: kind, detail: why });
      state.retry = () => locate(true);
      return;
    }
    showUnitedStates();
    setState('empty', { error: kind, detail: why });
  }

  // ---------- search ----------

  const input = $('search');
  const list = $('search-results');
  let results = [];
  let active = -1;
  let searchTimer = null;
  let searchSeq = 0;

  function closeResults() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function showResults(places) {
    results = places;
    active = -1;
    list.replaceChildren(...places.map((p, i) => {
      const li = document.createElement('li');
      li.id = `result-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.dataset.testid = 'search-result';
      const name = document.createElement('strong');
      name.textContent = p.name;
      const sub = document.createElement('span');
      sub.className = 'sub';
      sub.textContent = [p.region, p.country].filter(Boolean).join(', ') + ` · ${p.latitude.toFixed(2)}, ${p.longitude.toFixed(2)}`;
      li.append(name, sub);
      li.addEventListener('mousedown', (e) => { e.preventDefault(); choose(p); });
      return li;
    }));
    list.hidden = places.length === 0;
    input.setAttribute('aria-expanded', String(places.length > 0));
  }

  async function searchPlaces(q) {
    return api(`/api/v1/places/search?q=${encodeURIComponent(q)}`);
  }

  function choose(p) {
    closeResults();
    input.value = p.name;
    const target = { lat: p.latitude, lon: p.longitude, name: p.name, region: p.region, country: p.country, here: false };
    showPlace(p.latitude, p.longitude, p.name);
    loadWeather(target);
  }

  input.addEventListener('input', () => {
    clearTimeout(searchTimer);
    const q = input.value.trim();
    if (q.length < 2) { closeResults(); return; }
    searchTimer = setTimeout(async () => {
      const seq = ++searchSeq;
      try {
        const places = await searchPlaces(q);
        if (seq === searchSeq && input.value.trim() === q) showResults(Array.isArray(places) ? places : []);
      } catch (_) { if (seq === searchSeq) closeResults(); }
    }, 250);
  });

  input.addEventListener('keydown', (e) => {
    if (list.hidden) return;
    const items = list.querySelectorAll('li');
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      active = (active + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      items.forEach((li, i) => li.setAttribute('aria-selected', String(i === active)));
      input.setAttribute('aria-activedescendant', items[active].id);
    } else if (e.key === 'Escape') {
      closeResults();
    }
  });

  input.addEventListener('blur', () => setTimeout(closeResults, 150));

  $('search-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    clearTimeout(searchTimer);
    const q = input.value.trim();
    if (!q) return;
    if (!list.hidden && active >= 0 && results[active]) { choose(results[active]); return; }
    const seq = ++searchSeq;
    closeResults();
    setState('loading');
    state.retry = () => $('search-form').requestSubmit();
    try {
      const places = await searchPlaces(q);
      if (seq !== searchSeq) return;
      if (!Array.isArray(places) || places.length === 0) {
        setState('error', { error: 'not-found', detail: `No place called \u201c${q}\u201d was found. Check the spelling or try a nearby city.` });
        return;
      }
      choose(places[0]);
    } catch (err) {
      if (seq !== searchSeq) return;
      setState('error', { error: err instanceof AppError ? err.kind : 'unreadable', detail: err.detail || undefined });
    }
  });


  // ---------- address, news, saved places, history ----------

  const PLACES_KEY = 'brolly.places.v1';
  let deviceReady = Promise.resolve();
  const HISTORY_KEY = 'brolly.history.v1';

  async function send(method, path, body) {
    state.fetchCount += 1;
    let response, textBody;
    try {
      response = await fetch(path, {
        method, headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      textBody = await response.text();
    } catch (_) {
      throw new AppError('offline');
    }
    let data = null;
    try { data = textBody ? JSON.parse(textBody) : null; } catch (_) { data = null; }
    if (!response.ok) throw new AppError(errorKindForProblem(response.status, data), data && data.detail);
    return data;
  }

  const store = {
    get(key, fallback) { try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (_) { return fallback; } },
    set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* full: keep going */ } },
  };

  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === 'dataset') Object.assign(node.dataset, v);
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('aria') || k === 'role' || k === 'title' || k === 'type') node.setAttribute(k.replace(/^aria([A-Z])/, (m, c) => 'aria-' + c.toLowerCase()), v);
      else node[k] = v;
    }
    node.append(...children);
    return node;
  }

  const localTime = (iso) => {
    const d = new Date(iso);
    return Number.isFinite(d.getTime()) ? d.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }) : iso;
  };

  async function loadAddress(target) {
    try {
      const a = await api(`/api/v1/address?lat=${target.lat.toFixed(5)}&lon=${target.lon.toFixed(5)}`);
      if (!a || typeof a.display !== 'string' || !sameTarget(state.target, target) || !state.doc) return;
      const street = [a.street, a.houseNumber].filter(Boolean).join(' ');
      state.doc.addressLine = [street, a.city, a.country].filter(Boolean).join(', ') || a.display;
      saveLast();
      if (!state.viewing && region.dataset.state === 'ready') text('address', state.doc.addressLine);
    } catch (_) { /* the region and country stay */ }
  }

  // News

  async function loadNews(target) {
    const section = $('news');
    section.hidden = false;
    $('news-status').textContent = 'Loading today\u2019s news…';
    try {
      const data = await api(`/api/v1/news?lat=${target.lat.toFixed(4)}&lon=${target.lon.toFixed(4)}`);
      if (!sameTarget(state.target, target)) return;
      const items = (data && Array.isArray(data.items) ? data.items : []).slice(0, 10);
      $('news-place').textContent = data && data.place ? `· ${data.place}` : '';
      $('news-status').textContent = items.length ? '' : 'No news published today for this place yet.';
      $('news-list').replaceChildren(...items.map((item) => {
        const safe = /^https?:\/\//i.test(item.url || '');
        const title = safe ? el('a', { href: item.url, text: item.title, rel: 'noopener noreferrer', target: '_blank' }) : el('strong', { text: item.title });
        const li = el('li', { dataset: { testid: 'news-item' } }, el('time', { text: String(item.publishedAt).slice(11, 16), dateTime: item.publishedAt }), title);
        if (item.summary) li.append(el('p', { text: item.summary }));
        return li;
      }));
    } catch (e) {
      $('news-status').textContent = e.kind === 'offline' ? 'News needs a connection.' : 'News is unavailable right now.';
    }
  }

  // Saved places

  async function loadPlaces() {
    try {
      const list = await send('GET', '/api/v1/places');
      store.set(PLACES_KEY, list);
      renderPlaces(list);
    } catch (_) {
      renderPlaces(store.get(PLACES_KEY, []));
    }
  }

  function renderPlaces(list) {
    $('places-empty').hidden = list.length > 0;
    $('places-list').replaceChildren(...list.map((p, i) => {
      const label = p.displayName;
      const sub = [p.customName ? p.name : null, p.region, p.country].filter(Boolean).join(', ');
      const open = el('button', { type: 'button', className: 'open', dataset: { testid: 'place-open' } }, label, el('small', { text: sub }));
      open.addEventListener('click', () => openPlace(p));
      const rename = el('button', { type: 'button', className: 'ghost', text: '✎', ariaLabel: `Rename ${label}`, dataset: { testid: 'place-rename' } });
      rename.addEventListener('click', () => renamePlace(p));
      const up = el('button', { type: 'button', className: 'ghost', text: '↑', ariaLabel: `Move ${label} up`, disabled: i === 0, dataset: { testid: 'place-up' } });
      up.addEventListener('click', () => movePlace(list, i, -1));
      const down = el('button', { type: 'button', className: 'ghost', text: '↓', ariaLabel: `Move ${label} down`, disabled: i === list.length - 1, dataset: { testid: 'place-down' } });
      down.addEventListener('click', () => movePlace(list, i, 1));
      const remove = el('button', { type: 'button', className: 'ghost', text: '×', ariaLabel: `Remove ${label}`, dataset: { testid: 'place-remove' } });
      remove.addEventListener('click', () => removePlace(p));
      const li = el('li', { dataset: { testid: 'place-item', id: String(p.id) } }, open, rename, up, down, remove);
      if (state.target && sameTarget(state.target, { lat: p.latitude, lon: p.longitude })) li.className = 'current';
      return li;
    }));
  }

  function openPlace(p) {
    const target = { lat: p.latitude, lon: p.longitude, name: p.displayName, region: p.region, country: p.country, here: false };
    showPlace(p.latitude, p.longitude, p.displayName);
    loadWeather(target).then(() => renderPlaces(store.get(PLACES_KEY, [])));
  }

  async function savePlace() {
    const doc = state.doc;
    if (!doc || !state.target) return;
    try {
      await send('POST', '/api/v1/places', {
        latitude: state.target.lat, longitude: state.target.lon, name: doc.place.name, region: doc.place.region || null,
        country: doc.place.country || '', countryCode: doc.place.countryCode || null, timezone: doc.place.timezone || null,
      });
      showNotice(`Saved ${doc.place.name}.`);
      loadPlaces();
    } catch (e) {
      showNotice(e.kind === 'offline' ? 'Saving needs a connection.' : `Could not save: ${e.detail || e.kind}`);
    }
  }

  async function renamePlace(p) {
    const name = window.prompt(`Custom name for ${p.name} (empty to clear)`, p.customName || '');
    if (name === null) return;
    try {
      await send('PATCH', `/api/v1/places/${p.id}`, { customName: name.trim() || null });
      loadPlaces();
    } catch (e) { showNotice(`Could not rename: ${e.detail || e.kind}`); }
  }

  async function movePlace(list, index, delta) {
    const ids = list.map((p) => p.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + delta, 0, moved);
    try {
      const updated = await send('PUT', '/api/v1/places/order', { ids });
      store.set(PLACES_KEY, updated);
      renderPlaces(updated);
      const buttons = $('places-list').querySelectorAll(delta < 0 ? '[data-testid=place-up]' : '[data-testid=place-down]');
      const focus = buttons[index + delta];
      if (focus && !focus.disabled) focus.focus();
    } catch (e) { showNotice(`Could not reorder: ${e.detail || e.kind}`); }
  }

  async function removePlace(p) {
    try {
      await send('DELETE', `/api/v1/places/${p.id}`);
      loadPlaces();
    } catch (e) { showNotice(`Could not remove: ${e.detail || e.kind}`); }
  }

  // History (kept in the browser too, so it can be read with no network)

  async function loadHistory() {
    const cached = store.get(HISTORY_KEY, { items: [], details: {} });
    try {
      const data = await send('GET', '/api/v1/history?limit=50');
      const items = data && Array.isArray(data.items) ? data.items : [];
      const details = {};
      for (const item of items.slice(0, 20)) if (cached.details[item.id]) details[item.id] = cached.details[item.id];
      store.set(HISTORY_KEY, { items, details });
      $('history-status').textContent = items.length ? '' : 'Nothing looked up yet.';
      renderHistory(items);
      // Keep the most recent entries whole, so they open offline.
      for (const item of items.slice(0, 10)) {
        if (details[item.id]) continue;
        try {
          const full = await send('GET', `/api/v1/history/${item.id}`);
          const now = store.get(HISTORY_KEY, { items: [], details: {} });
          now.details[item.id] = full;
          store.set(HISTORY_KEY, now);
        } catch (_) { break; }
      }
    } catch (_) {
      $('history-status').textContent = cached.items.length ? 'Offline: showing the history saved on this device.' : 'History needs a connection the first time.';
      renderHistory(cached.items);
    }
  }

  function renderHistory(items) {
    $('history-clear').hidden = items.length === 0;
    $('history-list').replaceChildren(...items.map((item) => {
      const summary = `${tempText(item.temperature)}, ${item.condition ? item.condition.description : ''}`;
      const where = item.address && item.address.display ? item.address.display : `${item.latitude.toFixed(3)}, ${item.longitude.toFixed(3)}`;
      const open = el('button', { type: 'button', className: 'open', dataset: { testid: 'history-open' } },
        `${item.placeName} · ${summary}`, el('small', { text: `${localTime(item.createdAt)} · ${where}` }));
      open.addEventListener('click', () => openHistory(item));
      const remove = el('button', { type: 'button', className: 'ghost', text: '×', ariaLabel: `Delete ${item.placeName} from history`, dataset: { testid: 'history-delete' } });
      remove.addEventListener('click', () => deleteHistory(item));
      return el('li', { dataset: { testid: 'history-item', id: String(item.id) } }, open, remove);
    }));
  }

  async function openHistory(item) {
    const cached = store.get(HISTORY_KEY, { items: [], details: {} });
    let full = cached.details[item.id];
    if (!full) {
      try { full = await send('GET', `/api/v1/history/${item.id}`); } catch (_) {
        showNotice('This entry cannot be opened without a connection.');
        return;
      }
    }
    if (!full || !isWeatherDocument(full.weather)) return;
    if (full.address && full.address.display) full.weather.addressLine = full.address.display;
    state.viewing = { weather: full.weather, note: `From your history: looked up ${localTime(full.createdAt)}.` };
    render(full.weather, { historyNote: state.viewing.note });
    showPlace(full.latitude, full.longitude, full.placeName);
    region.focus();
  }

  async function deleteHistory(item) {
    try {
      await send('DELETE', `/api/v1/history/${item.id}`);
      loadHistory();
    } catch (e) { showNotice(`Could not delete: ${e.detail || e.kind}`); }
  }

  $('history-clear').addEventListener('click', async () => {
    if (!window.confirm('Delete your whole history?')) return;
    try {
      await send('DELETE', '/api/v1/history');
      store.set(HISTORY_KEY, { items: [], details: {} });
      loadHistory();
    } catch (e) { showNotice(`Could not clear: ${e.detail || e.kind}`); }
  });
  $('save-place').addEventListener('click', savePlace);

  // ---------- start ----------

  document.querySelectorAll('.units button').forEach((b) => b.addEventListener('click', () => setUnits(b.dataset.unit)));
  $('retry').addEventListener('click', () => state.retry && state.retry());
  $('locate').addEventListener('click', () => locate(true));
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') refresh(); });
  window.addEventListener('online', refresh);
  setInterval(updateAge, 30000);

  initMap();
  setUnits(state.units);
  const last = loadLast();
  if (last) {
    state.doc = last.doc;
    state.target = last.target;
    showPlace(last.target.lat, last.target.lon, last.doc.place.name);
    removeMarker();
    render(last.doc);
  } else {
    showUnitedStates();
    removeMarker();
    setState('loading');
  }
  // The first call gives this browser its device cookie; weather lookups wait for it.
  deviceReady = loadPlaces();
  locate(false);
  loadHistory();

  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js').catch(() => { /* offline support is a bonus */ });
  }
})();
