// The view's table fields (the weather document's `fields`) among the details, before the rain:
// each named by its key (the language files' key too) and shown as its kind, so the page names
// none of them. With the rest of the page after the first paint: the details below the card.
import { $, el } from './dom.js';
import { t } from './i18n.js';
import { tempText } from './units.js';

/** How the page shows a value of each kind. */
const kinds = { temperature: (v) => tempText(v) };

/** Shows `fields` of the conditions now, `c`; a field without a value, or of a kind the page does
 * not know, is left out. */
export function renderFields(fields, c) {
  const rain = $('rain').closest('li');
  for (const li of [...$('facts').querySelectorAll('li[data-field]')]) li.remove();
  for (const f of fields) {
    const show = kinds[f.kind];
    if (!show || typeof c[f.key] !== 'number') continue;
    const id = f.key.replace(/[A-Z]/g, (m) => '-' + m.toLowerCase());
    rain.before(el('li', { dataset: { field: f.key } },
      el('span', { className: 'term', dataset: { i18n: f.key }, text: t(f.key) }), ' ',
      el('span', { className: 'value', id, dataset: { testid: id }, text: show(c[f.key]) })));
  }
}
