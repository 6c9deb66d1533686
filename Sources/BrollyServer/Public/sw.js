// Brolly's service worker: keeps the app shell so the page opens with no network. Weather data is
// not cached here: the page keeps the last good answer itself and the server has its own cache.
'use strict';

const SHELL_CACHE = 'brolly-shell-v5';
const SHELL = [
  '/', '/style.css',
  '/js/main.js', '/js/state.js', '/js/dom.js', '/js/api.js', '/js/units.js', '/js/icons.js', '/js/map.js', '/js/card.js',
  '/js/storage.js', '/js/weather.js', '/js/address.js', '/js/news.js', '/js/history.js', '/js/places.js', '/js/search.js',
  '/js/location.js', '/widget', '/widget.js', '/manifest.webmanifest', '/icon.svg', '/icon-maskable.svg',
  '/vendor/leaflet/leaflet.js', '/vendor/leaflet/leaflet.css',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // One by one, so that a missing optional file (Leaflet) does not stop the install.
    await Promise.all(SHELL.map((url) => cache.add(new Request(url, { cache: 'reload' })).catch(() => undefined)));
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
  // Network first, so a new version is picked up at once; the cached shell when offline.
  event.respondWith((async () => {
    const cache = await caches.open(SHELL_CACHE);
    try {
      const response = await fetch(request);
      if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
      return response;
    } catch (err) {
      const cached = await cache.match(request, { ignoreSearch: true });
      if (cached) return cached;
      if (request.mode === 'navigate') {
        const shell = await cache.match('/');
        if (shell) return shell;
      }
      throw err;
    }
  })());
});
