// °C, °F and K, and wind, pressure and precipitation each in its own unit, converted here so that
// switching works offline and makes no network call (the API is always asked for metric). The
// conversions are BrollyCore's one table (`UNITS`, written into the page as BOOT.units): no constant is
// written here. Units not chosen follow the browser's language region, as CLDR has them (the same
// table as Brolly's UnitChoice.forRegion).
import { i18n, t } from './i18n.js';
import { state } from './state.js';
import { KEYS, store } from './storage.js';
import { BOOT } from './boot.js';

const UNITS = BOOT.units;

const WIND = UNITS.wind;
const PRESSURE = UNITS.pressure;
/** A base value (°C, m/s, hPa, mm) in a unit of the table. */
export const convert = (u, base) => (base * u.factor) / u.divisor + u.offset;
/** A difference (an error, a change) in a unit: no offset. */
export const difference = (u, base) => (base * u.factor) / u.divisor;
export const beaufort = (ms) => { const v = Math.round(ms * 10) / 10; return UNITS.beaufortLimits.filter((limit) => v >= limit).length; };
/** The shown temperature unit's row of the table. */
export const temperatureUnit = () => UNITS.temperature[state.units] || UNITS.temperature.C;

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
    wind: saved.wind in WIND ? saved.wind : d.wind,
    pressure: saved.pressure in PRESSURE ? saved.pressure : d.pressure,
    precipitation: saved.precipitation in UNITS.precipitation ? saved.precipitation : d.precipitation,
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
  store.cookie('brolly_units', unit);
  document.querySelectorAll('.units button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.unit === unit)));
}

const temp = (c) => convert(temperatureUnit(), c);
/** Rounded for display as the CLI rounds (halves away from zero: -21.5 → -22); never "-0". */
const whole = (v) => { const r = Math.sign(v) * Math.round(Math.abs(v)); return r === 0 ? 0 : r; };

/** A number with its unit kept left to right inside right-to-left text (Unicode isolates). */
const ltr = (s) => (document.documentElement.dir === 'rtl' ? `\u2066${s}\u2069` : s);
export const tempText = (c) => ltr(state.units === 'K' ? `${whole(temp(c))} K` : `${whole(temp(c))}°${state.units}`);
export const shortTemp = (c) => ltr(state.units === 'K' ? `${whole(temp(c))}` : `${whole(temp(c))}°`);
/** A number with the page language's decimal separator (4.2 in English, 4,2 in Russian). */
const fixed = (v, digits) => v.toLocaleString(i18n.code, { minimumFractionDigits: digits, maximumFractionDigits: digits });
const more = () => state.more || rememberedMore();
/** A unit's name in the page's language (`unit_kmh` → "km/h", "км/ч"). */
const unitName = (token) => t(token === 'bft' ? 'u_bft' : `unit_${token}`);
/** A temperature in the shown unit, as a number (charts). */
export const tempValue = (c) => temp(c);
/** A wind speed as a short label in the chosen unit: "4", "15", "3" (Beaufort), and the unit's name. */
export function windShort(ms) {
  const wind = more().wind;
  const value = wind === 'bft' ? beaufort(ms) : Math.round(convert(WIND[wind], ms));
  return { value, unit: unitName(wind) };
}
/** An amount as a number in the chosen unit. */
export const amountValue = (mm) => convert(UNITS.precipitation[more().precipitation], mm);

/** "4.2 m/s", "15 km/h", "3 Bft (gentle breeze)". */
export function speedText(ms) {
  const wind = more().wind;
  if (wind === 'bft') { const force = beaufort(ms); return `${force} ${unitName('bft')} (${t(`beaufort${force}`)})`; }
  return `${fixed(convert(WIND[wind], ms), WIND[wind].decimals)} ${unitName(wind)}`;
}
/** "10 km", "6.2 mi" (asked in km): miles for a °F reader, else kilometres. */
export function distanceText(km) {
  const name = state.units === 'F' ? 'mi' : 'km';
  const unit = UNITS.distance[name];
  return `${fixed(convert(unit, km * 1000), unit.decimals)} ${unitName(name)}`;
}
/** "1012 hPa", "759 mmHg", "29.89 inHg". */
export function pressureText(hpa) {
  const unit = more().pressure;
  return `${fixed(convert(PRESSURE[unit], hpa), PRESSURE[unit].decimals)} ${unitName(unit)}`;
}
/** The JSON keeps the provider's precision (0.25 mm); the display rounds. */
/** Fresh snow (mm of depth): in centimetres where rain is in millimetres, as metric readers count snow; else inches. */
export function snowText(mm) {
  const token = UNITS.snowFor[more().precipitation], u = UNITS.snow[token];
  return ltr(`${fixed(convert(u, mm), u.decimals)} ${unitName(token)}`);
}
export function amountText(mm) {
  const token = more().precipitation, u = UNITS.precipitation[token];
  return ltr(`${fixed(convert(u, mm), u.decimals)} ${unitName(token)}`);
}

/** "3° warmer than yesterday", "about the same as yesterday" (within 1°), in the shown unit. */
export function comparedWithYesterday(nowC, yesterdayC) {
  if (typeof yesterdayC !== 'number') return '';
  const difference = temp(nowC) - temp(yesterdayC);
  if (Math.abs(difference) < 1) return t('same');
  const n = Math.round(Math.abs(difference));
  return difference > 0 ? t('warmer', { n }) : t('colder', { n });
}
