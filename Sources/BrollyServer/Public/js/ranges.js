// Each day's 80 % range (issue 51), drawn once the rest of the page is here (kept out of the first
// paint's bytes): a faint band behind the day's bar from the low's 10th to the high's 90th
// percentile, on the bars' own scale, and the high's range in the row's title and for a screen
// reader. Drawn again after every render (a unit switch, another place).
import { el } from './dom.js';
import { t } from './i18n.js';
import { shortTemp } from './units.js';
import { weekScale } from './days.js';

export function renderRanges(doc) {
  if (!doc || !Array.isArray(doc.days)) return;
  const days = doc.days.slice(0, 14);
  const week = weekScale(days);
  const span = Math.max(1, week.max - week.min);
  const at = (c) => `${((c - week.min) / span) * 100}%`;
  document.querySelectorAll('#days > li').forEach((li, i) => {
    const d = days[i];
    const lowR = d && d.temperatureMinRange, highR = d && d.temperatureMaxRange;
    const bar = li.querySelector('.rangebar');
    if (!bar || !Array.isArray(lowR) || !Array.isArray(highR) || bar.querySelector('.spread')) return;
    bar.prepend(el('span', { className: 'spread', style: { left: at(lowR[0]), width: `${Math.max(4, ((highR[1] - lowR[0]) / span) * 100)}%` } }));
    const range = `${shortTemp(highR[0])}–${shortTemp(highR[1])}`;
    const high = li.querySelector('.dhigh');
    if (high) high.title = `${t('max')} ${range}`;
    li.append(el('span', { className: 'visually-hidden drange', text: ` (${range})` }));
  });
}
