#!/usr/bin/env bash
# Brolly's benchmarks: rerun with `bash scripts/bench.sh`. Everything runs on 127.0.0.1 against
# the upstream double, bounded in time. The machine is shared and noisy, so speeds are measured as
# ratios against a reference run in the same script: a bare Hummingbird route (`brolly
# bench-reference`, no middleware) serving the same bytes. Targets (2 cores, wrk 2 threads × 64
# connections):
#   - cached GET /api/v1/weather >= 0.75× the bare route, cookie-less and for a returning browser
#     (device cookie, so the lookup is recorded in its history), p99 < 10 ms;
#   - upstream calls during the load: one per place;
#   - the server's peak memory (VmHWM) under that load: < 150 MB;
#   - `brolly now --offline` (a whole process answering from the cache): < 150 ms mean.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${need[@]}"
fi

swift build -c release --product brolly
BIN=.build/release/brolly
WORK=$(mktemp -d)
cleanup() { kill "${SERVER:-}" "${DOUBLE:-}" "${REF:-}" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

python3 tests/upstream_double.py --port 0 > "$WORK/double.out" &
DOUBLE=$!
for _ in $(seq 50); do grep -q PORT "$WORK/double.out" 2>/dev/null && break; sleep 0.1; done
UP="http://127.0.0.1:$(awk '/PORT/ {print $2}' "$WORK/double.out")"
export BROLLY_OPEN_METEO_URL=$UP BROLLY_OPEN_METEO_GEOCODING_URL=$UP BROLLY_NOMINATIM_URL=$UP BROLLY_BBC_FEEDS_URL=$UP
export BROLLY_CACHE_DIR=$WORK/cache BROLLY_CONFIG_DIR=$WORK/config BROLLY_DATA_DIR=$WORK/data BROLLY_LOG_LEVEL=warning

PORT=18099
REF_PORT=18098
$BIN serve --port $PORT > "$WORK/serve.log" 2>&1 &
SERVER=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$PORT/api/v1/weather?lat=52.52&lon=13.41"
curl -sf "$URL" > /dev/null   # fill the cache (and name the place)
sleep 2
curl -sf "$URL" > "$WORK/body.json"
curl -sf -c "$WORK/jar" "http://127.0.0.1:$PORT/api/v1/places" > /dev/null
COOKIE="brolly_device=$(awk '/brolly_device/ {print $7}' "$WORK/jar")"
curl -sf -H "Cookie: $COOKIE" "$URL" > /dev/null
$BIN bench-reference --port $REF_PORT --body "$WORK/body.json" > "$WORK/ref.log" 2>&1 &
REF=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$REF_PORT/api/v1/weather" >/dev/null && break; sleep 0.1; done
CALLS_BEFORE=$(curl -s "$UP/__calls")

run() {  # name, extra wrk args...
  local name=$1; shift
  wrk -t2 -c64 -d10s --latency "$@" > "$WORK/$name.txt"
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/$name.txt")
  p50=$(awk '$1 == "50%" {print $2}' "$WORK/$name.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$WORK/$name.txt")
  printf '%-34s %10s req/s   p50 %8s   p99 %8s\n' "$name" "$rps" "$p50" "$p99"
  echo "$rps" > "$WORK/$name.rps"
}

echo "== wrk: 2 threads, 64 connections, 10 s each"
run "bare Hummingbird route (reference)" "http://127.0.0.1:$REF_PORT/api/v1/weather"
run "cached weather, cookie-less" "$URL"
run "cached weather, returning browser" -H "Cookie: $COOKIE" "$URL"
ref=$(cat "$WORK/bare Hummingbird route (reference).rps")
for name in "cached weather, cookie-less" "cached weather, returning browser"; do
  awk -v a="$(cat "$WORK/$name.rps")" -v b="$ref" -v n="$name" 'BEGIN { printf "ratio %-34s %.2f× the bare route\n", n, a / b }'
done
echo "== server memory"
grep -E "VmHWM|VmRSS" "/proc/$SERVER/status"
echo "== upstream calls: before the load $CALLS_BEFORE; after $(curl -s "$UP/__calls")"
echo "== history rows written: $(curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^brolly_history_rows_written_total/ {print $2}')"
kill "$REF" 2>/dev/null || true

echo "== hyperfine: brolly now --offline (cached)"
$BIN now --lat 52.52 --lon 13.41 > /dev/null
hyperfine --warmup 3 --runs 30 "$BIN now --lat 52.52 --lon 13.41 --offline"
