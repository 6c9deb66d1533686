// The weather region: its state (loading, empty, error, ready), notices, and the weather card.
// Staleness is the API's (`source.stale`, `source.fetchedAt`); the page adds only what it knows
// itself: a copy restored from this browser, or a refresh that failed.
import { dayItem, weekScale } from './days.js';
import { summaryText } from './summary.js';
import { later } from './lazy.js';
import { $, el, text } from './dom.js';
import { i18n, t } from './i18n.js';
import { setIcon } from './icons.js';
import { state } from './state.js';
import {
  amountText, comparedWithYesterday, distanceText, pressureText, shortTemp, snowText, speedText, tempText, windShort,
} from './units.js';

export const region = $('weather');

/** An error's title and explanation in the page's language (offline, timeout, unreadable,
 * not-found, permission-denied, location-unavailable, provider); undefined for another kind. */
export function messageFor(kind) {
  return t('errors')[kind];
}

export function setState(name, opts = {}) {
  // Kept, so that the texts can be shown again in the language once its file has arrived.
  state.lastState = { name, opts };
  region.dataset.state = name;
  // For the slow-connection measurements: when weather first showed.
  if (name === 'ready' && !performance.getEntriesByName('brolly-weather-shown').length) performance.mark('brolly-weather-shown');
  region.setAttribute('aria-busy', String(name === 'loading'));
  document.dispatchEvent(new CustomEvent('brolly:state', { detail: name }));
  if (opts.error) region.dataset.error = opts.error; else delete region.dataset.error;
  $('loading').hidden = name !== 'loading';
  $('empty').hidden = name !== 'empty';
  $('error').hidden = name !== 'error';
  $('card').hidden = name !== 'ready';
  if (name !== 'ready') hideNotice();
  if (name === 'empty' || name === 'error') {
    const [title, detail] = messageFor(opts.error) || [t('somethingWrong'), ''];
    const prefix = name === 'empty' ? 'empty' : 'error';
    text(prefix + '-title', opts.title || title);
    text(prefix + '-detail', opts.detail || detail);
    $('permission-help').hidden = opts.error !== 'permission-denied';
    if (name === 'error') $('error').appendChild($('permission-help'));
    else $('empty').insertBefore($('permission-help'), $('empty').querySelector('.hint'));
  }
}

export function showNotice(message, withRetry, kind = 'info') {
  const notice = $('notice');
  notice.textContent = message;
  notice.dataset.kind = kind;
  if (withRetry) {
    const button = el('button', { type: 'button', className: 'ghost', text: t('retry'), dataset: { testid: 'notice-retry' }, style: { marginInlineStart: '.5rem' } });
    button.addEventListener('click', () => state.retry && state.retry());
    notice.append(button);
  }
  notice.hidden = false;
}

export function hideNotice() { $('notice').hidden = true; $('notice').textContent = ''; }


/** Milliseconds since the API received this answer from the provider. */
export function ageMs(doc) {
  const t = Date.parse(doc.source.fetchedAt);
  return Number.isFinite(t) ? Math.max(0, Date.now() - t) : 0;
}

/** "2 min ago", "just now", in the page's language. */
export function agoText(ms) {
  const m = Math.floor(ms / 60000);
  if (m < 1) return t('justNow');
  if (m < 60) return t('minutesAgo', { n: m });
  const h = Math.floor(m / 60);
  if (h < 48) return t('hoursAgo', { n: h });
  return t('daysAgo', { n: Math.floor(h / 24) });
}

export function ageText(ms) {
  const m = Math.floor(ms / 60000);
  if (m < 1) return t('updatedJustNow');
  if (m < 60) return t('updatedMinutes', { n: m });
  const h = Math.floor(m / 60);
  if (h < 48) return t('updatedHours', { n: h });
  return t('updatedDays', { n: Math.floor(h / 24) });
}

/** The API's fresh window (BROLLY_FRESH_SECONDS' default, 10 minutes). */
const FRESH_MS = 10 * 60 * 1000;

/** Stale when the API said so, when a refresh failed, or while a copy kept in this browser and
 *  older than the fresh window is shown (issue 50: a copy a minute old said "Updated just now ·
 *  Stale" for the two seconds a slow refresh took). */
function isStale(doc) {
  if (state.viewing) return true;
  return Boolean(doc.source.stale) || state.forceStale || (state.restored && ageMs(doc) >= FRESH_MS);
}

export function updateAge() {
  const doc = state.viewing ? state.viewing.weather : state.doc;
  if (!doc || region.dataset.state !== 'ready') return;
  if (state.viewing) {
    // A history entry is what it was then: when it was looked up, not how old it is now.
    text('updated', '');
    const marker = $('stale-slot').querySelector('[data-testid="stale"]');
    if (marker) marker.remove();
    return;
  }
  text('updated', ageText(ageMs(doc)));
  const slot = $('stale-slot');
  const stale = isStale(doc);
  let marker = slot.querySelector('[data-testid="stale"]');
  if (stale && !marker) {
    marker = el('span', { className: 'stale', dataset: { testid: 'stale' }, title: t('staleTitle') });
    slot.append(marker);
  } else if (!stale && marker) {
    marker.remove();
  }
  // Offline, the copy is as old as it says ("Updated 3 min ago"), and why it is not newer is the
  // connection ("· No connection"), not an unexplained "Stale" beside "just now".
  if (stale) marker.textContent = navigator.onLine === false ? messageFor('offline')[0] : t('stale');
}

function hourItem(h, index) {
  const icon = el('div', { className: 'mini' });
  setIcon(icon, h.condition.icon, h.condition.description);
  const label = index === 0 ? t('now') : String(h.time).slice(11, 16);
  const li = el('li', {}, el('div', { text: label }), icon, el('div', { text: shortTemp(h.temperature) }));
  // The chance of rain where it is known; an hour without one keeps the line (empty, not "💧—"),
  // so the rows stay level.
  const known = typeof h.precipitationProbability === 'number';
  li.append(el('div', { className: 'dlow chance', title: known ? t('chanceOfRain') : '', text: known ? `💧${Math.round(h.precipitationProbability)}%` : '\u00a0' }));
  // The amount (when any falls) and the wind, as the CLI prints them.
  li.append(el('div', { className: 'dlow amount', text: typeof h.precipitation === 'number' && h.precipitation > 0 ? amountText(h.precipitation) : '' }));
  if (typeof h.windSpeed === 'number') { const w = windShort(h.windSpeed); li.append(el('div', { className: 'dlow wind', text: `${w.value} ${w.unit}` })); }
  return li;
}

/** One of the details: its value, or the whole line left out when there is none. */
function fact(id, value) {
  text(id, value ?? '');
  $(id).closest('li').hidden = value === null;
}

/** Shows a weather document in the current units. */
export function render(doc, opts = {}) {
  const c = doc.current;
  setState('ready');
  if (!opts.keepNotice) hideNotice();
  text('place-name', doc.place.name || `${doc.place.latitude}, ${doc.place.longitude}`);
  // Where the request's address is, shown until the browser's own location replaces it.
  $('place-approximate').hidden = !doc.place.approximate;
  text('address', doc.addressLine || [doc.place.region, doc.place.country].filter((s) => s && s !== doc.place.name).join(', ') ||
    `${doc.place.latitude.toFixed(3)}, ${doc.place.longitude.toFixed(3)}`);
  $('history-banner').hidden = !opts.historyNote;
  text('history-banner', opts.historyNote || '');
  if (opts.historyNote) {
    const back = el('button', { type: 'button', className: 'ghost', dataset: { testid: 'back-to-live' }, text: t('backToLive') });
    back.addEventListener('click', () => {
      state.viewing = null;
      if (state.doc) render(state.doc);
      document.dispatchEvent(new CustomEvent('brolly:live'));
    });
    $('history-banner').append(' ', back);
  }
  $('save-place').hidden = Boolean(opts.historyNote);
  setIcon($('now-icon'), c.condition.icon, c.condition.description);
  text('temperature', tempText(c.temperature));
  text('description', c.condition.description);
  // A value the provider does not give is not shown as "—": its line or tile is left out.
  const feels = typeof c.feelsLike === 'number' ? `${t('feelsLike')} ${tempText(c.feelsLike)} · ` : '';
  text('feels', feels);
  // Today's low and high, named apart from the line's "lows near … tonight".
  text('minmax', t('todaysLowHigh', { low: tempText(c.temperatureMin), high: tempText(c.temperatureMax) }));
  // The next 24 hours in a line (not for a history entry: its hours are not from now).
  text('summary', opts.historyNote ? '' : summaryText(doc));
  const compared = comparedWithYesterday(c.temperature, c.temperatureYesterday);
  text('yesterday', compared);
  $('yesterday').hidden = !compared;
  const nowcast = doc.nowcast && doc.nowcast.summary;
  text('nowcast', nowcast ? `☔ ${nowcast}` : '');
  $('nowcast').hidden = !nowcast;
  renderMeasured(c.measured);
  // The warnings' code comes with the rest of the page, after the card.
  const warned = opts.historyNote ? null : doc;
  later().then((m) => { m.renderAlerts(warned); m.renderAirQuality(doc.airQuality); m.renderFields(doc.fields || [], c); });
  const providers = { 'open-meteo': 'Open-Meteo', openweathermap: 'OpenWeatherMap' };
  const from = providers[doc.source.provider] || doc.source.provider;
  const failed = doc.source.fallbackFrom && (providers[doc.source.fallbackFrom] || doc.source.fallbackFrom);
  text('source', '· ' + (failed
    ? t('fromFallback', { provider: from, failed })
    : t('from', { provider: from })));
  fact('humidity', typeof c.humidity === 'number' ? `${Math.round(c.humidity)}%` : null);
  fact('pressure', typeof c.pressure === 'number' ? pressureText(c.pressure) : null);
  $('wind').closest('li').hidden = typeof c.windSpeed !== 'number';
  if (typeof c.windSpeed === 'number') {
    const dir = typeof c.windDirection === 'number' ? c.windDirection : null;
    const i = dir === null ? null : Math.round((((dir % 360) + 360) % 360) / 45) % 8;
    $('wind-arrow').style.transform = `rotate(${dir === null ? 0 : (dir + 180) % 360}deg)`;
    $('wind-arrow').hidden = dir === null;
    const gust = typeof c.windGust === 'number' ? `, ${t('gusts')} ${speedText(c.windGust)}` : '';
    const from = i === null ? '' : ' ' + t('windFrom', { dir: t('compassShort')[i] });
    text('wind-text', `${speedText(c.windSpeed)}${from}${gust}`);
    $('wind').setAttribute('aria-label', `${speedText(c.windSpeed)}${i === null ? '' : ' ' + t('windFrom', { dir: t('compass')[i] })}`);
  } else {
    text('wind-text', '—');
    $('wind-arrow').hidden = true;
  }
  fact('clouds', typeof c.clouds === 'number' ? `${Math.round(c.clouds)}%` : null);
  // Left out when the provider gives no value; a measured 0 stays 0.
  fact('rain', typeof c.rain === 'number' ? amountText(c.rain) : null);
  fact('snow', typeof c.snow === 'number' ? snowText(c.snow) : null);
  const sky = doc.sky;
  const clock = (t) => String(t).slice(11, 16);
  text('sun', sky && sky.sunrise && sky.sunset ? `↑ ${clock(sky.sunrise)} · ↓ ${clock(sky.sunset)}` : '—');
  text('twilight', sky && sky.dawn && sky.dusk ? `${clock(sky.dawn)} – ${clock(sky.dusk)}` : '—');
  const lit = sky ? Math.round(sky.moon.illumination * 100) : 0;
  text('moon', sky ? `${sky.moon.symbol} ${t(`moon_${sky.moon.phase.replaceAll(' ', '_')}`)}, ${t('litPercent', { n: lit })}` : '—');
  $('hours').replaceChildren(...doc.hours.slice(0, 24).map(hourItem));
  // Two weeks: the second marked as less certain.
  const shownDays = doc.days.slice(0, 14);
  // The fortnight's scale, and now's reading for the dot on today's bar (not on a history entry's).
  const week = { ...weekScale(shownDays), now: opts.historyNote ? null : doc.current.temperature };
  $('days').replaceChildren(...shownDays.map((d, i) => dayItem(d, i, Boolean(opts.historyNote), week, doc.hours)));
  updateAge();
  document.dispatchEvent(new CustomEvent('brolly:rendered'));
}

/** "Measured 7° at Berlin/Brandenburg Arpt, 12 min ago": the nearest station's latest report. */
function renderMeasured(m) {
  const p = $('measured');
  p.hidden = !(m && typeof m.temperature === 'number');
  if (p.hidden) return;
  const minutes = Math.max(0, Math.floor((Date.now() - Date.parse(m.time)) / 60000));
  const ago = minutes < 1 ? t('justNow') : t('minutesAgo', { n: minutes });
  p.textContent = t('measuredAt', { temp: tempText(m.temperature), station: m.station.name, ago });
  p.title = t('measuredTitle', { station: m.station.name, id: m.station.id, distance: m.station.distanceKm });
  // What else it reports: dew point, visibility, present weather, cloud and gusts.
  const parts = [];
  if (typeof m.dewPoint === 'number') parts.push(t('measuredDewPoint', { value: tempText(m.dewPoint) }));
  if (typeof m.visibility === 'number') parts.push(t('measuredVisibility', { value: distanceText(m.visibility) }));
  if (m.weather) parts.push(m.weather.text || m.weather.code);
  if (m.clouds && m.clouds.text) {
    parts.push(typeof m.clouds.base === 'number' ? t('measuredCloudBase', { cover: m.clouds.text, height: distanceText(m.clouds.base) }) : m.clouds.text);
  }
  if (typeof m.windGust === 'number') parts.push(t('measuredGusts', { value: speedText(m.windGust) }));
  const details = document.createElement('span');
  details.className = 'measured-details';
  details.dataset.testid = 'measured-details';
  details.textContent = parts.join(' · ');
  if (parts.length) p.append(document.createElement('br'), details);
}

/** Renders again what is shown (after a unit switch). */
export function rerender() {
  if (region.dataset.state !== 'ready') return;
  if (state.viewing) render(state.viewing.weather, { keepNotice: true, historyNote: state.viewing.note });
  else if (state.doc) render(state.doc, { keepNotice: true });
}
