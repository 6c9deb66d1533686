// Saved places: open, save (☆ Save on the card), rename (in the row), move up or down (when there
// is more than one), remove. Each shows the weather the server's cache has for it (no upstream
// call). Kept in this browser too, so the list shows offline.
import { badgePlaces } from './alerts.js';
import { api } from './api.js';
import { i18n, t } from './i18n.js';
import { setIcon } from './icons.js';
import { hideNotice, showNotice } from './card.js';
import { $, el } from './dom.js';
import { KEYS, store } from './storage.js';
import { showPlace } from './map.js';
import { sameTarget, state } from './state.js';
import { shortTemp } from './units.js';
import { loadWeather } from './weather.js';


/** Loads this device's places; the first call also gives the browser its device cookie. */
export async function loadPlaces() {
  try {
    const list = await api(`/api/v1/places?lang=${encodeURIComponent(i18n.code || 'en')}`);
    store.set(KEYS.places, list);
    renderPlaces(list);
    badgePlaces(list);
  } catch (_) {
    renderPlaces(store.get(KEYS.places, []));
  }
}

function button(label, text, testid, onClick, disabled = false) {
  const b = el('button', { type: 'button', className: 'ghost', text, ariaLabel: label, disabled, dataset: { testid } });
  b.addEventListener('click', onClick);
  return b;
}

/** "★ Saved" when the place shown is one of the saved places, "☆ Save" otherwise. */
function updateSaveButton(list = store.get(KEYS.places, [])) {
  const button = $('save-place');
  const target = state.target;
  const saved = Boolean(target) && list.some((p) => Math.abs(p.latitude - target.lat) < 0.001 && Math.abs(p.longitude - target.lon) < 0.001);
  button.textContent = saved ? t('saved') : t('save');
  button.setAttribute('aria-pressed', String(saved));
  button.dataset.saved = String(saved);
}

/** The place's weather at a glance (from the server's cache): icon and temperature, or nothing. */
function glance(p) {
  const now = p.now;
  if (!now || typeof now.temperature !== 'number') return el('span', { className: 'glance' });
  const icon = el('span', { className: 'mini' });
  setIcon(icon, now.condition.icon, now.condition.description);
  return el('span', { className: now.stale ? 'glance old' : 'glance', dataset: { testid: 'place-now' }, title: now.condition.description },
    icon, el('span', { className: 'gtemp', text: shortTemp(now.temperature) }),
    el('span', { className: 'visually-hidden', text: `, ${now.condition.description}` }));
}

function renderPlaces(list) {
  updateSaveButton(list);
  $('places-empty').hidden = list.length > 0;
  // The alert and rain controls are for saved places: shown once there is one.
  $('notify-row').hidden = list.length === 0;
  const several = list.length > 1;
  $('places-list').replaceChildren(...list.map((p, i) => {
    const label = p.displayName;
    const sub = [p.customName ? p.name : null, p.region, p.country].filter(Boolean).join(', ');
    const open = el('button', { type: 'button', className: 'open', dataset: { testid: 'place-open' } }, label, el('small', { text: sub }));
    open.addEventListener('click', () => openPlace(p));
    // The row's actions together, on one line (they wrapped two and two on a phone).
    const actions = el('span', { className: 'place-actions' },
      button(t('renamePlace', { name: label }), '✎', 'place-rename', () => renamePlace(p, li)));
    const li = el('li', { dataset: { testid: 'place-item', id: String(p.id) } }, open, glance(p), actions);
    if (several) {
      actions.append(button(t('moveUp', { name: label }), '↑', 'place-up', () => movePlace(list, i, -1), i === 0),
        button(t('moveDown', { name: label }), '↓', 'place-down', () => movePlace(list, i, 1), i === list.length - 1));
    }
    actions.append(button(t('removePlace', { name: label }), '×', 'place-remove', () => removePlace(p)));
    if (state.target && sameTarget(state.target, { lat: p.latitude, lon: p.longitude })) li.className = 'current';
    return li;
  }));
}

/** Opens saved place `id` (a notification's `/?place=<id>`), fetching its weather afresh. */
export function openSavedPlace(id) {
  const p = store.get(KEYS.places, []).find((x) => String(x.id) === String(id));
  if (p) openPlace(p);
  return Boolean(p);
}

function openPlace(p) {
  // On a phone the list is below the card: go to the weather, its top just under the sticky header.
  // The header folds past 80 px of scroll and unfolds near the top (js/layout.js): it is given the
  // state it will have where the page goes before it is measured, or it would change there and the
  // page would move by the difference (the card's top hidden under an unfolded header).
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const bar = document.querySelector('.bar');
  const measure = () => $('weather').getBoundingClientRect().top + window.scrollY - bar.getBoundingClientRect().height - 8;
  let top = measure();
  const folded = bar.classList.contains('folded');
  if (top > 80 && !folded) { bar.classList.add('folded'); top = measure(); }
  else if (top < 16 && folded) { bar.classList.remove('folded'); top = measure(); }
  window.scrollTo({ top: Math.max(0, top), behavior: reduce ? 'auto' : 'smooth' });
  const target = { lat: p.latitude, lon: p.longitude, name: p.displayName, region: p.region, country: p.country, here: false };
  showPlace(p.latitude, p.longitude, p.displayName);
  loadWeather(target).then(() => renderPlaces(store.get(KEYS.places, [])));
}

async function savePlace() {
  const doc = state.doc;
  if (!doc || !state.target) return;
  try {
    const saved = await api('/api/v1/places', {
      method: 'POST',
      body: {
        latitude: state.target.lat, longitude: state.target.lon, name: doc.place.name, region: doc.place.region || null,
        country: doc.place.country || '', countryCode: doc.place.countryCode || null, timezone: doc.place.timezone || null,
      },
    });
    const already = store.get(KEYS.places, []).some((p) => p.id === saved.id);
    showNotice(already ? t('alreadySaved', { name: doc.place.name }) : t('savedPlace', { name: doc.place.name }));
    loadPlaces();
  } catch (e) {
    showNotice(e.kind === 'offline' ? t('savingOffline') : t('couldNotSave', { why: e.detail || e.kind }));
  }
}

/** Renames in the row: a field with the custom name (empty clears it); Enter or ✓ saves, Escape cancels. */
function renamePlace(p, li) {
  const input = el('input', { type: 'text', value: p.customName || '', maxLength: 100, placeholder: p.name,
    ariaLabel: t('customName', { name: p.name }), dataset: { testid: 'place-rename-input' } });
  const form = el('form', { className: 'rename', dataset: { testid: 'place-rename-form' } }, input,
    el('button', { type: 'submit', className: 'ghost', text: '✓', ariaLabel: t('saveName'), dataset: { testid: 'place-rename-save' } }),
    button(t('cancel'), '✕', 'place-rename-cancel', () => renderPlaces(store.get(KEYS.places, []))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api(`/api/v1/places/${p.id}`, { method: 'PATCH', body: { customName: input.value.trim() || null } });
      await loadPlaces();
    } catch (e) { showNotice(t('couldNotRename', { why: e.detail || e.kind })); }
  });
  input.addEventListener('keydown', (event) => { if (event.key === 'Escape') renderPlaces(store.get(KEYS.places, [])); });
  li.replaceChildren(form);
  input.focus();
  input.select();
}

async function movePlace(list, index, delta) {
  const ids = list.map((p) => p.id);
  const [moved] = ids.splice(index, 1);
  ids.splice(index + delta, 0, moved);
  try {
    const updated = await api('/api/v1/places/order', { method: 'PUT', body: { ids } });
    store.set(KEYS.places, updated);
    renderPlaces(updated);
    const buttons = $('places-list').querySelectorAll(delta < 0 ? '[data-testid=place-up]' : '[data-testid=place-down]');
    const focus = buttons[index + delta];
    if (focus && !focus.disabled) focus.focus();
  } catch (e) { showNotice(t('couldNotReorder', { why: e.detail || e.kind })); }
}

async function removePlace(p) {
  const before = store.get(KEYS.places, []);
  const position = before.findIndex((x) => x.id === p.id);
  try {
    await api(`/api/v1/places/${p.id}`, { method: 'DELETE' });
    await loadPlaces();
    // Undo for a few seconds: the place comes back where it was, with its custom name.
    showNotice(t('removedPlace', { name: p.displayName }), false, 'removed');
    const undo = el('button', { type: 'button', className: 'ghost', text: t('undo'), dataset: { testid: 'undo-remove' } });
    undo.addEventListener('click', async () => {
      try {
        const back = await api('/api/v1/places', { method: 'POST', body: {
          latitude: p.latitude, longitude: p.longitude, name: p.name, customName: p.customName || null, region: p.region || null,
          country: p.country || '', countryCode: p.countryCode || null, timezone: p.timezone || null,
        } });
        const ids = store.get(KEYS.places, []).map((x) => x.id).filter((id) => id !== back.id);
        ids.splice(Math.max(0, position), 0, back.id);
        await api('/api/v1/places/order', { method: 'PUT', body: { ids } });
        hideNotice();
        loadPlaces();
      } catch (e) { showNotice(t('couldNotUndo', { why: e.detail || e.kind })); }
    });
    $('notice').append(' ', undo);
    clearTimeout(removePlace.timer);
    removePlace.timer = setTimeout(() => { if ($('notice').dataset.kind === 'removed') hideNotice(); }, 6000);
  } catch (e) { showNotice(t('couldNotRemove', { why: e.detail || e.kind })); }
}

export function initPlaces() {
  $('save-place').addEventListener('click', savePlace);
  document.addEventListener('brolly:rendered', () => updateSaveButton());
}
