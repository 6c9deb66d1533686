// The page's shared state. Exposed as window.brolly for the browser tests (fetchCount shows that
// a unit switch makes no network call).
export const state = {
  units: 'C',
  more: null,         // wind, pressure and precipitation units: { wind, pressure, precipitation }
  doc: null,          // the weather shown (metric, as the API sent it)
  restored: false,    // true while `doc` is the copy kept in this browser, not yet refreshed
  target: null,       // { lat, lon, name?, region?, country?, here: bool } the weather is for
  location: null,     // { lat, lon } this visit's position, when the browser gave one
  geolocation: 'pending',
  fetchCount: 0,      // API calls made by this page
  seq: 0,
  retry: null,        // what the Retry button does
  repollTimer: null,
  countdownTimer: null, // the error state's "Trying again in N s"
  viewing: null,      // a history entry being shown: { weather, note }
  forceStale: false,  // a refresh failed: what is shown is old
  deviceReady: Promise.resolve(),
};
window.brolly = state;

/** Whether two targets are the same place (about 1 km). */
export const sameTarget = (a, b) => Boolean(a && b && Math.abs(a.lat - b.lat) < 0.01 && Math.abs(a.lon - b.lon) < 0.01);
