// Brolly's service worker: keeps the app shell so the page opens with no network and with no round
// trip. Weather data is not cached here: the page keeps the last good answer itself and the server
// has its own cache.
'use strict';

const SHELL_CACHE = 'brolly-shell-v14';
// The page, its bundle (/app/files.json lists it: scripts/bundle.sh), the widget and its modules,
// the icons and Leaflet.
const SHELL = [
  '/', '/style.css', '/widget', '/widget.js', '/js/api.js', '/js/boot.js', '/js/i18n.js', '/js/state.js', '/js/storage.js',
  '/manifest.webmanifest', '/icon.svg', '/icon-maskable.svg', '/icon-192.png', '/icon-512.png', '/icon-maskable-512.png', '/apple-touch-icon.png',
  '/vendor/leaflet/leaflet.min.js', '/vendor/leaflet/leaflet.css',
];

/** The bundle's files as the server has them now, those not kept yet added to the cache. */
async function keepBundle(cache) {
  try {
    const response = await fetch('/app/files.json', { cache: 'no-cache' });
    if (!response.ok) return;
    const files = await response.json();
    await Promise.all(files.map(async (url) => { if (!(await cache.match(url))) await cache.add(url).catch(() => undefined); }));
  } catch (_) { /* offline: what is kept stays */ }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // One by one, so that a missing optional file (Leaflet) does not stop the install.
    await Promise.all(SHELL.map((url) => cache.add(new Request(url, { cache: 'reload' })).catch(() => undefined)));
    await keepBundle(cache);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith('brolly-') && n !== SHELL_CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/healthz') return;
  // The kept copy at once (a phone on a slow network opens the page with no round trip), brought
  // up to date behind it for the next visit; the network when nothing is kept.
  event.respondWith((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // A page is kept by its path (the page with any query is the same page).
    const navigate = request.mode === 'navigate';
    const key = navigate ? url.pathname : request;
    const kept = await cache.match(key, { ignoreSearch: navigate });
    const fresh = (async () => {
      const response = await fetch(request);
      if (response.ok && response.type === 'basic') {
        await cache.put(key, response.clone());
        if (navigate && url.pathname === '/') await keepBundle(cache);
      }
      return response;
    })();
    if (kept) {
      event.waitUntil(fresh.catch(() => undefined));
      return kept;
    }
    try {
      return await fresh;
    } catch (err) {
      // Offline at a page never kept: the app's own page.
      const shell = navigate && await cache.match('/');
      if (shell) return shell;
      throw err;
    }
  })());
});

// A push from the server (RFC 8291-encrypted; the browser decrypts it). A warning: one
// notification per warning (`tag`), titled with the event and the place. Rain ("Rain starting in
// about 20 min at Home"; a later "moved" or "no longer expected" replaces it) and the morning
// summary come with their texts written by the server in the reader's language and units.
self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (_) { data = { alert: { event: '⚠', headline: event.data && event.data.text() } }; }
  const place = data.place || {};
  const target = { url: data.url || '/', placeId: place.id };
  if (data.type === 'rain' || data.type === 'morning') {
    event.waitUntil(self.registration.showNotification(data.title || place.name || 'Brolly', {
      body: data.body || '',
      tag: `${data.type}-${place.id || ''}`,
      renotify: data.type === 'rain' && data.status !== 'cancelled',
      icon: '/icon-192.png',
      data: target,
    }));
    return;
  }
  const alert = data.alert || {};
  const title = place.name ? `${alert.event || '⚠'} — ${place.name}` : (alert.event || '⚠');
  event.waitUntil(self.registration.showNotification(title, {
    body: alert.headline || alert.description || '',
    tag: `alert-${place.id || ''}-${alert.event || ''}`,
    renotify: true,
    requireInteraction: alert.severity === 'extreme' || alert.severity === 'severe',
    icon: '/icon-192.png',
    data: target,
  }));
});

// Opening a notification focuses the app (or opens it) at that place, and always refreshes its data.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { url, placeId } = event.notification.data || {};
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const client = windows.find((c) => new URL(c.url).origin === self.location.origin);
    if (client) {
      await client.focus();
      client.postMessage({ type: 'open-place', id: placeId });
      return;
    }
    await self.clients.openWindow(url || '/');
  })());
});
