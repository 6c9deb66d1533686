#!/usr/bin/env bash
# Runs Brolly's main job on a fresh machine: installs SQLite's headers and Leaflet if missing, then builds
# and starts `brolly serve` on http://127.0.0.1:8080 (Open-Meteo, no key needed). Its arguments go to
# `brolly serve`: `bash scripts/serve.sh --port 8093 --host 0.0.0.0`.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
missing=()
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)   # GRDB builds against the system SQLite
# The Swift runtime and Foundation are linked statically; FoundationXML's libxml2 and zlib are not.
[ -f /usr/include/libxml2/libxml/parser.h ] || missing+=(libxml2-dev)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
if [ ! -f /usr/share/javascript/leaflet/leaflet.js ] && [ -z "${BROLLY_LEAFLET_DIR:-}" ]; then missing+=(libjs-leaflet); fi
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi
# The page's bundle (committed; remade here from its modules when esbuild is installed).
if command -v esbuild >/dev/null 2>&1; then bash scripts/bundle.sh; fi
# `swift run` takes no --static-swift-stdlib (issue 34): build with it, then run the binary built.
# The same line as the README's install command, so that both share one release build.
swift build -c release --static-swift-stdlib --product brolly
exec .build/release/brolly serve "$@"
