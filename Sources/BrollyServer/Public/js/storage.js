// What this browser keeps between visits: the last weather and its place.
import { isWeatherDocument } from './api.js';
import { state } from './state.js';

const LAST_KEY = 'brolly.last.v1';

export function saveLast() {
  try {
    localStorage.setItem(LAST_KEY, JSON.stringify({ doc: state.doc, target: state.target, savedAt: Date.now() }));
  } catch (_) { /* storage full or disabled: nothing to keep */ }
}

export function loadLast() {
  try {
    const last = JSON.parse(localStorage.getItem(LAST_KEY) || 'null');
    if (last && isWeatherDocument(last.doc) && last.target && Number.isFinite(last.target.lat)) return last;
  } catch (_) { /* unreadable: start afresh */ }
  return null;
}
