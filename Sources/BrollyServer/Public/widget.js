// Brolly's embeddable widget: /widget?place=Paris or ?lat=&lon=, &units=metric|imperial|standard,
// &theme=light|dark. It asks the small API (/api/v1/weather/now), refreshes within the cache
// policy (every 10 minutes, and when shown again), and keeps its last weather for offline use.
// Its request goes through the page's one fetch helper and its storage through the one storage.
import { api } from './js/api.js';
import { i18n, loadLanguage, preferredLanguage, t } from './js/i18n.js';
import { KEYS, store } from './js/storage.js';

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const theme = params.get('theme') === 'dark' ? 'dark' : 'light';
document.documentElement.dataset.theme = theme;
const units = ['metric', 'imperial', 'standard'].includes(params.get('units')) ? params.get('units') : 'metric';
const where = params.get('place')
  ? `place=${encodeURIComponent(params.get('place'))}`
  : `lat=${encodeURIComponent(params.get('lat') || '')}&lon=${encodeURIComponent(params.get('lon') || '')}`;
const KEY = KEYS.widget(`${where}&units=${units}`);
const REFRESH_MS = 10 * 60 * 1000;
// In the reader's language (?lang=, else the browser's): its texts and the condition.
const languageReady = loadLanguage(preferredLanguage());
const SYMBOLS = {
  'clear-day': '☀️', 'clear-night': '🌙', 'partly-cloudy-day': '⛅️', 'partly-cloudy-night': '☁️', cloudy: '☁️', fog: '🌫',
  drizzle: '🌦', rain: '🌧', sleet: '🌧', snow: '❄️', thunderstorm: '⛈',
};
let shown = null;
let offline = false;

function whole(v) { const r = Math.sign(v) * Math.round(Math.abs(v)); return r === 0 ? 0 : r; }
function deg(v, u) { return u === 'K' ? `${whole(v)} K` : `${whole(v)}${u}`; }

function ageText(iso) {
  const m = Math.floor(Math.max(0, Date.now() - Date.parse(iso)) / 60000);
  if (!Number.isFinite(m) || m < 1) return t('updatedJustNow');
  if (m < 60) return t('updatedMinutes', { n: m });
  return t('updatedHours', { n: Math.floor(m / 60) });
}

function render(doc) {
  shown = doc;
  const w = $('widget');
  w.dataset.state = 'ready';
  $('place').textContent = doc.place;
  $('icon').textContent = SYMBOLS[doc.condition.icon] || '☁️';
  $('icon').setAttribute('aria-label', doc.condition.description);
  $('temp').textContent = deg(doc.temperature, doc.units);
  const feels = typeof doc.feelsLike === 'number' ? ` · ${t('feelsLike')} ${deg(doc.feelsLike, doc.units)}` : '';
  $('desc').textContent = `${doc.condition.description}${feels}`;
  $('range').textContent = `${deg(doc.temperatureMin, doc.units)} … ${deg(doc.temperatureMax, doc.units)}`;
  $('updated').textContent = ageText(doc.fetchedAt);
  $('stale').hidden = !(doc.stale || offline);
}

function showError(message) {
  if (shown) { offline = true; render(shown); return; }
  const w = $('widget');
  w.dataset.state = 'error';
  $('icon').textContent = '⚠️';
  $('temp').textContent = '—';
  $('desc').textContent = message;
}

async function load() {
  try {
    await languageReady;
    const body = await api(`/api/v1/weather/now?${where}&units=${units}&lang=${encodeURIComponent(i18n.code)}`);
    if (!body || typeof body.temperature !== 'number') { showError(t('weatherUnavailable')); return; }
    offline = false;
    render(body);
    store.set(KEY, body);
  } catch (error) {
    if (error.kind === 'offline' || error.kind === 'timeout') showError(t('errors').offline[0]);
    else showError(error.detail || t('weatherUnavailable'));
  }
}

const last = store.get(KEY, null);
if (last && typeof last.temperature === 'number') { offline = true; render(last); offline = false; }
load();
setInterval(load, REFRESH_MS);
setInterval(() => shown && render(shown), 60000);
document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') load(); });
window.addEventListener('online', load);

// The app's service worker keeps the widget's files too, so it opens with no network.
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => { /* a bonus */ });
