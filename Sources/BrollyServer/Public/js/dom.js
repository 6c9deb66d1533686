// The one DOM helper: elements are built with properties and text, never from HTML strings.

export const $ = (id) => document.getElementById(id);

/** Sets an element's text. */
export function text(id, value) { $(id).textContent = value; }

/** `el('a', { href, text, dataset: {...}, ariaLabel }, ...children)`. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'text') node.textContent = v;
    else if (k === 'style') Object.assign(node.style, v);
    else if (k.startsWith('aria') || k === 'role' || k === 'title' || k === 'type') {
      node.setAttribute(k.replace(/^aria([A-Z])/, (m, c) => 'aria-' + c.toLowerCase()), v);
    } else node[k] = v;
  }
  node.append(...children);
  return node;
}

/** A local date and time for an ISO 8601 instant, on the 24-hour clock the hours and the chart use
 * (one clock format on the page, whatever the language's region). */
export function localTime(iso) {
  const d = new Date(iso);
  return Number.isFinite(d.getTime()) ? d.toLocaleString(document.documentElement.lang || [], { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }) : iso;
}
