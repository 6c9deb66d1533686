#!/usr/bin/env bash
# Bundles the page's modules (Sources/BrollyServer/Public/js) into Sources/BrollyServer/Public/app
# with esbuild (Debian's package): minified ES modules, two entries: main.js, the card's code (what
# the page needs to show the weather), and later.js, everything else (places, search, the map, the
# chart, the radar, the history, news, warnings, pushes), loaded once the temperature is shown;
# the code both use in one shared chunk, which the page preloads beside main.js. The output is committed, so that
# `swift build` alone serves the page; the test script runs this and fails when the committed
# bundle differs from what the sources make (`--check`).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v esbuild >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q esbuild
fi
js=Sources/BrollyServer/Public/js
out=Sources/BrollyServer/Public/app
target="$out"
if [ "${1:-}" = "--check" ]; then target="$(mktemp -d)"; fi
rm -rf "$target.tmp" && mkdir -p "$target.tmp"
esbuild "$js/main.js" "$js/later.js" \
  --bundle --splitting --format=esm --minify --target=es2020 --charset=utf8 --legal-comments=none \
  --outdir="$target.tmp" --chunk-names='chunk-[hash]' --log-level=warning
# The stylesheet minified, for the page to carry inline (the server writes it into index.html).
esbuild Sources/BrollyServer/Public/style.css --minify --charset=utf8 --log-level=warning --outfile="$target.tmp/style.css"
# The styles of what later.js draws, loaded with it.
esbuild Sources/BrollyServer/Public/later.css --minify --charset=utf8 --log-level=warning --outfile="$target.tmp/later.css"
# The files, for the service worker to keep at install.
(cd "$target.tmp" && python3 -c 'import json, os; print(json.dumps(sorted("/app/" + f for f in os.listdir(".") if f.endswith(".js") or f == "later.css")))' > files.json)
# Replaced only when the sources make something else: rewritten files (same bytes, new times) made
# the release build that follows (scripts/serve.sh, the README's run command) relink the binary
# every time — and under the test suite, the binary the other cases were running (issue 53).
if [ "$target" = "$out" ] && [ -d "$out" ] && diff -r "$target.tmp" "$out" >/dev/null 2>&1; then
  rm -rf "$target.tmp"
  exit 0
fi
rm -rf "$target" && mv "$target.tmp" "$target"
if [ "${1:-}" = "--check" ]; then
  if ! diff -r "$target" "$out" >/dev/null; then
    echo "the committed page bundle ($out) is not what the sources make: run bash scripts/bundle.sh and commit it" >&2
    diff -r "$target" "$out" | head -5 >&2
    exit 1
  fi
  rm -rf "$target"
  echo "the page bundle is up to date"
fi
