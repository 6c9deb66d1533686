// The page's code that is not the card: loaded by main.js once the temperature is on screen (or
// the page has said why it cannot show one), so that on a slow connection none of it holds up the
// weather. The service worker keeps it for the next visit.
import { initLanguageSwitch } from './i18n.js';
import { $ } from './dom.js';
import { initLayout } from './layout.js';
import { initMap } from './map.js';
import { initAlerts } from './alerts.js';
import { initPushSettings } from './pushsettings.js';
import { initPlaces, loadPlaces, openSavedPlace } from './places.js';
import { initSearch } from './search.js';
import { locate } from './location.js';
import { state } from './state.js';
import { initRadar } from './radar.js';
import { initHistory, loadHistory } from './history.js';

export { renderChart } from './chart.js';
export { renderRanges } from './ranges.js';
export { loadAddress } from './address.js';
export { loadNews } from './news.js';
export { loadAccuracy } from './accuracy.js';
export { loadHistory } from './history.js';
export { renderAlerts } from './alerts.js';
export { renderAirQuality } from './air.js';
export { renderFields } from './fields.js';
export { syncLanguageAndUnits } from './pushsettings.js';

export function start({ placeId }) {
  // What makes the page installable, after the weather (the browser fetches it at once otherwise).
  const manifest = Object.assign(document.createElement('link'), { rel: 'manifest', href: '/manifest.webmanifest', crossOrigin: 'use-credentials' });
  document.head.append(manifest);
  initLanguageSwitch($('language'));
  initSearch();
  initPlaces();
  initLayout();
  initMap();
  initRadar();
  // The first call gives this browser its device cookie when the page's own answer could not.
  state.deviceReady = loadPlaces();
  initAlerts();
  initPushSettings();
  if (placeId) state.deviceReady.then(() => { if (!openSavedPlace(placeId)) locate(false); });
  navigator.serviceWorker && navigator.serviceWorker.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'open-place') openSavedPlace(event.data.id);
  });
  initHistory();
  loadHistory();
}
