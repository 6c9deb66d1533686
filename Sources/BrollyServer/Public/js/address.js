// The street address under the place name, for the user's own location.
import { addressURL, api } from './api.js';
import { region } from './card.js';
import { text } from './dom.js';
import { sameTarget, state } from './state.js';
import { saveLast } from './storage.js';

export async function loadAddress(target) {
  try {
    const a = await api(addressURL(target));
    if (!a || typeof a.display !== 'string' || !sameTarget(state.target, target) || !state.doc) return;
    const street = [a.street, a.houseNumber].filter(Boolean).join(' ');
    state.doc.addressLine = [street, a.city, a.country].filter(Boolean).join(', ') || a.display;
    saveLast(state.doc, state.target);
    if (!state.viewing && region.dataset.state === 'ready') text('address', state.doc.addressLine);
  } catch (_) { /* the region and country stay */ }
}
