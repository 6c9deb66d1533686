// Everything this browser keeps between visits goes through here: JSON in localStorage, where a
// full or disabled storage is never an error (the page simply keeps less). The keys are listed
// once, below.

export const KEYS = {
  /** The last weather and its place, shown at once on the next visit and offline. */
  last: 'brolly.last.v1',
  /** The chosen unit: C, F or K. */
  units: 'brolly.units',
  /** Wind, pressure and precipitation units, each when chosen: { wind, pressure, precipitation }. */
  unitChoice: 'brolly.units.more.v1',
  /** Whether the details grid is opened in full. */
  details: 'brolly.details.v1',
  /** Whether the rain radar is shown on the map. */
  radar: 'brolly.radar.v1',
  /** Whether OpenWeatherMap's precipitation layer is shown with the radar. */
  precipitationLayer: 'brolly.radar.precipitation.v1',
  /** The chosen language. */
  language: 'brolly.lang.v1',
  /** The saved places as last read, for offline. */
  places: 'brolly.places.v1',
  /** The history as last read, and the entries opened. */
  history: 'brolly.history.v1',
  /** The place whose alerts are pushed to this browser. */
  notify: 'brolly.push.v1',
  /** Rain alerts and the morning summary: how early, how much, quiet hours, the summary's time. */
  pushSettings: 'brolly.push.settings.v1',
  /** The widget's last answer for its place and units. */
  widget: (where) => `brolly.widget.${where}`,
};

export const store = {
  /** The value kept under `key`, else `fallback` (also when it cannot be read). A value written as
   *  plain text by an older version is returned as that text. */
  get(key, fallback) {
    let raw = null;
    try { raw = localStorage.getItem(key); } catch (_) { return fallback; }
    if (raw === null) return fallback;
    try { return JSON.parse(raw) ?? fallback; } catch (_) { return raw; }
  },
  set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* full or disabled: keep going */ } },
  remove(key) { try { localStorage.removeItem(key); } catch (_) { /* disabled */ } },
  /** A first-party cookie the server reads when it writes the page (language, units, last place),
   *  so that its first paint is in them: a year, this site only, never sent elsewhere. */
  cookie(name, value) {
    try { document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=31536000; SameSite=Lax`; } catch (_) { /* sandboxed */ }
  },
};

/** Keeps the weather shown and its place for the next visit. */
export function saveLast(doc, target) {
  store.set(KEYS.last, { doc, target, savedAt: Date.now() });
  // The server draws this place's card into the page on the next visit (from its cache, no call).
  if (Number.isFinite(target.lat)) store.cookie('brolly_place', `${target.lat.toFixed(4)},${target.lon.toFixed(4)}`);
}

/** The last weather kept, when `isValid(doc)` accepts it and its place has coordinates. */
export function loadLast(isValid) {
  const last = store.get(KEYS.last, null);
  return last && isValid(last.doc) && last.target && Number.isFinite(last.target.lat) ? last : null;
}
