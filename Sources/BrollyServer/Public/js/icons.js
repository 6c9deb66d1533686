// Condition icons: our own drawings. The markup is constant (no data inside); the label is text.

const SUN = '<circle cx="32" cy="32" r="11" fill="#f59e0b"/><g stroke="#f59e0b" stroke-width="4" stroke-linecap="round"><path d="M32 6v7M32 51v7M6 32h7M51 32h7M13.6 13.6l5 5M45.4 45.4l5 5M13.6 50.4l5-5M45.4 18.6l5-5"/></g>';
const MOON = '<path d="M40 10a22 22 0 1 0 14 34A18 18 0 0 1 40 10z" fill="#cbd5e1"/>';
const CLOUD = (fill = '#94a3b8', y = 0) => `<path transform="translate(0 ${y})" d="M20 50h26a11 11 0 0 0 0-22 15 15 0 0 0-28.5 4A9 9 0 0 0 20 50z" fill="${fill}"/>`;
const DROPS = '<g stroke="#3b82f6" stroke-width="3.5" stroke-linecap="round"><path d="M24 52l-3 7M34 52l-3 7M44 52l-3 7"/></g>';
const ICONS = {
  'clear-day': SUN,
  'clear-night': MOON,
  'partly-cloudy-day': `<g transform="translate(-8 -8) scale(.8)">${SUN}</g>${CLOUD('#94a3b8', 6)}`,
  'partly-cloudy-night': `<g transform="translate(-6 -8) scale(.8)">${MOON}</g>${CLOUD('#94a3b8', 6)}`,
  cloudy: `${CLOUD('#cbd5e1', -8)}${CLOUD('#94a3b8', 2)}`,
  fog: `${CLOUD('#94a3b8', -8)}<g stroke="#94a3b8" stroke-width="4" stroke-linecap="round"><path d="M12 50h40M18 58h30"/></g>`,
  drizzle: `${CLOUD('#94a3b8', -6)}<g stroke="#60a5fa" stroke-width="3" stroke-linecap="round"><path d="M26 52v4M38 52v4"/></g>`,
  rain: `${CLOUD('#64748b', -6)}${DROPS}`,
  sleet: `${CLOUD('#64748b', -6)}<g stroke="#60a5fa" stroke-width="3.5" stroke-linecap="round"><path d="M24 52l-3 7M44 52l-3 7"/></g><circle cx="33" cy="56" r="3" fill="#e2e8f0" stroke="#64748b"/>`,
  snow: `${CLOUD('#94a3b8', -6)}<g fill="#e2e8f0" stroke="#64748b"><circle cx="23" cy="55" r="3"/><circle cx="33" cy="59" r="3"/><circle cx="43" cy="55" r="3"/></g>`,
  thunderstorm: `${CLOUD('#475569', -6)}<path d="M34 44l-8 11h7l-4 9 11-13h-7l4-7z" fill="#facc15"/>`,
};

const drawn = new Map();

/** The icon's SVG element, parsed once from its constant markup (no HTML is written into the page) and cloned. */
function svg(icon) {
  const name = ICONS[icon] ? icon : 'cloudy';
  if (!drawn.has(name)) {
    const markup = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" aria-hidden="true">${ICONS[name]}</svg>`;
    drawn.set(name, new DOMParser().parseFromString(markup, 'image/svg+xml').documentElement);
  }
  return document.importNode(drawn.get(name), true);
}

/** Draws the icon for a contract icon name into `el`, labelled for screen readers. */
export function setIcon(el, icon, label) {
  el.replaceChildren(svg(icon));
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', label);
}
