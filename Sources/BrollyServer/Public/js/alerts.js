// Severe weather warnings (seed 002's "column"): a banner above the card, coloured by severity,
// each opening to its description, instruction, sender and times; a badge on saved places with
// warnings; and the "Notify me" switch that subscribes to Web Push through the service worker.
import { api } from './api.js';
import { $, el } from './dom.js';
import { t } from './i18n.js';
import { pushSettings } from './pushsettings.js';
import { KEYS, store } from './storage.js';

const ICONS = { extreme: '⛔', severe: '⚠️', moderate: '⚠️', minor: 'ℹ️', unknown: '⚠️' };

function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isFinite(d.getTime()) ? d.toLocaleString(document.documentElement.lang || [], { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }) : iso;
}

/** One paragraph of a warning's text: its lines joined (NWS wraps at 69 columns), and NWS's
 * "* WHAT...Minor flooding" bullets as "What: Minor flooding" (issue 50: the text was shown raw). */
function paragraph(text) {
  const flat = text.trim().replace(/\s*\n\s*/g, ' ');
  const bullet = /^\*\s*([A-Z][A-Z ]*[A-Z])\s*\.\.\.\s*/.exec(flat);
  if (!bullet) return el('p', { text: flat });
  const label = bullet[1].charAt(0) + bullet[1].slice(1).toLowerCase();
  return el('p', { className: 'alert-part' }, el('strong', { text: `${label}: ` }), flat.slice(bullet[0].length));
}

function alertItem(a) {
  const summary = el('summary', {},
    el('span', { className: 'alert-icon', ariaHidden: 'true', text: ICONS[a.severity] || '⚠️' }),
    el('strong', { text: a.event }),
    el('span', { className: 'alert-severity', text: ` · ${t(`sev_${a.severity}`)}` }),
    a.expires ? el('span', { className: 'alert-until', text: ` · ${t('alertUntil', { time: when(a.expires) })}` }) : '');
  const body = el('div', { className: 'alert-body' });
  if (a.headline && a.headline !== a.event) body.append(el('p', { className: 'alert-headline', text: a.headline }));
  for (const text of String(a.description || '').split(/\n\s*\n/).filter((x) => x.trim()).slice(0, 8)) {
    body.append(paragraph(text));
  }
  if (a.instruction) body.append(el('p', { className: 'alert-instruction' }, el('strong', { text: `${t('whatToDo')} ` }), a.instruction));
  // The source's own text keeps its language, marked for screen readers and translation tools.
  if (a.language) body.lang = a.language;
  const facts = [t('alertFrom', { sender: a.sender })];
  if (a.onset) facts.push(t('alertStarts', { time: when(a.onset) }));
  if (a.expires) facts.push(t('alertEnds', { time: when(a.expires) }));
  if (a.areas && a.areas.length) facts.push(t('alertAreas', { areas: a.areas.slice(0, 6).join('; ') }));
  body.append(el('p', { className: 'alert-meta', text: facts.join(' · ') }));
  if (a.url && /^https?:\/\//.test(a.url)) {
    body.append(el('p', {}, el('a', { href: a.url, target: '_blank', rel: 'noopener', text: t('issuerDetails') })));
  }
  return el('details', { className: `alert sev-${a.severity}`, dataset: { testid: 'alert', severity: a.severity } }, summary, body);
}

/** Shows the document's warnings above the card; hides the banner when there are none. */
export function renderAlerts(doc) {
  const box = $('alerts');
  const here = (doc && doc.alerts) || [];
  const elsewhere = doc && doc.alertsElsewhere;
  const items = here.map(alertItem);
  if (elsewhere && elsewhere.alerts.length) {
    const list = el('ul', {}, ...elsewhere.alerts.slice(0, 20).map((a) =>
      el('li', { text: `${a.event} (${t(`sev_${a.severity}`)}) — ${(a.areas || []).join(', ')}` })));
    items.push(el('details', { className: 'alert elsewhere', dataset: { testid: 'alerts-elsewhere' } },
      el('summary', { text: t('elsewhereIn', { country: elsewhere.country, n: elsewhere.alerts.length }) }),
      list));
  }
  box.replaceChildren(...items);
  box.hidden = items.length === 0;
}

/** A "⚠ Flood Warning" badge on each saved place with a warning (looked up after the list shows). */
export async function badgePlaces(list) {
  for (const p of list) {
    try {
      const doc = await api(`/api/v1/alerts?lat=${p.latitude.toFixed(4)}&lon=${p.longitude.toFixed(4)}`);
      const top = doc.alerts[0];
      const li = document.querySelector(`#places-list li[data-id="${p.id}"] .open`);
      if (!li) continue;
      li.querySelectorAll('.badge').forEach((b) => b.remove());
      if (top) li.append(el('span', { className: `badge sev-${top.severity}`, dataset: { testid: 'place-alert' }, text: `${ICONS[top.severity]} ${top.event}` }));
    } catch (_) { /* offline: no badge */ }
  }
}

function keyBytes(base64url) {
  const s = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(s + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function status(text) { $('notify-status').textContent = text; }

async function subscribe() {
  const severity = $('notify-severity').value;
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) throw new Error(t('notifyUnsupported'));
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(t('notifyBlocked'));
  const { publicKey } = await api('/api/v1/push/key');
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  }
  const saved = await api('/api/v1/push/subscriptions', { method: 'POST', body: { ...subscription.toJSON(), minimumSeverity: severity, ...pushSettings() } });
  store.set(KEYS.notify, { id: saved.id, severity, language: saved.language, units: saved.units });
  status(t(`notifyOn${severity[0].toUpperCase()}${severity.slice(1)}`));
}

async function unsubscribe() {
  const saved = store.get(KEYS.notify, null);
  if (saved) await api(`/api/v1/push/subscriptions/${saved.id}`, { method: 'DELETE' }).catch(() => undefined);
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : null;
  const subscription = registration && await registration.pushManager.getSubscription();
  if (subscription) await subscription.unsubscribe();
  store.set(KEYS.notify, null);
  status(t('notifyOff'));
}

export function initAlerts() {
  const saved = store.get(KEYS.notify, null);
  $('notify').checked = Boolean(saved);
  if (saved) $('notify-severity').value = saved.severity;
  const apply = async () => {
    try {
      // The browser's push service may be out of reach (offline, or a browser without one): say
      // so, in the page's language, instead of waiting for ever.
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(t('notifyNoPushService'))), 10000));
      await Promise.race([$('notify').checked ? subscribe() : unsubscribe(), timeout]);
    } catch (e) {
      $('notify').checked = false;
      // The browser's own errors (a DOMException from pushManager.subscribe: "Registration failed -
      // push service error") are English whatever the page's language: said as the push service.
      const why = e instanceof DOMException ? t('notifyNoPushService') : e.message || e.kind || '?';
      status(t('notifyFailed', { why }));
    }
    document.dispatchEvent(new CustomEvent('brolly:notify'));
  };
  $('notify').addEventListener('change', apply);
  $('notify-severity').addEventListener('change', () => { if ($('notify').checked) apply(); });
}
