// What the server wrote into the page for its first paint (a `<script type="application/json"
// id="brolly-boot">`, so no request waits for it): the page language's texts over English's, the
// languages there are, BrollyCore's conversion table, and whether this browser already has its
// device cookie (the page's own answer sets it). The widget's page carries the same.
const node = document.getElementById('brolly-boot');
export const BOOT = JSON.parse(node ? node.textContent : '{}');

/** What the page's first lines (index.html's inline script) started before any module: the
 *  language they chose, the browser's position, and weather requests by their address. */
export const early = window.brollyStart || { responses: {} };

/** The response the first lines already asked for at `path`, once; else null. */
export function takeEarly(path) {
  const r = early.responses && early.responses[path];
  if (!r) return null;
  delete early.responses[path];
  return r;
}
