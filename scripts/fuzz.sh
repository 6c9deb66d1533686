#!/usr/bin/env bash
# Fuzzes everything Brolly decodes from outside (issue 35) with libFuzzer: every provider's JSON
# (Open-Meteo forecast, geocoding, air quality, Previous Runs; OpenWeatherMap current, forecast,
# geocoding, One Call; Nominatim; Google; NWS; MeteoAlarm; METAR; NewsAPI), CAP and RSS XML, and
# the Open-Meteo API's query strings. The push subscription bodies and the server's own query
# strings are fuzzed by schemathesis against the running server (tests/test_api.py).
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]     # default 120 s, every target
#   FUZZ_JOBS=2 bash scripts/fuzz.sh 60 cap-xml bbc-rss
#
# Builds Fuzz/ (its own package: BrollyCore and the harness, instrumented with
# -sanitize=fuzzer,address), writes the seeds (Fuzz/seed.py: the repository's fixtures and the
# test double's answers), runs each target for the time given (FUZZ_JOBS at once, default 2) on
# Fuzz/corpus/<target> (kept in the repository, merged smaller after each run), and keeps any
# input that crashed, hung (> 5 s) or ran out of memory in Fuzz/crashes/<target>/. Prints each
# target's executions and the total; exits 1 when anything was found.
set -euo pipefail
cd "$(dirname "$0")/.."
PER_TARGET="${1:-120}"
shift || true
JOBS="${FUZZ_JOBS:-2}"
# FUZZ_CORPUS and FUZZ_CRASHES move the corpus and the findings (the tests use a directory of their own).
CORPUS="${FUZZ_CORPUS:-Fuzz/corpus}"
CRASHES="${FUZZ_CRASHES:-Fuzz/crashes}"
swift build --package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >/dev/null
BIN=Fuzz/.build/release/BrollyFuzz
python3 Fuzz/seed.py
if [ $# -gt 0 ]; then TARGETS=("$@"); else mapfile -t TARGETS < <(ls Fuzz/seeds); fi
LOGS=$(mktemp -d)
run_one() {
  local t=$1
  mkdir -p "$CORPUS/$t" "$CRASHES/$t"
  LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0" BROLLY_FUZZ_TARGET=$t "$BIN" -max_total_time="$PER_TARGET" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$CRASHES/$t/" "$CORPUS/$t" "Fuzz/seeds/$t" > "$LOGS/$t.log" 2>&1 || true
  # Keep the corpus small: only inputs that add coverage.
  mkdir -p "$LOGS/$t.min"
  BROLLY_FUZZ_TARGET=$t "$BIN" -merge=1 -timeout=5 "$LOGS/$t.min" "$CORPUS/$t" > /dev/null 2>&1 || true
  rm -rf "$CORPUS/$t" && mv "$LOGS/$t.min" "$CORPUS/$t"
  local runs
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$LOGS/$t.log")
  printf '%-26s %12s executions   corpus %4s   crashes %s\n' "$t" "${runs:-0}" "$(ls "$CORPUS/$t" | wc -l)" \
    "$(ls "$CRASHES/$t" | wc -l)"
}
export -f run_one
export BIN PER_TARGET LOGS CORPUS CRASHES
printf '%s\n' "${TARGETS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_one {}' | tee "$LOGS/summary"
total=$(awk '{s += $2} END {print s}' "$LOGS/summary")
found=$(awk '{s += $NF} END {print s}' "$LOGS/summary")
echo "total: $total executions over ${#TARGETS[@]} targets; crashes, hangs and out-of-memory inputs kept: $found"
for t in "${TARGETS[@]}"; do
  grep -hE "ERROR: libFuzzer|==ERROR|Fatal error|SUMMARY" "$LOGS/$t.log" | head -3 | sed "s/^/$t: /" || true
done
[ "$found" -eq 0 ]
