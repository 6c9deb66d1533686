// The page in the user's language: the browser's languages (or the one chosen in the switch, which
// is remembered) pick a file of /lang/<code>.json — the same file the server and the CLI use, so
// adding a language is adding that one file. The first paint's language comes in the page itself
// (BOOT.texts: that file over en.json, written by the server): no English is written in the page's
// code, and a text another language lacks is shown in English.
import { api } from './api.js';
import { BOOT, early } from './boot.js';
import { KEYS, store } from './storage.js';

const FIRST = BOOT.texts || { code: 'en', page: {}, text: {}, conditions: {} };
/** The texts a missing one is taken from: English (the first paint's are over English). */
let EN = FIRST;
export const i18n = { code: FIRST.code, page: FIRST.page, text: FIRST.text, conditions: FIRST.conditions };

/** Languages written right to left. */
const RTL = ['ar', 'fa', 'he', 'ur'];

/** The language the address asks for (`/?lang=ru`), else the chosen one, else the browser's first. */
export function preferredLanguage() {
  // The page's first lines chose it already (the same rules, before any module).
  if (early.lang) return early.lang;
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (asked && /^[a-z]{2,3}$/i.test(asked)) return asked.toLowerCase();
  const saved = store.get(KEYS.language, null);
  if (saved) return saved;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const code = String(tag).toLowerCase().split('-')[0];
    if (/^[a-z]{2,3}$/.test(code)) return code;
  }
  return 'en';
}

/** A text of a language file: its page's own, else the one it shares with the CLI and the API. */
const lookup = (file, key) => (file.page && file.page[key] !== undefined ? file.page[key] : file.text ? file.text[key] : undefined);

/** A page text by key in the page's language (else English), with `{name}` filled in. */
export function t(key, vars = {}) {
  let s = lookup(i18n, key);
  if (s === undefined) s = lookup(EN, key);
  if (s === undefined) return key;
  if (typeof s === 'string') for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

/** A condition's description in the page's language (WMO codes have their own texts), as given otherwise. */
export function conditionText(condition) {
  if (!condition) return '';
  const local = i18n.conditions && i18n.conditions[String(condition.code)];
  return local ? local[1] : condition.description;
}

/** Whether a text is at hand: the first paint's data carries only the texts the page's code uses
 *  (the server wrote the HTML's own in that language); another language's file has them all. */
const known = (key) => lookup(i18n, key) !== undefined || lookup(EN, key) !== undefined;

/** Texts in the HTML: `data-i18n` (text), `data-i18n-label` (aria-label), `data-i18n-placeholder`;
 *  one the texts at hand lack keeps what the server wrote. */
export function applyStatic() {
  document.documentElement.lang = i18n.code;
  // Arabic (and any right-to-left language) mirrors the page.
  document.documentElement.dir = RTL.includes(i18n.code) ? 'rtl' : 'ltr';
  document.querySelectorAll('[data-i18n]').forEach((e) => { if (known(e.dataset.i18n)) e.textContent = t(e.dataset.i18n); });
  document.querySelectorAll('[data-i18n-label]').forEach((e) => { if (known(e.dataset.i18nLabel)) e.setAttribute('aria-label', t(e.dataset.i18nLabel)); });
  document.querySelectorAll('[data-i18n-title]').forEach((e) => { if (known(e.dataset.i18nTitle)) e.title = t(e.dataset.i18nTitle); });
  // Leaflet's zoom buttons, when the map was made before the language's texts arrived.
  for (const [cls, key] of [['in', 'zoomIn'], ['out', 'zoomOut']]) {
    document.querySelectorAll(`.leaflet-control-zoom-${cls}`).forEach((e) => { e.title = t(key); e.setAttribute('aria-label', t(key)); });
  }
  document.querySelectorAll('[data-i18n-minutes]').forEach((e) => { e.textContent = t('minutesShort', { n: e.dataset.i18nMinutes }); });
  document.querySelectorAll('[data-i18n-placeholder]').forEach((e) => { if (known(e.dataset.i18nPlaceholder)) e.placeholder = t(e.dataset.i18nPlaceholder); });
  document.querySelectorAll('[data-i18n-content]').forEach((e) => { if (known(e.dataset.i18nContent)) e.setAttribute('content', t(e.dataset.i18nContent)); });
  document.title = `Brolly — ${t('weather')}`;
}

/** Loads the language's file (English needs none); a language without a file stays English. */
export async function loadLanguage(code) {
  store.cookie('brolly_lang', code);
  if (code === FIRST.code) {
    Object.assign(i18n, { code, page: FIRST.page, text: FIRST.text, conditions: FIRST.conditions });
  } else {
    i18n.code = code;
    try {
      // English too when the first paint's texts were another language's (a missing text falls back to it).
      const [file, en] = await Promise.all([api(`/lang/${code}.json`, { counted: false }),
        FIRST.code === 'en' ? FIRST : api('/lang/en.json', { counted: false })]);
      EN = en;
      Object.assign(i18n, { page: file.page, text: file.text, conditions: file.conditions });
    } catch (_) {
      Object.assign(i18n, { code: FIRST.code, page: FIRST.page, text: FIRST.text, conditions: FIRST.conditions });
    }
  }
  applyStatic();
}

/** The language switch: the languages there are files for; a choice is remembered and applied. */
export async function initLanguageSwitch(select) {
  try {
    const list = BOOT.languages || await api('/lang/index.json', { counted: false });
    select.replaceChildren(...list.map((l) => {
      const o = document.createElement('option');
      o.value = l.code; o.textContent = l.name; o.selected = l.code === i18n.code;
      return o;
    }));
  } catch (_) { /* offline: the switch keeps what it has */ }
  select.addEventListener('change', () => { store.set(KEYS.language, select.value); window.location.reload(); });
}
