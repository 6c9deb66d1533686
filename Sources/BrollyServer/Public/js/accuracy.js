// "How good are forecasts here?": one sentence and a small chart of each model's error of the
// day's high by days ahead (GET /api/v1/accuracy, asked in °C and converted here, so a unit switch
// makes no call). It is a helper: when it cannot be had the section stays hidden, or says why
// there are no scores when the reference could not be reached. Below the minimum of days it says
// so, without a ranking or a chart.
import { accuracyURL, api } from './api.js';
import { $, el, text } from './dom.js';
import { i18n, t } from './i18n.js';
import { sameTarget, state } from './state.js';
import { difference as differenceIn, temperatureUnit } from './units.js';

let shown = null;
const SVG = 'http://www.w3.org/2000/svg';
const COLOURS = ['#1b6ac9', '#c0392b', '#2e8b57', '#8e44ad', '#d35400', '#16a085', '#7f8c8d', '#b7950b'];

/** A difference of temperatures (asked in °C) in the shown unit. */
const difference = (c) => differenceIn(temperatureUnit(), c);
const unit = () => temperatureUnit().symbol;
/** A temperature difference (°C) in the shown unit, to a tenth, with the unit. */
const amount = (c) => `${(Math.round(difference(Math.abs(c)) * 10) / 10).toLocaleString(i18n.code)} ${unit()}`;
/** "2 °C", "3.6 °F": what "within" means, in the shown unit. */
const tolerance = (doc) => `${(Math.round(difference(doc.units.tolerance) * 10) / 10).toLocaleString(i18n.code)} ${unit()}`;

function svg(name, attrs, ...children) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/** The chart: x = days ahead (1–7), y = average error of the high; the model shown (else the
 * best) drawn bold. */
function chart(doc, bold) {
  const w = 320, h = 150, left = 44, right = 8, top = 8, bottom = 24;
  const rows = rowsOf(doc);
  const max = Math.max(1, ...rows.flatMap((m) => m.leads.map((l) => difference(l.highMAE))));
  const x = (lead) => left + ((lead - 1) / 6) * (w - left - right);
  const y = (v) => top + (1 - v / max) * (h - top - bottom);
  const root = svg('svg', { viewBox: `0 0 ${w} ${h}`, class: 'accuracy-chart', role: 'img', 'aria-label': t('accuracyChartLabel') });
  for (let i = 0; i <= 2; i++) {
    const v = (max * i) / 2;
    root.append(svg('line', { x1: left, x2: w - right, y1: y(v), y2: y(v), class: 'grid' }));
    const label = max >= 10 ? Math.round(v) : Math.round(v * 10) / 10;
    root.append(svg('text', { x: left - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, `${label.toLocaleString(i18n.code)}${unit()}`));
  }
  for (let lead = 1; lead <= 7; lead++) root.append(svg('text', { x: x(lead), y: h - 6, 'text-anchor': 'middle', class: 'axis' }, String(lead)));
  rows.forEach((m, i) => {
    const points = m.leads.map((l) => `${x(l.lead).toFixed(1)},${y(difference(l.highMAE)).toFixed(1)}`).join(' ');
    root.append(svg('polyline', { points, fill: 'none', stroke: COLOURS[i % COLOURS.length], 'stroke-width': m.model === bold ? 3.5 : 1.5, 'data-model': m.model, class: m.model === bold ? 'chosen' : '' }));
  });
  return root;
}

/** Every model, then the forecast shown (scored out of sample like them) when it is not one of them. */
const rowsOf = (doc) => (doc.shown ? [...doc.models, doc.shown] : doc.models);

function legend(doc) {
  return rowsOf(doc).map((m, i) => {
    const tomorrow = m.leads.find((l) => l.lead === 1);
    const value = tomorrow ? `${(Math.round(difference(tomorrow.highMAE) * 10) / 10).toLocaleString(i18n.code)}${unit()}` : '—';
    const li = el('li', { dataset: { model: m.model } },
      el('span', { className: 'swatch', ariaHidden: 'true', style: { background: COLOURS[i % COLOURS.length] } }),
      `${m.name} · ${value}`);
    if (m.chosen && (!doc.shown || m === doc.shown)) li.append(el('strong', { text: ` (${t('accuracyChosen')})` }));
    return li;
  });
}

/** Which reference, how far, over which days; and a station passed over for too few days. */
function reference(doc) {
  const r = doc.reference;
  const values = {
    station: r.name, distance: (r.distanceKm ?? 0).toLocaleString(i18n.code), days: doc.days, first: r.firstDay || '—', last: r.lastDay || '—',
  };
  let line = t(r.kind === 'station' ? 'accuracyStation' : 'accuracyReanalysis', values);
  const p = doc.passedOver;
  if (p) line += ' ' + t('accuracyPassedOver', { station: p.station.name, distance: p.station.distanceKm.toLocaleString(i18n.code), days: p.days });
  return line;
}

/** "Highs here run 1.5 °C warm in NOAA GFS." for the largest lasting errors; "corrected" when so. */
function biases(doc) {
  const lines = (doc.biases || []).slice(0, 2).map((b) =>
    t(`accuracy${b.variable === 'high' ? 'Highs' : 'Lows'}${b.bias > 0 ? 'Warm' : 'Cold'}`, { amount: amount(b.bias), model: b.name }));
  if (lines.length && doc.corrected) lines.push(t('accuracyCorrected'));
  // How often tomorrow's 80 % ranges held the truth, each made before its day (out of sample).
  const one = (doc.ranges || []).find((r) => r.lead === 1);
  if (one && typeof one.coverage === 'number') lines.push(t('accuracyCoverage', { share: Math.round(one.coverage * 100), days: one.coverageDays }));
  return lines.join(' ');
}

export function renderAccuracy(doc = shown) {
  const section = $('accuracy');
  if (!doc || !doc.models || !doc.models.length) { section.hidden = true; return; }
  shown = doc;
  text('accuracy-truth', reference(doc));
  const scores = $('accuracy-scores');
  const notes = $('accuracy-biases');
  if (!doc.enough) {
    text('accuracy-sentence', t('accuracyNotEnough', { days: doc.days, minimum: doc.minimumDays }));
    scores.hidden = true; notes.hidden = true; section.hidden = false;
    return;
  }
  const pick = doc.shown || doc.models.find((m) => m.chosen) || doc.models.find((m) => doc.best && m.model === doc.best.model) || doc.models[0];
  const tomorrow = pick.leads.find((l) => l.lead === 1);
  if (!tomorrow) { section.hidden = true; return; }
  const hits = Math.round(tomorrow.highWithin2 * tomorrow.n);
  text('accuracy-sentence', t('accuracySentence', { hits, days: tomorrow.n, tolerance: tolerance(doc) }));
  const said = biases(doc);
  text('accuracy-biases', said);
  notes.hidden = !said;
  $('accuracy-chart').replaceChildren(chart(doc, pick.model));
  $('accuracy-legend').replaceChildren(...legend(doc));
  scores.hidden = false;
  section.hidden = false;
}

/** No scores, and why: the reference (a station, the reanalysis) could not be reached. */
function unavailable() {
  shown = null;
  text('accuracy-sentence', t('accuracyUnavailable'));
  text('accuracy-truth', '');
  $('accuracy-scores').hidden = true; $('accuracy-biases').hidden = true;
  $('accuracy').hidden = false;
}

export async function loadAccuracy(target) {
  try {
    const doc = await api(accuracyURL(target));
    if (!sameTarget(state.target, target)) return;
    renderAccuracy(doc);
  } catch (e) {
    if (!sameTarget(state.target, target)) return;
    // Without a reference the panel says so; any other failure of this helper hides it.
    if (e && typeof e.detail === 'string' && e.detail.startsWith('no independent reference')) { unavailable(); return; }
    shown = null; $('accuracy').hidden = true;
  }
}

// A unit switch re-renders the card: the chart follows without a call.
document.addEventListener('brolly:rendered', () => { if (shown) renderAccuracy(shown); });
