// The page laid out for a glance: the details a compact grid until opened (remembered), the hour
// strip showing, by a fade at its edge, that more hours lie past it, and the header folding to its
// first line (the name and the search) once the page is scrolled, so that it does not keep a
// phone's screen.
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

/** The header folded past 80 px of scroll, unfolded back near the top (apart, so it cannot flicker). */
function foldHeader() {
  const bar = document.querySelector('.bar');
  const y = window.scrollY;
  if (y > 80 && !bar.classList.contains('folded')) bar.classList.add('folded');
  else if (y < 16 && bar.classList.contains('folded')) bar.classList.remove('folded');
}

export function initLayout() {
  let queued = false;
  window.addEventListener('scroll', () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; foldHeader(); });
  }, { passive: true });
  foldHeader();
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
