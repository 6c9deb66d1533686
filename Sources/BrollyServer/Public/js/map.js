// The map (Leaflet, when the server has it): the place at zoom 11, a dot where you are, or the
// contiguous United States when there is no place yet. Its view is mirrored in data attributes.
import { t } from './i18n.js';
import { $, el } from './dom.js';
import { state } from './state.js';

const US_BOUNDS = [[24.396308, -124.848974], [49.384358, -66.885444]];
const PLACE_ZOOM = 11;
const mapEl = $('map');
let map = null;
let marker = null;

function sync() {
  if (!map) return;
  const c = map.getCenter();
  mapEl.dataset.lat = c.lat.toFixed(4);
  mapEl.dataset.lon = c.lng.toFixed(4);
  mapEl.dataset.zoom = String(map.getZoom());
}

/** Loads Leaflet (minified, compressed) after the weather has been asked for: on a slow
 * connection the card comes first and the map follows. The view asked for meanwhile is kept in
 * the element's data attributes and applied when the map arrives. */
export function initMap() {
  const start = () => {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = '/vendor/leaflet/leaflet.css';
    document.head.append(css);
    const script = document.createElement('script');
    script.src = '/vendor/leaflet/leaflet.min.js';
    script.onload = createMap;
    script.onerror = () => mapEl.append(el('p', { className: 'map-fallback', text: t('mapUnavailable') }));
    document.head.append(script);
  };
  // After the page's own first requests (the weather) are on their way.
  setTimeout(start, 0);
}

function createMap() {
  if (!window.L) return;
  map = window.L.map(mapEl, { zoomControl: false, attributionControl: true, fadeAnimation: false, zoomAnimation: false });
  window.L.control.zoom({ zoomInTitle: t('zoomIn'), zoomOutTitle: t('zoomOut') }).addTo(map);
  window.L.tileLayer('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', {
    maxZoom: 19,
    attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  }).addTo(map);
  map.on('moveend zoomend', sync);
  state.map = map;
  // What was asked for before the map arrived.
  if (mapEl.dataset.view === 'place' && mapEl.dataset.lat) {
    map.setView([Number(mapEl.dataset.lat), Number(mapEl.dataset.lon)], PLACE_ZOOM);
  } else {
    map.fitBounds(US_BOUNDS);
  }
  if (pendingMarker && mapEl.dataset.marker === 'shown') setMarker(pendingMarker[0], pendingMarker[1]);
  sync();
  mapEl.dataset.ready = 'true';
  document.dispatchEvent(new CustomEvent('brolly:map'));
}

let pendingMarker = null;

export function showUnitedStates() {
  mapEl.dataset.view = 'us';
  mapEl.setAttribute('aria-label', t('mapUS'));
  if (map) { map.fitBounds(US_BOUNDS); sync(); }
}

export function showPlace(lat, lon, label) {
  mapEl.dataset.view = 'place';
  mapEl.setAttribute('aria-label', label ? t('mapOf', { place: label }) : t('mapLabel'));
  if (map) { map.setView([lat, lon], PLACE_ZOOM); sync(); } else {
    mapEl.dataset.lat = lat.toFixed(4); mapEl.dataset.lon = lon.toFixed(4); mapEl.dataset.zoom = String(PLACE_ZOOM);
  }
}

export function setMarker(lat, lon) {
  mapEl.dataset.marker = 'shown';
  pendingMarker = [lat, lon];
  if (!map) return;
  if (marker) marker.setLatLng([lat, lon]);
  else {
    marker = window.L.circleMarker([lat, lon], { radius: 9, color: '#ffffff', weight: 3, fillColor: '#1d4ed8', fillOpacity: 1 })
      .addTo(map).bindTooltip(t('youAreHere'));
  }
}

export function removeMarker() {
  mapEl.dataset.marker = 'hidden';
  if (marker) { marker.remove(); marker = null; }
}
