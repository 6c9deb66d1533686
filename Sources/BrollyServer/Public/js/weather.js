// Loading the weather for a target: the card, the device's memory, then the address, the news
// and the history; a failed refresh keeps what is shown, marked stale. The helpers' code is
// imported after the card (off a slow connection's critical path; the service worker keeps it).
import { AppError, api, isWeatherDocument, weatherURL } from './api.js';
import { BOOT } from './boot.js';
import { later } from './lazy.js';
import { ageMs, agoText, messageFor, region, render, setState, showNotice } from './card.js';
import { $, text } from './dom.js';
import { i18n, t } from './i18n.js';
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
  stopCountdown();
  try {
    // So that this lookup lands in this browser's history: the page's answer gave it its device,
    // else the first call to the API does.
    if (!BOOT.device) await state.deviceReady;
    const doc = await api(weatherURL(target));
    if (seq !== state.seq) return;
    if (!isWeatherDocument(doc)) throw new AppError('unreadable');
    // Where the request's address is: from now on, that place's coordinates (still approximate).
    if (target.approximate) target = { lat: doc.place.latitude, lon: doc.place.longitude, approximate: true };
    if (target.name) {
      doc.place.name = target.name;
      doc.place.region = target.region || null;
      doc.place.country = target.country || '';
    }
    if (state.doc && sameTarget(state.target, target) && state.doc.addressLine) doc.addressLine = state.doc.addressLine;
    Object.assign(state, { doc, target, viewing: null, forceStale: false, restored: false });
    saveLast(state.doc, state.target);
    render(doc);
    // The first answer from the network on screen (scripts/bench-page.py reads this mark).
    if (!performance.getEntriesByName('brolly-weather-fresh').length) performance.mark('brolly-weather-fresh');
    later().then((m) => {
      if (target.here) m.loadAddress(target);
      m.loadNews(target);
      m.loadAccuracy(target);
      setTimeout(() => m.loadHistory(), 1200);
    });
    // The API said the answer is stale and is refreshing it, or that a helper's part (the
    // place's name, air quality, warnings) is still on its way: look again shortly (three times at
    // most, further apart each time).
    const repolls = opts.repolls || 0;
    const lacking = (doc.source.lacking || []).length > 0;
    if ((doc.source.stale || lacking) && repolls < 3) {
      state.repollTimer = setTimeout(() => loadWeather(target, { quiet: true, repolls: repolls + 1 }), 4000 * 2 ** repolls);
    }
  } catch (e) {
    if (seq !== state.seq) return;
    const kind = e instanceof AppError ? e.kind : 'unreadable';
    if (keep && other) {
      region.setAttribute('aria-busy', 'false');
      // A kept copy that could not be followed by anything new is marked as old.
      if (state.restored) { state.forceStale = true; render(state.doc, { keepNotice: true }); }
      const [title] = messageFor(kind) || messageFor('provider');
      const name = target.name || (target.here ? t('yourLocation') : `${target.lat.toFixed(2)}, ${target.lon.toFixed(2)}`);
      showNotice(t('couldNotShow', { title, name, current: state.doc.place.name }), true, kind);
    } else if (keep) {
      state.forceStale = true;
      render(state.doc, { keepNotice: true });
      const [title] = messageFor(kind) || messageFor('provider');
      showNotice(`${title}. ${t('showingFrom', { ago: agoText(ageMs(state.doc)) })}`, true, kind);
    } else {
      // The server's detail is English: other languages get their own explanation of the kind.
      setState('error', { error: kind, detail: (i18n.code === 'en' && e.detail) || undefined });
      // The server said when it is worth asking again (a provider's blip, a paused upstream):
      // count down, then try again by itself.
      if (e instanceof AppError && e.retryAfter && e.retryAfter <= 300) countdown(e.retryAfter, () => loadWeather(target));
    }
  }
}

/** "Trying again in N s" under the error, then `then()`. */
function countdown(seconds, then) {
  stopCountdown();
  let left = Math.ceil(seconds);
  const show = () => text('error-countdown', t('retryingIn', { n: left }));
  $('error-countdown').hidden = false;
  show();
  state.countdownTimer = setInterval(() => {
    left -= 1;
    if (left > 0) return show();
    stopCountdown();
    then();
  }, 1000);
}

function stopCountdown() {
  clearInterval(state.countdownTimer);
  state.countdownTimer = null;
  const node = $('error-countdown');
  if (node) { node.hidden = true; node.textContent = ''; }
}

/** Refreshes what is shown (the page became visible again, or came back online). */
export function refresh() {
  if (state.target) loadWeather(state.target, { quiet: true });
}
