// Loading the weather for a target: the card, the device's memory, then the address, the news
// and the history; a failed refresh keeps what is shown, marked stale.
import { loadAddress } from './address.js';
import { AppError, api, isWeatherDocument, weatherURL } from './api.js';
import { ageMs, ageText, messageFor, region, render, setState, showNotice } from './card.js';
import { loadHistory } from './history.js';
import { loadNews } from './news.js';
import { sameTarget, state } from './state.js';
import { saveLast } from './storage.js';

export async function loadWeather(target, opts = {}) {
  const seq = ++state.seq;
  const showing = state.doc && region.dataset.state === 'ready';
  // Good weather on screen is never wiped by a failure: another place's lookup that fails leaves
  // it where it is, and says what failed beside it.
  const keep = showing;
  const other = !sameTarget(state.target, target);
  if (!keep) setState('loading');
  else if (other) region.setAttribute('aria-busy', 'true');
  state.retry = () => loadWeather(target);
  clearTimeout(state.repollTimer);
  try {
    await state.deviceReady;  // so that this lookup lands in this browser's history
    const doc = await api(weatherURL(target));
    if (seq !== state.seq) return;
    if (!isWeatherDocument(doc)) throw new AppError('unreadable');
    if (target.name) {
      doc.place.name = target.name;
      doc.place.region = target.region || null;
      doc.place.country = target.country || '';
    }
    if (state.doc && sameTarget(state.target, target) && state.doc.addressLine) doc.addressLine = state.doc.addressLine;
    Object.assign(state, { doc, target, viewing: null, forceStale: false, restored: false });
    saveLast();
    render(doc);
    if (target.here) loadAddress(target);
    loadNews(target);
    setTimeout(loadHistory, 1200);
    // The API said the answer is stale and is refreshing it: look again shortly.
    if (doc.source.stale && !opts.repolled) {
      state.repollTimer = setTimeout(() => loadWeather(target, { quiet: true, repolled: true }), 4000);
    }
  } catch (e) {
    if (seq !== state.seq) return;
    const kind = e instanceof AppError ? e.kind : 'unreadable';
    if (keep && other) {
      region.setAttribute('aria-busy', 'false');
      const [title] = messageFor(kind) || messageFor('provider');
      const name = target.name || (target.here ? 'your location' : `${target.lat.toFixed(2)}, ${target.lon.toFixed(2)}`);
      showNotice(`${title}: could not show ${name}. Still showing ${state.doc.place.name}.`, true, kind);
    } else if (keep) {
      state.forceStale = true;
      render(state.doc, { keepNotice: true });
      const [title] = messageFor(kind) || messageFor('provider');
      showNotice(`${title}. Showing the weather from ${ageText(ageMs(state.doc)).replace('Updated ', '')}.`, true, kind);
    } else {
      setState('error', { error: kind, detail: e.detail || undefined });
    }
  }
}

/** Refreshes what is shown (the page became visible again, or came back online). */
export function refresh() {
  if (state.target) loadWeather(state.target, { quiet: true });
}
