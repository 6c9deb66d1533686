// The air-quality block of the details: indices with their scale's colour, pollutants, UV and
// pollen, in the reader's language. Absent when the API has none (it never hides the weather).
import { $, el } from './dom.js';
import { t } from './i18n.js';

const PLANTS = ['alder', 'birch', 'grass', 'mugwort', 'olive', 'ragweed'];

/** One fact: a term and its value, with the scale's colour and its band's name when it has one. */
function fact(term, value, index) {
  const dd = el('span', { className: 'value' });
  if (index) {
    const swatch = el('span', { className: 'swatch', ariaHidden: 'true', style: { background: index.colour } });
    const band = t(`band_${index.category.toLowerCase().replaceAll(' ', '_')}`);
    dd.append(swatch, `${Math.round(index.value * 10) / 10} · ${band}`);
  } else {
    dd.append(value);
  }
  return el('li', {}, el('span', { className: 'term', text: term }), dd);
}

export function renderAirQuality(a) {
  $('air').hidden = !a;
  if (!a) return;
  const facts = [];
  if (a.europeanAqi) facts.push(fact(t('aqiEuropean'), '', a.europeanAqi));
  if (a.usAqi) facts.push(fact(t('aqiUS'), '', a.usAqi));
  const ug = (v) => `${Math.round(v)} ${t('unit_ugm3')}`;
  if (typeof a.pm2_5 === 'number') facts.push(fact('PM2.5', ug(a.pm2_5)));
  if (typeof a.pm10 === 'number') facts.push(fact('PM10', ug(a.pm10)));
  if (typeof a.ozone === 'number') facts.push(fact(t('ozone'), ug(a.ozone)));
  if (typeof a.nitrogenDioxide === 'number') facts.push(fact(t('nitrogenDioxide'), ug(a.nitrogenDioxide)));
  if (a.uvIndex) {
    facts.push(fact(t('uvIndex'), '', a.uvIndex));
    // Today's highest only when the answer has the whole day (never one below now): else no
    // tile at all, rather than one that says "—".
    const highest = a.uvIndexMax && a.uvIndexMax.value >= a.uvIndex.value ? a.uvIndexMax : null;
    if (highest) facts.push(fact(t('uvMax'), '', highest));
  }
  if (a.pollen) {
    const text = PLANTS.filter((p) => typeof a.pollen[p] === 'number').map((p) => `${t(`plant_${p}`)} ${Math.round(a.pollen[p])}`).join(', ');
    if (text) { const li = fact(t('pollenUnit'), text); li.className = 'wide'; facts.push(li); }
  }
  $('air-facts').replaceChildren(...facts);
}
