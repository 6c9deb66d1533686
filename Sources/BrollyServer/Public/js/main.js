// Brolly's web app: native ES modules, no build step. This module wires the others together.
import { render, rerender, setState, updateAge } from './card.js';
import { applyStatic, initLanguageSwitch, loadLanguage, preferredLanguage } from './i18n.js';
import { $ } from './dom.js';
import { locate } from './location.js';
import { initLayout } from './layout.js';
import { initMap, removeMarker, showPlace, showUnitedStates } from './map.js';
import { initAlerts } from './alerts.js';
import { initPushSettings, syncLanguageAndUnits } from './pushsettings.js';
import { initPlaces, loadPlaces, openSavedPlace } from './places.js';
import { initSearch } from './search.js';
import { state } from './state.js';
import { isWeatherDocument } from './api.js';
import { loadLast } from './storage.js';
import { rememberedMore, rememberedUnits, saveMore, saveUnits } from './units.js';
import { loadWeather, refresh } from './weather.js';

function setUnits(unit) {
  saveUnits(unit);
  rerender();
}

// The language is known at once (the weather is asked for in it); its texts follow.
loadLanguage(preferredLanguage()).then(() => {
  applyStatic();
  rerender();
  // An empty or error state shown before the language's texts arrived: shown again in it.
  if (state.lastState && ['empty', 'error'].includes(state.lastState.name)) setState(state.lastState.name, state.lastState.opts);
  syncLanguageAndUnits();
});
initLanguageSwitch($('language'));
// Back from a history entry: the live weather, refreshed.
document.addEventListener('brolly:live', () => refresh());
document.querySelectorAll('.units button').forEach((b) => b.addEventListener('click', () => { setUnits(b.dataset.unit); syncLanguageAndUnits(); }));
$('retry').addEventListener('click', () => state.retry && state.retry());
$('locate').addEventListener('click', () => locate(true));
document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') refresh(); });
window.addEventListener('online', refresh);
setInterval(updateAge, 30000);
initSearch();
initPlaces();
initLayout();

initMap();
// The radar's and the chart's code run after the card (the radar only matters once the map is there).
import('./radar.js').then((m) => m.initRadar());
document.addEventListener('brolly:rendered', () => import('./chart.js').then((m) => m.renderChart(state.viewing ? state.viewing.weather : state.doc)));
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
} else {
  showUnitedStates();
  removeMarker();
  setState('loading');
}
// The first call gives this browser its device cookie; weather lookups wait for it.
state.deviceReady = loadPlaces();
// A home-screen shortcut to a saved place opens that place (/?lat=&lon=&name=); else where you are.
const launch = new URLSearchParams(window.location.search);
initAlerts();
initPushSettings();
// A warning's notification opens /?place=<id>: that saved place, its data fetched afresh (seed 002).
const placeId = launch.get('place');
navigator.serviceWorker && navigator.serviceWorker.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'open-place') openSavedPlace(event.data.id);
});
const lat = Number.parseFloat(launch.get('lat'));
const lon = Number.parseFloat(launch.get('lon'));
if (Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
  const name = launch.get('name') || undefined;
  showPlace(lat, lon, name);
  loadWeather({ lat, lon, name, here: false }, { quiet: Boolean(state.doc) });
} else if (placeId) {
  state.deviceReady.then(() => { if (!openSavedPlace(placeId)) locate(false); });
} else {
  locate(false);
}
// The history's code after the card.
import('./history.js').then((m) => { m.initHistory(); m.loadHistory(); });

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => { /* offline support is a bonus */ });
}
