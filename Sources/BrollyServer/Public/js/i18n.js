// The page in the user's language: the browser's languages (or the one chosen in the switch, which
// is remembered) pick a file of /lang/<code>.json — the same file the server and the CLI use, so
// adding a language is adding that one file. English is built in; other texts arrive with the file
// and the page is re-rendered in them.
import { api } from './api.js';
import { KEYS, store } from './storage.js';
export const i18n = { code: 'en', page: null, text: null, conditions: null };

/** Languages written right to left. */
const RTL = ['ar', 'fa', 'he', 'ur'];

/** The language the address asks for (`/?lang=ru`), else the chosen one, else the browser's first. */
export function preferredLanguage() {
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

/** A page text by key, with `{name}` filled in; the English `fallback` when there is none. */
export function t(key, fallback, vars = {}) {
  // The page's own texts, else the ones it shares with the CLI and the API (moon, air, units…).
  let s = (i18n.page && i18n.page[key] !== undefined) ? i18n.page[key] : (i18n.text && i18n.text[key] !== undefined) ? i18n.text[key] : fallback;
  if (typeof s === 'string') for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

/** A condition's description in the page's language (WMO codes have their own texts), as given otherwise. */
export function conditionText(condition) {
  if (!condition) return '';
  const local = i18n.conditions && i18n.conditions[String(condition.code)];
  return local ? local[1] : condition.description;
}

/** Texts in the HTML: `data-i18n` (text), `data-i18n-label` (aria-label), `data-i18n-placeholder`. */
export function applyStatic() {
  document.documentElement.lang = i18n.code;
  // Arabic (and any right-to-left language) mirrors the page.
  document.documentElement.dir = RTL.includes(i18n.code) ? 'rtl' : 'ltr';
  if (!i18n.page) return;
  document.querySelectorAll('[data-i18n]').forEach((e) => { const v = t(e.dataset.i18n, null); if (typeof v === 'string') e.textContent = v; });
  document.querySelectorAll('[data-i18n-label]').forEach((e) => { const v = t(e.dataset.i18nLabel, null); if (typeof v === 'string') e.setAttribute('aria-label', v); });
  document.querySelectorAll('[data-i18n-title]').forEach((e) => { const v = t(e.dataset.i18nTitle, null); if (typeof v === 'string') e.title = v; });
  // Leaflet's zoom buttons, when the map was made before the language's texts arrived.
  for (const [cls, key, en] of [['in', 'zoomIn', 'Zoom in'], ['out', 'zoomOut', 'Zoom out']]) {
    document.querySelectorAll(`.leaflet-control-zoom-${cls}`).forEach((e) => { e.title = t(key, en); e.setAttribute('aria-label', t(key, en)); });
  }
  document.querySelectorAll('[data-i18n-minutes]').forEach((e) => { e.textContent = t('minutesShort', `${e.dataset.i18nMinutes} min`, { n: e.dataset.i18nMinutes }); });
  document.querySelectorAll('[data-i18n-placeholder]').forEach((e) => { const v = t(e.dataset.i18nPlaceholder, null); if (typeof v === 'string') e.placeholder = v; });
}

/** Loads the language's file (English needs none); a language without a file stays English. */
export async function loadLanguage(code) {
  i18n.code = code;
  if (code === 'en') return;
  try {
    const file = await api(`/lang/${code}.json`, { counted: false });
    i18n.page = file.page;
    i18n.text = file.text;
    i18n.conditions = file.conditions;
  } catch (_) {
    i18n.code = 'en';
    i18n.page = null;
    i18n.text = null;
  }
  applyStatic();
}

/** The language switch: the languages there are files for; a choice is remembered and applied. */
export async function initLanguageSwitch(select) {
  try {
    const list = await api('/lang/index.json', { counted: false });
    select.replaceChildren(...list.map((l) => {
      const o = document.createElement('option');
      o.value = l.code; o.textContent = l.name; o.selected = l.code === i18n.code;
      return o;
    }));
  } catch (_) { /* offline: the switch keeps what it has */ }
  select.addEventListener('change', () => { store.set(KEYS.language, select.value); window.location.reload(); });
}
