// Brolly's web app, the card first: this module and what it imports are what the page needs to
// show the weather (bundled by scripts/bundle.sh into /app/main.js); everything else (places,
// search, the map, the layout, pushes, the radar, the history) is in later.js, loaded once the
// temperature is on screen.
import { region, render, rerender, setState, updateAge } from './card.js';
import { applyStatic, loadLanguage, preferredLanguage } from './i18n.js';
import { $ } from './dom.js';
import { locate } from './location.js';
import { removeMarker, showPlace, showUnitedStates } from './map.js';
import { state } from './state.js';
import { isWeatherDocument } from './api.js';
import { loadLast } from './storage.js';
import { rememberedMore, rememberedUnits, saveMore, saveUnits } from './units.js';
import { loadWeather, refresh } from './weather.js';
import { later } from './lazy.js';

// A home-screen shortcut to a saved place opens that place (/?lat=&lon=&name=); else where you are.
const launch = new URLSearchParams(window.location.search);
// A warning's notification opens /?place=<id>: that saved place, its data fetched afresh (seed 002).
const placeId = launch.get('place');

function setUnits(unit) {
  saveUnits(unit);
  rerender();
}

/** The rest of the page, once: after the first card (or the first state that is not loading). */
let rest = null;
function loadRest() {
  if (!rest) rest = later().then((m) => { m.start({ placeId }); return m; });
  return rest;
}

// The language is known at once (the weather is asked for in it); its texts are in the page when
// it is the first paint's, else they follow.
const language = loadLanguage(preferredLanguage()).then(() => {
  applyStatic();
  rerender();
  // An empty or error state shown before the language's texts arrived: shown again in it.
  if (state.lastState && ['empty', 'error'].includes(state.lastState.name)) setState(state.lastState.name, state.lastState.opts);
});
// Back from a history entry: the live weather, refreshed.
document.addEventListener('brolly:live', () => refresh());
document.querySelectorAll('.units button').forEach((b) => b.addEventListener('click', () => {
  setUnits(b.dataset.unit);
  loadRest().then((m) => m.syncLanguageAndUnits());
}));
$('retry').addEventListener('click', () => state.retry && state.retry());
$('locate').addEventListener('click', () => locate(true));
document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') refresh(); });
window.addEventListener('online', refresh);
setInterval(updateAge, 30000);
document.addEventListener('brolly:rendered', loadRest, { once: true });
// The chart's code after the card.
document.addEventListener('brolly:rendered', () => later().then((m) => {
  const doc = state.viewing ? state.viewing.weather : state.doc;
  m.renderChart(doc);
  m.renderRanges(doc);
}));
document.addEventListener('brolly:state', (e) => { if (e.detail !== 'loading') loadRest(); });
// Nothing on screen after 4 s (a slow location, a slow network): the rest comes anyway.
setTimeout(loadRest, 4000);
setUnits(rememberedUnits());
state.more = rememberedMore();
for (const [part, id] of [['wind', 'unit-wind'], ['pressure', 'unit-pressure'], ['precipitation', 'unit-precipitation']]) {
  $(id).value = state.more[part];
  $(id).addEventListener('change', () => { saveMore({ [part]: $(id).value }); rerender(); });
}
const last = loadLast(isWeatherDocument);
if (last) {
  // A later visit: the last weather at once, marked stale until a new answer arrives.
  Object.assign(state, { doc: last.doc, target: last.target, restored: true });
  showPlace(last.target.lat, last.target.lon, last.doc.place.name);
  removeMarker();
  render(last.doc);
} else if (region.dataset.state !== 'ready') {
  showUnitedStates();
  removeMarker();
  setState('loading');
}
const lat = Number.parseFloat(launch.get('lat'));
const lon = Number.parseFloat(launch.get('lon'));
if (Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
  const name = launch.get('name') || undefined;
  showPlace(lat, lon, name);
  loadWeather({ lat, lon, name, here: false }, { quiet: Boolean(state.doc) });
} else if (placeId) {
  loadRest();
} else {
  locate(false);
}
language.then(() => loadRest()).then((m) => m.syncLanguageAndUnits());

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => { /* offline support is a bonus */ });
}
