// The page's code that is not the card, as one module loaded on first use (later.js): bundled
// apart from the card's (scripts/bundle.sh), so that none of it is fetched before the weather.
let loading = null;
/** Its styles, asked for beside it; the module is handed over once both are here (what it draws
 *  is never shown unstyled). */
function styles() {
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/app/later.css' });
  const loaded = new Promise((resolve) => { link.onload = resolve; link.onerror = resolve; });
  document.head.append(link);
  return loaded;
}
export const later = () => (loading ||= Promise.all([import('./later.js'), styles()]).then(([m]) => m));
