// The next 48 hours as one SVG chart: the temperature line, precipitation bars shaded by their
// chance, the wind every three hours, the night shaded (from the sky block's sunrise and sunset),
// "now" marked. Wide enough to read at 360 px (it scrolls sideways), with a table beside it for
// screen readers, in the reader's units and language; colours from the page's (dark mode too).
import { $, el } from './dom.js';
import { t } from './i18n.js';
import { amountText, amountValue, shortTemp, tempValue, windShort } from './units.js';

const NS = 'http://www.w3.org/2000/svg';
const STEP = 24;          // px per hour
const TOP = 22;           // room for the temperature labels
const LINE_H = 90;        // the temperature band
const BARS_H = 44;        // the precipitation band
const BOTTOM = 40;        // wind and hour labels

function svg(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Minutes since midnight of an ISO local time ("2026-11-25T07:41:00+01:00" → 461). */
const minutes = (iso) => (iso ? Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16)) : null);

/** The hour's 80 % band from its day's ranges (`temperatureMinRange`, `temperatureMaxRange`): the
 *  hour moved as the day's low's range moves near the low, as its high's near the high, in
 *  proportion between; null when its day has no range. */
function bandOf(h, byDate) {
  const d = byDate[String(h.time).slice(0, 10)];
  if (!d || !Array.isArray(d.temperatureMaxRange) || !Array.isArray(d.temperatureMinRange)) return null;
  const span = d.temperatureMax - d.temperatureMin;
  const share = span > 0.1 ? Math.min(1, Math.max(0, (h.temperature - d.temperatureMin) / span)) : 0.5;
  const at = (k) => h.temperature + (1 - share) * (d.temperatureMinRange[k] - d.temperatureMin) + share * (d.temperatureMaxRange[k] - d.temperatureMax);
  return [tempValue(at(0)), tempValue(at(1))];
}

/** The chart's data, exported for the tests: x and y of every hour's point, bar and band. */
export function chartPoints(doc) {
  const hours = doc.hours.slice(0, 48);
  const temps = hours.map((h) => tempValue(h.temperature));
  const byDate = Object.fromEntries((doc.days || []).map((d) => [d.date, d]));
  const bands = hours.map((h) => bandOf(h, byDate));
  const low = Math.min(...temps, ...bands.filter(Boolean).map((b) => b[0]));
  const high = Math.max(...temps, ...bands.filter(Boolean).map((b) => b[1]));
  const span = Math.max(1, high - low);
  const wettest = Math.max(1, ...hours.map((h) => amountValue(h.precipitation || 0)));
  return hours.map((h, i) => ({
    time: h.time,
    x: i * STEP + STEP / 2,
    y: TOP + (1 - (temps[i] - low) / span) * LINE_H,
    band: bands[i] ? bands[i].map((v) => TOP + (1 - (v - low) / span) * LINE_H) : null,
    bar: ((amountValue(h.precipitation || 0)) / wettest) * BARS_H,
    chance: typeof h.precipitationProbability === 'number' ? h.precipitationProbability : null,
  }));
}

export function renderChart(doc) {
  const figure = $('chart');
  if (!figure || !doc || !Array.isArray(doc.hours) || doc.hours.length === 0) { if (figure) figure.hidden = true; return; }
  const hours = doc.hours.slice(0, 48);
  const points = chartPoints(doc);
  const width = hours.length * STEP;
  const height = TOP + LINE_H + 8 + BARS_H + BOTTOM;
  const barsBase = TOP + LINE_H + 8 + BARS_H;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'hour-chart', 'aria-hidden': 'true', 'data-testid': 'hour-chart' });

  // Night: hours before sunrise or after sunset (the sky block's times of day, every day alike).
  const rise = minutes(doc.sky && doc.sky.sunrise);
  const set = minutes(doc.sky && doc.sky.sunset);
  if (rise !== null && set !== null) {
    hours.forEach((h, i) => {
      const m = minutes(h.time);
      if (m < rise || m >= set) chart.append(svg('rect', { x: i * STEP, y: 0, width: STEP, height: barsBase, class: 'night' }));
    });
  }
  // Precipitation bars, more opaque the likelier.
  points.forEach((p, i) => {
    if (p.bar <= 0) return;
    const opacity = p.chance === null ? 0.8 : 0.3 + 0.7 * (p.chance / 100);
    chart.append(svg('rect', { x: p.x - STEP * 0.35, y: barsBase - p.bar, width: STEP * 0.7, height: p.bar, class: 'rain-bar', 'fill-opacity': opacity.toFixed(2), 'data-hour': i }));
  });
  // The 80 % band around the line, where the days have ranges.
  const banded = points.filter((p) => p.band);
  if (banded.length > 1) {
    const outline = [...banded.map((p) => `${p.x.toFixed(1)},${p.band[1].toFixed(1)}`), ...banded.reverse().map((p) => `${p.x.toFixed(1)},${p.band[0].toFixed(1)}`)];
    chart.append(svg('polygon', { points: outline.join(' '), class: 'temp-band', 'data-testid': 'temp-band' }));
  }
  // Now: inside the first hour, by the minutes past it; named under the chart, where no
  // temperature is written. Drawn before the line and its labels, which are haloed: it never
  // strikes through the first temperature.
  const now = new Date();
  const nowX = Math.min(STEP, Math.max(0, (now.getMinutes() / 60) * STEP));
  chart.append(svg('line', { x1: nowX, x2: nowX, y1: 0, y2: barsBase, class: 'now-line' }));
  // The temperature line and its labels every three hours.
  chart.append(svg('polyline', { points: points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '), class: 'temp-line', fill: 'none' }));
  points.forEach((p, i) => {
    if (i % 3 !== 0) return;
    chart.append(svg('circle', { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 2.5, class: 'temp-dot' }));
    chart.append(svg('text', { x: p.x, y: p.y - 7, class: 'temp-label', 'text-anchor': 'middle' }, shortTemp(hours[i].temperature)));
    // The first column is "now": its labels start at the edge (never cut), the wind's with its unit.
    const first = i === 0;
    const anchor = first ? { x: 2, 'text-anchor': 'start' } : { x: p.x, 'text-anchor': 'middle' };
    const wind = typeof hours[i].windSpeed === 'number' ? windShort(hours[i].windSpeed) : null;
    if (wind) chart.append(svg('text', { ...anchor, y: barsBase + 16, class: 'wind-label' }, first ? `${wind.value} ${wind.unit}` : `${wind.value}`));
    chart.append(svg('text', { ...anchor, y: barsBase + 32, class: first ? 'hour-label now-label' : 'hour-label' }, first ? t('now') : hours[i].time.slice(11, 16)));
  });
  // The same for screen readers.
  const wind = hours.find((h) => typeof h.windSpeed === 'number');
  const windUnit = wind ? windShort(wind.windSpeed).unit : '';
  const table = el('table', { dataset: { testid: 'hour-table' } },
    el('caption', { text: t('chartCaption') }),
    el('tr', {}, ...[t('chartTime'), t('chartTemperature'), t('rain'), t('chanceOfRain'), `${t('wind')} (${windUnit})`].map((h) => el('th', { text: h }))),
    ...hours.map((h) => el('tr', {},
      el('td', { text: h.time.slice(11, 16) }), el('td', { text: shortTemp(h.temperature) }),
      el('td', { text: amountText(h.precipitation || 0) }),
      el('td', { text: typeof h.precipitationProbability === 'number' ? `${Math.round(h.precipitationProbability)}%` : '—' }),
      el('td', { text: typeof h.windSpeed === 'number' ? String(windShort(h.windSpeed).value) : '—' }))));
  const legend = el('p', { className: 'chart-legend', text: `${t('chartLegend')} (${windUnit})` });
  // A table keeps its content's width whatever its own: hidden inside a box that does not.
  // Time runs left to right in every language: a right-to-left page's chart still starts at now.
  const scroll = el('div', { className: 'chart-scroll', tabIndex: 0, role: 'img', ariaLabel: t('chartCaption') }, chart);
  scroll.dir = 'ltr';
  figure.replaceChildren(scroll, legend, el('div', { className: 'visually-hidden' }, table));
  scroll.scrollLeft = 0;
  figure.hidden = false;
}
