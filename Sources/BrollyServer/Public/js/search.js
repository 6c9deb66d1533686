// City search: type-ahead with region and country to tell namesakes apart, keyboard navigation,
// and Enter for the best match.
import { AppError, api, langParam } from './api.js';
import { messageFor, region, setState, showNotice } from './card.js';
import { t } from './i18n.js';
import { $, el } from './dom.js';
import { showPlace } from './map.js';
import { state } from './state.js';
import { loadWeather } from './weather.js';

const input = $('search');
const list = $('search-results');
let results = [];
let active = -1;
let timer = null;
let seq = 0;

function closeResults() {
  list.hidden = true;
  input.removeAttribute('aria-activedescendant');
  active = -1;
}

function showResults(places) {
  results = places;
  active = -1;
  list.replaceChildren(...places.map((p, i) => {
    const sub = [p.region, p.country].filter(Boolean).join(', ') + ` · ${p.latitude.toFixed(2)}, ${p.longitude.toFixed(2)}`;
    const li = el('li', { id: `result-${i}`, role: 'option', ariaSelected: 'false', dataset: { testid: 'search-result' } },
      el('strong', { text: p.name }), el('span', { className: 'sub', text: sub }));
    li.addEventListener('mousedown', (e) => { e.preventDefault(); choose(p); });
    return li;
  }));
  list.hidden = places.length === 0;
}

/** A line in the suggestions that is not a place: "no matches", "offline". */
function showNone(text) {
  results = [];
  active = -1;
  list.replaceChildren(el('li', { className: 'none', role: 'option', ariaDisabled: 'true', dataset: { testid: 'search-none' }, text }));
  list.hidden = false;
}

/** Good weather on screen is never wiped by a failed search: the failure is said beside it. */
const showing = () => region.dataset.state === 'ready' && Boolean(state.doc);

const searchPlaces = (q) => api(`/api/v1/places/search?q=${encodeURIComponent(q)}${langParam()}`);

function choose(p) {
  closeResults();
  input.value = p.name;
  showPlace(p.latitude, p.longitude, p.name);
  loadWeather({ lat: p.latitude, lon: p.longitude, name: p.name, region: p.region, country: p.country, here: false });
}

export function initSearch() {
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < 2) { closeResults(); return; }
    timer = setTimeout(async () => {
      const mine = ++seq;
      try {
        const places = await searchPlaces(q);
        if (mine !== seq || input.value.trim() !== q) return;
        if (Array.isArray(places) && places.length) showResults(places); else showNone(t('noMatches'));
      } catch (err) {
        if (mine !== seq) return;
        if (err instanceof AppError && (err.kind === 'offline' || err.kind === 'timeout')) showNone(t('searchOffline'));
        else closeResults();
      }
    }, 250);
  });

  input.addEventListener('keydown', (e) => {
    if (list.hidden) return;
    const items = list.querySelectorAll('li');
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      active = (active + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      items.forEach((li, i) => li.setAttribute('aria-selected', String(i === active)));
      input.setAttribute('aria-activedescendant', items[active].id);
    } else if (e.key === 'Escape') {
      closeResults();
    }
  });

  input.addEventListener('blur', () => setTimeout(closeResults, 150));

  $('search-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    clearTimeout(timer);
    const q = input.value.trim();
    if (!q) return;
    if (!list.hidden && active >= 0 && results[active]) { choose(results[active]); return; }
    const mine = ++seq;
    closeResults();
    const keep = showing();
    if (!keep) setState('loading');
    state.retry = () => $('search-form').requestSubmit();
    try {
      const places = await searchPlaces(q);
      if (mine !== seq) return;
      if (!Array.isArray(places) || places.length === 0) {
        const detail = t('noPlaceCalled', { q });
        if (keep) showNotice(detail, false, 'search-failed'); else setState('error', { error: 'not-found', detail });
        return;
      }
      choose(places[0]);
    } catch (err) {
      if (mine !== seq) return;
      const kind = err instanceof AppError ? err.kind : 'unreadable';
      if (keep) showNotice(`${(messageFor(kind) || messageFor('provider'))[0]}.`, false, 'search-failed');
      else setState('error', { error: kind, detail: err.detail || undefined });
    }
  });
}
