// °C, °F and K, and wind, pressure and precipitation each in its own unit, converted here so that
// switching works offline and makes no network call (the API is always asked for metric). Units not
// chosen follow the browser's language region, as CLDR has them (the same table as Brolly's
// UnitChoice.forRegion).
import { i18n, t } from './i18n.js';
import { state } from './state.js';
import { KEYS, store } from './storage.js';

const WIND = { ms: 1, kmh: 3.6, mph: 1 / 0.44704, kn: 3600 / 1852 };
const PRESSURE = { hpa: [1, 0], mbar: [1, 0], mmhg: [1 / 1.333224, 0], inhg: [1 / 33.86389, 2], kpa: [0.1, 1] };
/** The WMO Beaufort scale's lower limits (m/s) of forces 1 to 12. */
const BEAUFORT = [0.3, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7];
export const beaufort = (ms) => { const v = Math.round(ms * 10) / 10; return BEAUFORT.filter((limit) => v >= limit).length; };

/** The units a region's readers expect; null region: the metric preset. */
export function regionDefaults(tag) {
  const region = ((tag || '').split(/[-_]/).find((p, i) => i > 0 && /^[A-Za-z]{2}$/.test(p)) || '').toUpperCase();
  if (!region) return { temperature: 'C', wind: 'ms', pressure: 'hpa', precipitation: 'mm' };
  if (['US', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM', 'LR', 'MM'].includes(region)) return { temperature: 'F', wind: 'mph', pressure: 'inhg', precipitation: 'in' };
  if (['GB', 'IM', 'JE', 'GG'].includes(region)) return { temperature: 'C', wind: 'mph', pressure: 'mbar', precipitation: 'mm' };
  if (['RU', 'BY'].includes(region)) return { temperature: 'C', wind: 'ms', pressure: 'mmhg', precipitation: 'mm' };
  if (['NO', 'SE', 'FI', 'DK', 'IS', 'UA', 'KZ'].includes(region)) return { temperature: 'C', wind: 'ms', pressure: 'hpa', precipitation: 'mm' };
  if (region === 'CA') return { temperature: 'C', wind: 'kmh', pressure: 'kpa', precipitation: 'mm' };
  return { temperature: 'C', wind: 'kmh', pressure: 'hpa', precipitation: 'mm' };
}

const defaults = () => regionDefaults((navigator.languages && navigator.languages[0]) || navigator.language);

export function rememberedUnits() {
  const saved = store.get(KEYS.units, null);
  return ['C', 'F', 'K'].includes(saved) ? saved : defaults().temperature;
}

/** Wind, pressure and precipitation: each as chosen, else the region's. */
export function rememberedMore() {
  const saved = store.get(KEYS.unitChoice, {}) || {};
  const d = defaults();
  return {
    wind: saved.wind in WIND || saved.wind === 'bft' ? saved.wind : d.wind,
    pressure: saved.pressure in PRESSURE ? saved.pressure : d.pressure,
    precipitation: ['mm', 'in'].includes(saved.precipitation) ? saved.precipitation : d.precipitation,
  };
}

/** Chooses one of them (`part`: { wind } or { pressure } or { precipitation }), remembered. */
export function saveMore(part) {
  const saved = store.get(KEYS.unitChoice, {}) || {};
  store.set(KEYS.unitChoice, { ...saved, ...part });
  state.more = { ...state.more, ...part };
}

export function saveUnits(unit) {
  state.units = unit;
  store.set(KEYS.units, unit);
  document.querySelectorAll('.units button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.unit === unit)));
}

const temp = (c) => state.units === 'F' ? c * 9 / 5 + 32 : state.units === 'K' ? c + 273.15 : c;
/** Rounded for display as the CLI rounds (halves away from zero: -21.5 → -22); never "-0". */
const whole = (v) => { const r = Math.sign(v) * Math.round(Math.abs(v)); return r === 0 ? 0 : r; };

/** A number with its unit kept left to right inside right-to-left text (Unicode isolates). */
const ltr = (s) => (document.documentElement.dir === 'rtl' ? `\u2066${s}\u2069` : s);
export const tempText = (c) => ltr(state.units === 'K' ? `${whole(temp(c))} K` : `${whole(temp(c))}°${state.units}`);
export const shortTemp = (c) => ltr(state.units === 'K' ? `${whole(temp(c))}` : `${whole(temp(c))}°`);
/** A number with the page language's decimal separator (4.2 in English, 4,2 in Russian). */
const fixed = (v, digits) => v.toLocaleString(i18n.code, { minimumFractionDigits: digits, maximumFractionDigits: digits });
const more = () => state.more || rememberedMore();
const unitName = (token, fallback) => t(`u_${token}`, fallback);
/** A temperature in the shown unit, as a number (charts). */
export const tempValue = (c) => temp(c);
/** A wind speed as a short label in the chosen unit: "4", "15", "3" (Beaufort), and the unit's name. */
export function windShort(ms) {
  const wind = more().wind;
  const value = wind === 'bft' ? beaufort(ms) : Math.round(ms * WIND[wind]);
  return { value, unit: unitName(wind, { ms: 'm/s', kmh: 'km/h', mph: 'mph', kn: 'kn', bft: 'Bft' }[wind]) };
}
/** An amount as a number in the chosen unit. */
export const amountValue = (mm) => more().precipitation === 'in' ? mm / 25.4 : mm;

/** "4.2 m/s", "15 km/h", "3 Bft (gentle breeze)". */
export function speedText(ms) {
  const wind = more().wind;
  if (wind === 'bft') { const force = beaufort(ms); return `${force} ${unitName('bft', 'Bft')} (${t(`beaufort${force}`, BEAUFORT_NAMES[force])})`; }
  return `${fixed(ms * WIND[wind], 1)} ${unitName(wind, { ms: 'm/s', kmh: 'km/h', mph: 'mph', kn: 'kn' }[wind])}`;
}
const BEAUFORT_NAMES = ['calm', 'light air', 'light breeze', 'gentle breeze', 'moderate breeze', 'fresh breeze', 'strong breeze',
  'near gale', 'gale', 'strong gale', 'storm', 'violent storm', 'hurricane force'];
/** "1012 hPa", "759 mmHg", "29.89 inHg". */
export function pressureText(hpa) {
  const unit = more().pressure;
  const [factor, digits] = PRESSURE[unit];
  return `${fixed(hpa * factor, digits)} ${unitName(unit, { hpa: 'hPa', mbar: 'mbar', mmhg: 'mmHg', inhg: 'inHg', kpa: 'kPa' }[unit])}`;
}
/** The JSON keeps the provider's precision (0.25 mm); the display rounds. */
/** Fresh snow (mm of depth): in centimetres where rain is in millimetres, as metric readers count snow; else inches. */
export const snowText = (mm) => ltr(more().precipitation === 'in' ? `${fixed(mm / 25.4, 1)} ${unitName('in', 'in')}` : `${fixed(mm / 10, 1)} ${t('unit_cm', 'cm')}`);
export const amountText = (mm) => ltr(more().precipitation === 'in' ? `${fixed(mm / 25.4, 2)} ${unitName('in', 'in')}` : `${fixed(mm, 1)} ${unitName('mm', 'mm')}`);

/** "3° warmer than yesterday", "about the same as yesterday" (within 1°), in the shown unit. */
export function comparedWithYesterday(nowC, yesterdayC) {
  if (typeof yesterdayC !== 'number') return '';
  const difference = temp(nowC) - temp(yesterdayC);
  if (Math.abs(difference) < 1) return t('same', 'About the same as yesterday');
  const n = Math.round(Math.abs(difference));
  return difference > 0 ? t('warmer', `${n}° warmer than yesterday`, { n }) : t('colder', `${n}° colder than yesterday`, { n });
}
