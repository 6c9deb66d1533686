// The one fetch helper: a time-out, JSON bodies, and problem+json failures as AppErrors.
import { takeEarly } from './boot.js';
import { i18n } from './i18n.js';
import { state } from './state.js';

const TIMEOUT_MS = 15000;

/** A failure the page knows how to explain: offline, timeout, unreadable, not-found, provider, … */
export class AppError extends Error {
  /** `retryAfter`: seconds the server said to wait before asking again (its `Retry-After`), if it said. */
  constructor(kind, detail, retryAfter) {
    super(detail || kind); this.kind = kind; this.detail = detail || ''; this.retryAfter = retryAfter || null;
  }
}

function kindForProblem(status, problem) {
  const code = problem && problem.code;
  if (code === 'timeout' || status === 504) return 'timeout';
  if (code === 'offline') return 'offline';
  if (code === 'not-found' || status === 404) return 'not-found';
  if (code === 'unreadable') return 'unreadable';
  return 'provider';
}

/** `api('/api/v1/weather?…')`, or `api(path, { method: 'POST', body })`: every request the page and
 *  the widget make. Resolves to the JSON (null for 204). `counted: false` for the page's own files
 *  (its language), which are not weather calls. */
export async function api(path, { method = 'GET', body, counted = true } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  if (counted) state.fetchCount += 1;
  let response, raw;
  try {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    // The page's first lines may have asked already (the weather, before any module loaded).
    const asked = method === 'GET' ? takeEarly(path) : null;
    response = await (asked || fetch(path, {
      method, headers, signal: controller.signal, body: body === undefined ? undefined : JSON.stringify(body),
    }));
    raw = await response.text();
  } catch (_) {
    throw new AppError(controller.signal.aborted ? 'timeout' : 'offline');
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  let readable = true;
  try { data = raw ? JSON.parse(raw) : null; } catch (_) { readable = false; }
  if (!response.ok) {
    const wait = Number(response.headers.get('Retry-After') || (data && data.retryAfter));
    throw new AppError(kindForProblem(response.status, data), data && data.detail, Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  if (!readable) throw new AppError('unreadable');
  return data;
}

/** Whether a value has the weather contract's shape. */
export function isWeatherDocument(doc) {
  return Boolean(doc && doc.place && doc.current && typeof doc.current.temperature === 'number' &&
    Array.isArray(doc.days) && Array.isArray(doc.hours) && doc.source && doc.current.condition);
}

const q = (target, digits) => `lat=${target.lat.toFixed(digits)}&lon=${target.lon.toFixed(digits)}`;
// Conditions and sentences come in the page's language (English needs no parameter).
// An approximate target without coordinates yet: where the request comes from (`near=ip`).
export const weatherURL = (target) =>
  `/api/v1/weather?${target.approximate && target.lat === undefined ? 'near=ip' : q(target, 4)}${i18n.code === 'en' ? '' : `&lang=${i18n.code}`}`;
/** `&lang=` for the page's language (English needs none): names and addresses come in it. */
export const langParam = () => (i18n.code === 'en' ? '' : `&lang=${i18n.code}`);
export const addressURL = (target) => `/api/v1/address?${q(target, 5)}${langParam()}`;
export const newsURL = (target) => `/api/v1/news?${q(target, 4)}${langParam()}`;
export const accuracyURL = (target) => `/api/v1/accuracy?${q(target, 4)}`;
