// The coming days: a row each (name, condition, chance and amount, the range on the fortnight's
// scale), the second week labelled as less certain, and every day a button that opens its hours
// beneath it (as the apps people like do).
import { api, weatherURL } from './api.js';
import { el } from './dom.js';
import { i18n, t } from './i18n.js';
import { state } from './state.js';
import { setIcon } from './icons.js';
import { amountText, shortTemp } from './units.js';

/** Every hour the forecast has (the answer carries 48), asked for once per place when a later day
 *  is opened: the same cached forecast, no call upstream. */
let every = { url: null, hours: null };
function allHours() {
  const url = `${weatherURL(state.target)}&hours=384`;
  if (every.url !== url) every = { url, hours: api(url).then((doc) => doc.hours) };
  return every.hours;
}

/** A colour for a temperature in °C, as the apps people like colour their bars: violet-blue in
 *  hard frost, blue at freezing, green when mild, yellow when warm, red in a heat wave. */
const WARMTH = [[-20, 250], [0, 210], [10, 175], [18, 120], [25, 50], [32, 25], [40, 0]];
export function warmth(celsius) {
  const c = Math.min(40, Math.max(-20, celsius));
  const i = Math.max(1, WARMTH.findIndex(([at]) => at >= c));
  const [[c0, h0], [c1, h1]] = [WARMTH[i - 1], WARMTH[i]];
  return `hsl(${Math.round(h0 + ((c - c0) / (c1 - c0)) * (h1 - h0))} 80% 55%)`;
}

/** "12/5", "05.12": the day and the month as the page's language writes them, in digits (a
 *  month's name did not fit a 360 px phone's row in Russian). */
const dayAndMonth = (date) => date.toLocaleDateString(i18n.code, { day: 'numeric', month: 'numeric', timeZone: 'UTC' });

/** The fortnight's scale of the days' bars (°C, ranges included), and where `c` falls on it. */
export function weekScale(days) {
  const min = Math.min(...days.map((d) => (d.temperatureMinRange ? d.temperatureMinRange[0] : d.temperatureMin)));
  const max = Math.max(...days.map((d) => (d.temperatureMaxRange ? d.temperatureMaxRange[1] : d.temperatureMax)));
  return { min, max };
}

/** A local ISO time's clock, `07:41`. */
const clock = (iso) => String(iso).slice(11, 16);

/** The row of day `d` (`index` from today); `hours`: the answer's hours, the day's opened from it. */
export function dayItem(d, index, isSnapshot, week, hours = []) {
  const date = new Date(`${d.date}T12:00:00Z`);
  // A history snapshot's first day is the day of the lookup, not today.
  const weekday = t('weekdays')[date.getUTCDay()] || d.date;
  // Past a week the same weekday comes again: its date too, with its month (the next may differ),
  // written as the reader's language writes a date.
  const label = index === 0 && !isSnapshot ? t('today') : index >= 7 ? `${weekday} ${dayAndMonth(date)}` : weekday;
  const own = hours.filter((h) => String(h.time).startsWith(d.date));
  const panelId = `day-hours-${index}`;
  // A history entry's days open only the hours it kept; the live forecast's, every day's.
  const opens = own.length > 0 || (!isSnapshot && state.target && Number.isFinite(state.target.lat));
  const name = opens
    ? el('button', { type: 'button', className: 'dname', title: d.date, text: label, ariaExpanded: 'false', ariaControls: panelId })
    : el('span', { className: 'dname', title: d.date, text: label });
  const icon = el('span', { className: 'mini' });
  setIcon(icon, d.condition.icon, d.condition.description);
  // The day's range drawn across the fortnight's range, in columns of the same width on every row
  // (the bars line up on one scale).
  // Coloured by the temperatures themselves (cold blue to hot red), with a dot for now on today's.
  const span = Math.max(1, week.max - week.min);
  const at = (c) => `${((c - week.min) / span) * 100}%`;
  const fill = el('span', { className: 'fill', style: {
    left: at(d.temperatureMin), width: `${Math.max(4, ((d.temperatureMax - d.temperatureMin) / span) * 100)}%`,
    background: `linear-gradient(90deg, ${warmth(d.temperatureMin)}, ${warmth(d.temperatureMax)})`,
  } });
  const dot = index === 0 && typeof week.now === 'number'
    ? el('span', { className: 'now-dot', style: { left: at(Math.min(week.max, Math.max(week.min, week.now))) } }) : null;
  const bar = el('span', { className: 'rangebar', ariaHidden: 'true' }, fill, ...(dot ? [dot] : []));
  // The day's chance and amount, one above the other.
  const chance = el('span', { className: 'dchance', title: t('chanceOfRain') },
    el('span', { text: typeof d.precipitationProbability === 'number' ? `💧${Math.round(d.precipitationProbability)}%` : '' }),
    el('span', { className: 'damount', text: typeof d.precipitation === 'number' && d.precipitation > 0 ? amountText(d.precipitation) : '' }));
  const li = el('li', {}, name, icon, el('span', { className: 'ddesc', text: d.condition.description }), chance,
    el('span', { className: 'dlow', text: shortTemp(d.temperatureMin), title: t('min') }), bar,
    el('span', { className: 'dhigh', text: shortTemp(d.temperatureMax), title: t('max') }));
  if (index >= 7) {
    // The second week: forecasts this far ahead are less certain, and the page says so (above its
    // first day, and to a screen reader on each).
    li.classList.add('later');
    li.title = t('lessCertain');
    li.append(el('span', { className: 'visually-hidden', text: ` (${t('lessCertain')})` }));
    if (index === 7) {
      li.classList.add('first-later');
      li.prepend(el('span', { className: 'week-label', ariaHidden: 'true', text: t('lessCertain') }));
    }
  }
  if (opens) {
    const panel = el('div', { className: 'day-hours', id: panelId, hidden: true });
    const fill = (list) => {
      // Sunrise and sunset, then the day's hours.
      const sun = d.sunrise && d.sunset ? el('p', { className: 'dh-sun', text: `↑ ${clock(d.sunrise)} · ↓ ${clock(d.sunset)}`, title: t('sun') }) : null;
      const cells = el('div', { className: 'dh-list', role: 'list', ariaLabel: `${label}: ${t('hourlyForecast')}` }, ...list.map(hourCell));
      panel.replaceChildren(...(sun ? [sun] : []), cells);
    };
    const toggle = () => {
      const open = name.getAttribute('aria-expanded') !== 'true';
      if (open && !panel.childElementCount) {
        if (own.length) fill(own);
        else {
          panel.append(el('p', { className: 'dh-sun', text: t('finding') }));
          allHours().then((list) => fill(list.filter((h) => String(h.time).startsWith(d.date))),
            () => panel.replaceChildren(el('p', { className: 'dh-sun', text: t('errors').offline[0] })));
        }
      }
      name.setAttribute('aria-expanded', String(open));
      panel.hidden = !open;
      li.classList.toggle('open', open);
    };
    name.addEventListener('click', (e) => { e.stopPropagation(); toggle(); });
    // The whole row opens it to a pointer; the button is what a keyboard and a screen reader use.
    li.addEventListener('click', (e) => { if (!panel.contains(e.target)) toggle(); });
    li.append(panel);
  }
  return li;
}

/** One hour of an opened day: its time, condition, temperature and chance of rain. */
function hourCell(h) {
  const icon = el('span', { className: 'mini' });
  setIcon(icon, h.condition.icon, h.condition.description);
  const chance = typeof h.precipitationProbability === 'number' ? `💧${Math.round(h.precipitationProbability)}%` : '';
  return el('div', { role: 'listitem', className: 'day-hour' },
    el('span', { className: 'dh-time', text: String(h.time).slice(11, 16) }), icon,
    el('span', { className: 'dh-temp', text: shortTemp(h.temperature) }), el('span', { className: 'dh-chance', text: chance }));
}
