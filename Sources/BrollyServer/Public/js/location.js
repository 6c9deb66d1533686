// The browser's location, asked once per visit (or when "My location" is pressed).
import { early } from './boot.js';
import { t } from './i18n.js';
import { $ } from './dom.js';
import { messageFor, region, setState, showNotice } from './card.js';
import { removeMarker, setMarker, showPlace, showUnitedStates } from './map.js';
import { state } from './state.js';
import { loadWeather } from './weather.js';

/** The browser's location is slow to come on a first visit: meanwhile, the approximate place. */
const SLOW_MS = 3000;

export function locate(userAsked) {
  if (!('geolocation' in navigator)) return locationFailed({ code: 2 }, userAsked);
  state.retry = () => locate(true);
  const slow = state.doc ? null : setTimeout(() => { if (!state.doc) approximate('location-unavailable', t('locationSlow')); }, SLOW_MS);
  // The page's first lines asked for the position before any module: their answer, once.
  const asked = !userAsked && early.position;
  early.position = null;
  const ask = asked ? (ok, fail) => asked.then(ok, fail)
    : (ok, fail) => navigator.geolocation.getCurrentPosition(ok, fail, { enableHighAccuracy: false, timeout: 10000, maximumAge: 300000 });
  ask((pos) => {
    clearTimeout(slow);
    const lat = pos.coords.latitude;
    const lon = pos.coords.longitude;
    state.geolocation = 'granted';
    state.location = { lat, lon };
    setMarker(lat, lon);
    showPlace(lat, lon, t('yourLocation'));
    // On a later visit the last weather stays on screen until the new answer arrives, and
    // stays (marked stale) if none can.
    loadWeather({ lat, lon, here: true }, { quiet: Boolean(state.doc) && !userAsked });
  }, (err) => { clearTimeout(slow); locationFailed(err, userAsked); });
}

/** A first visit without the browser's location: the weather where the request's address is,
 * marked approximate, and why; the empty state (search, the map) when even that cannot be had. */
async function approximate(kind, why) {
  if (state.approximating) return;
  state.approximating = true;
  await loadWeather({ approximate: true });
  state.approximating = false;
  const shown = state.doc && state.doc.place.approximate && region.dataset.state === 'ready';
  if (!shown) {
    if (state.doc) return;  // the browser's own location arrived meanwhile
    showUnitedStates();
    setState('empty', { error: kind, detail: why });
    return;
  }
  showPlace(state.doc.place.latitude, state.doc.place.longitude, state.doc.place.name);
  const [title] = messageFor(kind);
  showNotice(`${title}. ${kind === 'permission-denied' ? t('allowToUseMyLocation') : (why || t('tryLater'))}`, false, kind);
}

function locationFailed(err, userAsked) {
  const denied = err && err.code === 1;
  state.geolocation = denied ? 'denied' : 'unavailable';
  removeMarker();
  const kind = denied ? 'permission-denied' : 'location-unavailable';
  const why = err && err.code === 3 ? t('locationSlow') : undefined;
  if (state.doc && !userAsked) {
    // A later visit: keep the map and the weather where they were, and refresh that place.
    const message = denied ? t('locationOffShowingLast') : t('locationUnavailableShowingLast');
    showNotice(message);
    loadWeather(state.target, { quiet: true }).then(() => {
      if (region.dataset.state === 'ready' && $('notice').hidden) showNotice(message);
    });
    return;
  }
  if (userAsked && state.doc && region.dataset.state === 'ready') {
    // The weather shown stays; what failed is said beside it.
    const [title] = messageFor(kind);
    showNotice(`${title}. ${denied ? t('allowToUseMyLocation') : (why || t('tryLater'))}`, false, kind);
    return;
  }
  if (userAsked) {
    setState('error', { error: kind, detail: why });
    state.retry = () => locate(true);
    return;
  }
  approximate(kind, why);
}
