// Rain alerts and the morning summary: the settings a push subscription carries (how early, how
// much rain counts, quiet hours, the summary's time), remembered in this browser, sent with the
// subscription when notifications are turned on, and sent again (PATCH) whenever they change.
import { api } from './api.js';
import { $ } from './dom.js';
import { i18n, t } from './i18n.js';
import { state } from './state.js';
import { KEYS, store } from './storage.js';

const DEFAULTS = {
  rain: { enabled: true, leadMinutes: 20, minimum: 'light', quietHours: { from: '22:00', to: '07:00' } },
  morning: { enabled: false, at: '07:00' },
};

function remembered() {
  const s = store.get(KEYS.pushSettings, null);
  return s && s.rain && s.morning ? s : DEFAULTS;
}

/** What a subscription is sent: the settings, the page's language and units. */
export function pushSettings() {
  return { ...remembered(), language: i18n.code, units: state.units === 'F' ? 'imperial' : state.units === 'K' ? 'standard' : 'metric' };
}

/** Whether this browser receives pushes: the "Notify me" switch is on (a subscription exists). */
const subscribed = () => $('notify').checked;

/** The settings as the panel has them. Whether rain alerts and the morning summary are wanted only
 *  changes when that box is the one `changed` (a box shows unticked while nothing can arrive). */
function read(changed) {
  const before = remembered();
  const wanted = (id, was) => (changed === $(id) ? $(id).checked : was);
  return {
    rain: {
      enabled: wanted('rain-enabled', before.rain.enabled),
      leadMinutes: Number($('rain-lead').value),
      minimum: $('rain-minimum').value,
      quietHours: $('quiet-enabled').checked ? { from: $('quiet-from').value || '22:00', to: $('quiet-to').value || '07:00' } : null,
    },
    morning: { enabled: wanted('morning-enabled', before.morning.enabled), at: $('morning-at').value || '07:00' },
  };
}

/** The panel: a box ticked only when what it asks for can arrive (notifications on); else each says
 *  what it needs, and ticking one turns notifications on (the browser asks once). */
function show(s) {
  const on = subscribed();
  $('push-needs').hidden = on;
  $('rain-enabled').checked = on && s.rain.enabled;
  $('rain-lead').value = String(s.rain.leadMinutes);
  $('rain-minimum').value = s.rain.minimum;
  $('quiet-enabled').checked = Boolean(s.rain.quietHours);
  if (s.rain.quietHours) {
    $('quiet-from').value = s.rain.quietHours.from;
    $('quiet-to').value = s.rain.quietHours.to;
  }
  $('morning-enabled').checked = on && s.morning.enabled;
  $('morning-at').value = s.morning.at;
}

/** Says which places the server's rain watcher cannot watch now (its allowance is spent). */
function showUnwatched(doc) {
  const note = $('push-unwatched');
  const places = (doc && doc.unwatched) || [];
  note.hidden = places.length === 0;
  note.textContent = places.length ? t('pushUnwatched', { places: places.map((p) => p.name).join(', ') }) : '';
}

/** Asks the server for this browser's subscription: is every place watched? */
export async function checkWatched() {
  const saved = store.get(KEYS.notify, null);
  if (!saved || !saved.id) return;
  try {
    const list = await api('/api/v1/push/subscriptions', { counted: false });
    showUnwatched((list.items || []).find((s) => s.id === saved.id));
  } catch {
    // Unknown: nothing is said.
  }
}

/** Sends the settings to the subscription this browser has, if any. */
export async function syncPushSettings() {
  const saved = store.get(KEYS.notify, null);
  if (!saved || !saved.id) return;
  const settings = pushSettings();
  try {
    showUnwatched(await api(`/api/v1/push/subscriptions/${saved.id}`, { method: 'PATCH', body: settings }));
    store.set(KEYS.notify, { ...saved, language: settings.language, units: settings.units });
    $('push-settings-status').textContent = t('pushSaved');
  } catch (e) {
    $('push-settings-status').textContent = `${t('pushNotSaved')} ${e.message || e.kind || ''}`;
  }
}

/** Sends the page's language and units when they are not what the subscription has (the texts of
 *  rain and morning pushes follow the page). */
export function syncLanguageAndUnits() {
  const saved = store.get(KEYS.notify, null);
  const now = pushSettings();
  if (saved && saved.id && (saved.language !== now.language || saved.units !== now.units)) syncPushSettings();
}

export function initPushSettings() {
  show(remembered());
  checkWatched();
  $('push-settings').addEventListener('change', (e) => {
    store.set(KEYS.pushSettings, read(e.target));
    const asks = e.target === $('rain-enabled') || e.target === $('morning-enabled');
    if (asks && e.target.checked && !subscribed()) {
      // The first one switched on: notifications on, with the browser's one permission prompt.
      $('notify').checked = true;
      $('notify').dispatchEvent(new Event('change'));
      return;
    }
    syncPushSettings();
  });
  // Notifications switched on or off (or failing to): the boxes say what can arrive now.
  document.addEventListener('brolly:notify', () => show(remembered()));
}
