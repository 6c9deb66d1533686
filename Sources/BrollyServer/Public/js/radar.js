// The rain radar over the map: frames from `GET /api/v1/radar` (the server asks the radar's
// weather-maps API once every 5 minutes for everyone), tiles fetched by this browser from the tile
// host itself (its own per-address allowance), never above the host's highest zoom (Leaflet scales
// the last zoom's tiles). A toggle (remembered), a timeline with play/pause and the frame's local
// time, the attribution and a legend. No radar, or offline: the toggle says so and nothing else
// changes — the map and the weather are never touched. With an OpenWeatherMap key the server also
// offers that service's precipitation map (its tiles through the server, which holds the key): a
// second layer under a checkbox, remembered too.
import { $ } from './dom.js';
import { api } from './api.js';
import { t } from './i18n.js';
import { state } from './state.js';
import { KEYS, store } from './storage.js';

let frames = null;
let layers = [];
let index = 0;
let timer = null;
let on = false;
let precipitation = null;

const toggle = () => $('radar-toggle');

function unavailable() {
  on = false;
  toggle().setAttribute('aria-pressed', 'false');
  toggle().disabled = true;
  toggle().textContent = t('radarUnavailable');
  $('radar').dataset.state = 'unavailable';
  $('radar-controls').hidden = true;
}

function timeText(frame) {
  const d = new Date(frame.unixTime * 1000);
  return d.toLocaleTimeString(document.documentElement.lang || 'en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }) + (frame.forecast ? ` (${t('radarForecast')})` : '');
}

function show(i) {
  if (!layers.length) return;
  index = (i + layers.length) % layers.length;
  layers.forEach((layer, n) => layer.setOpacity(n === index ? 0.7 : 0));
  $('radar-frame').value = String(index);
  $('radar-time').textContent = timeText(frames.frames[index]);
  $('radar').dataset.frame = String(index);
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  $('radar-play').setAttribute('aria-pressed', 'false');
  $('radar-play').setAttribute('aria-label', t('radarPlay'));
  $('radar-play').textContent = '▶';
}

function play() {
  stop();
  timer = setInterval(() => show(index + 1), 700);
  $('radar-play').setAttribute('aria-pressed', 'true');
  $('radar-play').setAttribute('aria-label', t('radarPause'));
  $('radar-play').textContent = '⏸';
}

function removeLayers() {
  stop();
  layers.forEach((layer) => layer.remove());
  layers = [];
  if (precipitation) precipitation.remove();
  precipitation = null;
}

/** OpenWeatherMap's layer, on while its box is ticked. */
function showPrecipitation() {
  const layer = frames && frames.precipitation;
  const wanted = Boolean(layer) && $('precipitation-layer').checked && on && state.map && window.L;
  if (!wanted) { if (precipitation) precipitation.remove(); precipitation = null; return; }
  if (precipitation) return;
  precipitation = window.L.tileLayer(layer.tiles, { maxNativeZoom: layer.maxZoom, maxZoom: 19, opacity: 0.6, zIndex: 401, attribution: '' }).addTo(state.map);
}

function addLayers() {
  const map = state.map;
  if (!map || !window.L || !frames) return;
  removeLayers();
  layers = frames.frames.map((frame) => window.L.tileLayer(frame.tiles, {
    // Never asked above the host's highest zoom: Leaflet scales those tiles up.
    maxNativeZoom: frames.maxZoom, maxZoom: 19, opacity: 0, zIndex: 400, crossOrigin: false,
    attribution: '',
  }).addTo(map));
  const last = frames.frames.map((f) => f.forecast).lastIndexOf(false);
  show(last >= 0 ? last : frames.frames.length - 1);
  showPrecipitation();
}

async function switchOn() {
  try {
    frames = await api('/api/v1/radar', { counted: false });
  } catch (_) {
    unavailable();
    return;
  }
  if (!frames || !Array.isArray(frames.frames) || frames.frames.length === 0) { unavailable(); return; }
  on = true;
  toggle().setAttribute('aria-pressed', 'true');
  $('radar').dataset.state = 'on';
  $('radar-controls').hidden = false;
  $('radar-frame').max = String(frames.frames.length - 1);
  const link = $('radar-attribution');
  link.textContent = frames.attribution;
  link.href = frames.attributionURL;
  $('precipitation-row').hidden = !frames.precipitation;
  if (state.map) addLayers(); else document.addEventListener('brolly:map', addLayers, { once: true });
}

function switchOff() {
  on = false;
  removeLayers();
  toggle().setAttribute('aria-pressed', 'false');
  $('radar').dataset.state = 'off';
  $('radar-controls').hidden = true;
}

/** Wires the radar controls; shows the radar when it was on last time. */
export function initRadar() {
  toggle().addEventListener('click', () => {
    if (on) { switchOff(); store.set(KEYS.radar, false); } else { store.set(KEYS.radar, true); switchOn(); }
  });
  $('radar-play').addEventListener('click', () => (timer ? stop() : play()));
  $('precipitation-layer').checked = store.get(KEYS.precipitationLayer, false) === true;
  $('precipitation-layer').addEventListener('change', () => { store.set(KEYS.precipitationLayer, $('precipitation-layer').checked); showPrecipitation(); });
  $('radar-frame').addEventListener('input', () => { stop(); show(Number($('radar-frame').value)); });
  window.addEventListener('offline', () => { if (on) { removeLayers(); unavailable(); } });
  if (store.get(KEYS.radar, false) === true) switchOn();
}
