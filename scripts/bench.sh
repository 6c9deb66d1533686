#!/usr/bin/env bash
# Brolly's benchmarks: rerun with `bash scripts/bench.sh`. Everything runs on 127.0.0.1 against
# the upstream double, bounded in time. Targets (2 cores):
#   - GET /api/v1/weather answered from the server's cache: >= 2000 requests/s, p99 < 25 ms
#     with 32 connections;
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
cleanup() { kill "${SERVER:-}" "${DOUBLE:-}" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

python3 tests/upstream_double.py --port 0 > "$WORK/double.out" &
DOUBLE=$!
for _ in $(seq 50); do grep -q PORT "$WORK/double.out" 2>/dev/null && break; sleep 0.1; done
UP="http://127.0.0.1:$(awk '/PORT/ {print $2}' "$WORK/double.out")"
export BROLLY_OPEN_METEO_URL=$UP BROLLY_OPEN_METEO_GEOCODING_URL=$UP BROLLY_NOMINATIM_URL=$UP BROLLY_BBC_FEEDS_URL=$UP
export BROLLY_CACHE_DIR=$WORK/cache BROLLY_CONFIG_DIR=$WORK/config BROLLY_DATA_DIR=$WORK/data BROLLY_LOG_LEVEL=warning

PORT=18099
$BIN serve --port $PORT > "$WORK/serve.log" 2>&1 &
SERVER=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$PORT/api/v1/weather?lat=52.52&lon=13.41"
curl -sf "$URL" > /dev/null   # fill the cache
sleep 1

echo "== wrk: cached weather, 2 threads, 32 connections, 10 s"
wrk -t2 -c32 -d10s --latency "$URL" | tee "$WORK/wrk.txt"
echo "== server memory"
grep -E "VmHWM|VmRSS" "/proc/$SERVER/status"
echo "== upstream calls during the load: $(curl -s "$UP/__calls")"

echo "== hyperfine: brolly now --offline (cached)"
$BIN now --lat 52.52 --lon 13.41 > /dev/null
hyperfine --warmup 3 --runs 30 "$BIN now --lat 52.52 --lon 13.41 --offline"
