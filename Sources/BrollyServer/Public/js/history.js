// The lookup history: every lookup with its time, address and weather, kept in this browser too
// so that it reads with no network at all.
import { conditionText, t } from './i18n.js';
import { api, isWeatherDocument } from './api.js';
import { region, render, showNotice } from './card.js';
import { $, el, localTime, text } from './dom.js';
import { KEYS, store } from './storage.js';
import { showPlace } from './map.js';
import { state } from './state.js';
import { tempText } from './units.js';

const empty = () => ({ items: [], details: {} });

export async function loadHistory() {
  const cached = store.get(KEYS.history, empty());
  try {
    const data = await api('/api/v1/history?limit=50');
    const items = data && Array.isArray(data.items) ? data.items : [];
    const details = {};
    for (const item of items.slice(0, 20)) if (cached.details[item.id]) details[item.id] = cached.details[item.id];
    store.set(KEYS.history, { items, details });
    text('history-status', items.length ? '' : t('historyEmpty'));
    renderHistory(items);
    // Keep the most recent entries whole, so they open offline.
    for (const item of items.slice(0, 10)) {
      if (details[item.id]) continue;
      try {
        const full = await api(`/api/v1/history/${item.id}`);
        const now = store.get(KEYS.history, empty());
        now.details[item.id] = full;
        store.set(KEYS.history, now);
      } catch (_) { break; }
    }
  } catch (_) {
    text('history-status', cached.items.length ? t('historyOfflineSaved') : t('historyNeedsConnection'));
    renderHistory(cached.items);
  }
}

function renderHistory(items) {
  $('history-clear').hidden = items.length === 0;
  $('history-list').replaceChildren(...items.map((item) => {
    const summary = `${tempText(item.temperature)}, ${conditionText(item.condition)}`;
    // A diary: one line per lookup — when, the place's short name, the weather; the full street
    // address is the line's title.
    const where = item.address && item.address.display ? item.address.display : `${item.latitude.toFixed(3)}, ${item.longitude.toFixed(3)}`;
    const open = el('button', { type: 'button', className: 'open', title: where, dataset: { testid: 'history-open' } },
      el('span', { className: 'when', text: localTime(item.createdAt) }), ` ${item.placeName} · ${summary}`);
    open.addEventListener('click', () => openHistory(item));
    const remove = el('button', { type: 'button', className: 'ghost', text: '×', ariaLabel: t('deleteFromHistory', { name: item.placeName }), dataset: { testid: 'history-delete' } });
    remove.addEventListener('click', () => deleteEntry(item));
    return el('li', { dataset: { testid: 'history-item', id: String(item.id) } }, open, remove);
  }));
}

async function openHistory(item) {
  let full = store.get(KEYS.history, empty()).details[item.id];
  if (!full) {
    try { full = await api(`/api/v1/history/${item.id}`); } catch (_) {
      showNotice(t('historyOffline'));
      return;
    }
  }
  if (!full || !isWeatherDocument(full.weather)) return;
  if (full.address && full.address.display) full.weather.addressLine = full.address.display;
  state.viewing = { weather: full.weather, note: t('fromHistory', { when: localTime(full.createdAt) }), createdAt: full.createdAt };
  render(full.weather, { historyNote: state.viewing.note });
  showPlace(full.latitude, full.longitude, full.placeName);
  region.focus();
}

async function deleteEntry(item) {
  try {
    await api(`/api/v1/history/${item.id}`, { method: 'DELETE' });
    loadHistory();
  } catch (e) { showNotice(t('couldNotDelete', { why: e.detail || e.kind })); }
}

export function initHistory() {
  $('history-clear').addEventListener('click', async () => {
    if (!window.confirm(t('confirmClearHistory'))) return;
    try {
      await api('/api/v1/history', { method: 'DELETE' });
      store.set(KEYS.history, empty());
      loadHistory();
    } catch (e) { showNotice(t('couldNotClear', { why: e.detail || e.kind })); }
  });
}
