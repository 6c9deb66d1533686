// °C, °F and K, converted here so that switching works offline and makes no network call. The API
// is always asked for metric.
import { i18n, t } from './i18n.js';
import { state } from './state.js';
import { KEYS, store } from './storage.js';

export function rememberedUnits() {
  const saved = store.get(KEYS.units, 'C');
  return ['C', 'F', 'K'].includes(saved) ? saved : 'C';
}

export function saveUnits(unit) {
  state.units = unit;
  store.set(KEYS.units, unit);
  document.querySelectorAll('.units button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.unit === unit)));
}

const temp = (c) => state.units === 'F' ? c * 9 / 5 + 32 : state.units === 'K' ? c + 273.15 : c;
/** Rounded for display as the CLI rounds (halves away from zero: -21.5 → -22); never "-0". */
const whole = (v) => { const r = Math.sign(v) * Math.round(Math.abs(v)); return r === 0 ? 0 : r; };

export const tempText = (c) => state.units === 'K' ? `${whole(temp(c))} K` : `${whole(temp(c))}°${state.units}`;
export const shortTemp = (c) => state.units === 'K' ? `${whole(temp(c))}` : `${whole(temp(c))}°`;
/** A number with the page language's decimal separator (4.2 in English, 4,2 in Russian). */
const fixed = (v, digits) => v.toLocaleString(i18n.code, { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const speedText = (ms) => state.units === 'F' ? `${fixed(ms * 2.236936, 1)} mph` : `${fixed(ms, 1)} m/s`;
/** The JSON keeps the provider's precision (0.25 mm); the display rounds. */
export const amountText = (mm) => state.units === 'F' ? `${fixed(mm / 25.4, 2)} in` : `${fixed(mm, 1)} mm`;

/** "3° warmer than yesterday", "about the same as yesterday" (within 1°), in the shown unit. */
export function comparedWithYesterday(nowC, yesterdayC) {
  if (typeof yesterdayC !== 'number') return '';
  const difference = temp(nowC) - temp(yesterdayC);
  if (Math.abs(difference) < 1) return t('same', 'About the same as yesterday');
  const n = Math.round(Math.abs(difference));
  return difference > 0 ? t('warmer', `${n}° warmer than yesterday`, { n }) : t('colder', `${n}° colder than yesterday`, { n });
}
