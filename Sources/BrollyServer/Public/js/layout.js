// The page laid out for a glance: the details a compact grid until opened (remembered), and the
// hour strip showing, by a fade at its edge, that more hours lie past it.
import { $ } from './dom.js';
import { t } from './i18n.js';
import { KEYS, store } from './storage.js';

function setDetails(open) {
  $('details').classList.toggle('expanded', open);
  const button = $('details-toggle');
  button.setAttribute('aria-expanded', String(open));
  button.textContent = open ? t('fewerDetails') : t('moreDetails');
}

/** Marks the strip's edges that have hours past them (right to left too). */
function markScroll() {
  const hours = $('hours');
  const start = Math.abs(hours.scrollLeft);
  hours.dataset.moreEnd = String(start + hours.clientWidth < hours.scrollWidth - 2);
  hours.dataset.moreStart = String(start > 2);
}

export function initLayout() {
  setDetails(Boolean(store.get(KEYS.details, false)));
  $('details-toggle').addEventListener('click', () => {
    const open = !$('details').classList.contains('expanded');
    store.set(KEYS.details, open);
    setDetails(open);
  });
  $('hours').addEventListener('scroll', markScroll, { passive: true });
  window.addEventListener('resize', markScroll);
  document.addEventListener('brolly:rendered', () => { setDetails($('details').classList.contains('expanded')); markScroll(); });
}
