#!/usr/bin/env bash
# Compares two builds of `brolly` on the same machine in one go: the wrk rows of scripts/bench.sh
# (the bare Hummingbird route, cached weather cookie-less, for a returning browser, and with the
# auxiliary sources down) for each binary in turn, ROUNDS times, SECS seconds a row. Because this
# machine's speed swings between runs, a change is judged by binaries measured alternately, not by
# two runs of bench.sh minutes apart. Example, the code before a change against the current one:
#   git worktree add /tmp/before <rev> && (cd /tmp/before && swift build -c release --product brolly)
#   swift build -c release --static-swift-stdlib --product brolly
#   bash scripts/bench-ab.sh /tmp/before/.build/release/brolly .build/release/brolly
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bash scripts/bench-ab.sh BROLLY_BINARY [BROLLY_BINARY ...]" >&2; exit 64; }
ROUNDS=${ROUNDS:-2}
SECS=${SECS:-6}

rows() {  # one binary: start the double, two servers and the reference; print the four rows
  local bin=$1 work
  work=$(mktemp -d)
  python3 tests/upstream_double.py --port 0 > "$work/double.out" &
  local double=$!
  for _ in $(seq 50); do grep -q PORT "$work/double.out" 2>/dev/null && break; sleep 0.1; done
  local up="http://127.0.0.1:$(awk '/PORT/ {print $2}' "$work/double.out")"
  export BROLLY_OPEN_METEO_URL=$up BROLLY_OPEN_METEO_GEOCODING_URL=$up BROLLY_NOMINATIM_URL=$up BROLLY_BBC_FEEDS_URL=$up
  export BROLLY_OPEN_METEO_AIR_QUALITY_URL=$up BROLLY_OPEN_METEO_ENSEMBLE_URL=$up BROLLY_NWS_URL=$up BROLLY_METEOALARM_URL=$up BROLLY_NEWSAPI_URL=$up
  export BROLLY_GOOGLE_GEOCODING_URL=$up BROLLY_OPENWEATHERMAP_URL=$up BROLLY_IP_LOCATION_URL=$up/json BROLLY_LOG_LEVEL=warning
  BROLLY_CACHE_DIR=$work/cache BROLLY_DATA_DIR=$work/data BROLLY_CONFIG_DIR=$work/config "$bin" serve --port 18299 > "$work/s.log" 2>&1 &
  local server=$!
  BROLLY_OPEN_METEO_AIR_QUALITY_URL=http://127.0.0.1:9 BROLLY_OPEN_METEO_ENSEMBLE_URL=http://127.0.0.1:9 BROLLY_NWS_URL=http://127.0.0.1:9 BROLLY_METEOALARM_URL=http://127.0.0.1:9 \
    BROLLY_CACHE_DIR=$work/aux/cache BROLLY_DATA_DIR=$work/aux/data BROLLY_CONFIG_DIR=$work/config \
    "$bin" serve --port 18297 > "$work/a.log" 2>&1 &
  local aux=$!
  for port in 18299 18297; do
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done
  done
  local url="http://127.0.0.1:18299/api/v1/weather?lat=52.52&lon=13.41" aux_url="http://127.0.0.1:18297/api/v1/weather?lat=52.52&lon=13.41"
  curl -sf "$url" > /dev/null; curl -sf "$aux_url" > /dev/null; sleep 2
  curl -sf "$url" > "$work/body.json"; curl -sf "$aux_url" > /dev/null
  curl -sf -c "$work/jar" http://127.0.0.1:18299/api/v1/places > /dev/null
  local cookie="brolly_device=$(awk '/brolly_device/ {print $7}' "$work/jar")"
  "$bin" bench-reference --port 18298 --body "$work/body.json" > "$work/r.log" 2>&1 &
  local ref=$!
  for _ in $(seq 100); do curl -sf http://127.0.0.1:18298/api/v1/weather > /dev/null && break; sleep 0.1; done
  one() { wrk -t2 -c64 -d"${SECS}s" --latency "$@" | awk '/Requests\/sec/ {r = $2} $1 == "99%" {p = $2} END {printf "%10s req/s  p99 %s", r, p}'; }
  printf '%s\n  bare route   %s\n' "$bin" "$(one http://127.0.0.1:18298/api/v1/weather)"
  printf '  cookie-less  %s\n' "$(one "$url")"
  printf '  returning    %s\n' "$(one -H "Cookie: $cookie" "$url")"
  printf '  aux down     %s\n' "$(one "$aux_url")"
  kill "$server" "$aux" "$ref" "$double" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}

for round in $(seq "$ROUNDS"); do
  echo "== round $round"
  for bin in "$@"; do rows "$bin"; done
done
