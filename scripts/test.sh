#!/usr/bin/env bash
# Runs every test: the Swift suites (BrollyCore, BrollyServer), then the end-to-end suites with
# pytest — the built `brolly` against a local upstream double, the HTTP API, and the web app in
# headless Chromium. Screenshots of the browser cases go to artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's time, printed as a table at the end (also when a phase fails), with the builds' time
# beside everything else's; and the Swift and pytest cases that passed and failed, summed up.
phase_log="$(mktemp -d /tmp/brolly-test-phases.XXXXXX)"
phase() {  # phase NAME KIND (build | test | setup): the time from here to the next phase (or the end)
  local now
  now="$(date +%s.%N)"
  if [ -n "${PHASE_NAME:-}" ]; then echo "$PHASE_NAME|$PHASE_KIND|$PHASE_T0|$now" >> "$phase_log/phases"; fi
  PHASE_NAME="$1" PHASE_KIND="$2" PHASE_T0="$now"
  echo "== $1"
}
phase_table() {
  phase "end" end >/dev/null
  if [ -n "${reserved_before+set}" ]; then echo "$reserved_before" > /proc/sys/net/ipv4/ip_local_reserved_ports 2>/dev/null || true; fi
  python3 scripts/phase-table.py "$phase_log" || true
}
trap phase_table EXIT

phase "install what the tests need" setup
bash scripts/install-test-deps.sh
# The README's fixed ports (brolly serve on 8080, scripts/cluster.sh's 8081-8083 and PostgreSQL on
# 55432) are kept out of the ephemeral range while the suite runs, where the kernel lets us: the
# suite opens tens of thousands of loopback connections, and one client socket (or its TIME_WAIT)
# on 55432 kept cluster.sh's PostgreSQL from binding it (CI, "pg_ctl: could not start server").
reserved=/proc/sys/net/ipv4/ip_local_reserved_ports
if [ -w "$reserved" ]; then
  reserved_before="$(cat "$reserved")"   # put back when the run ends (phase_table)
  echo "${reserved_before:+$reserved_before,}8080-8083,55432" > "$reserved" 2>/dev/null || true
fi

phase "swift format lint (.swift-format; any finding fails the run: 'swift format format -i -r Sources Tests' fixes most)" test
swift format lint --strict -r Sources Tests
phase "the page's bundle is what its modules make (scripts/bundle.sh --check; checked here only, not again by a test)" test
bash scripts/bundle.sh --check
phase "ARCHITECTURE.md names only what exists" test
python3 scripts/check-architecture.py
phase "swift build (debug, with the tests)" build
time swift build --build-tests
phase "swift test (the URLSession transport is tested against the upstream double on 127.0.0.1)" test
double_out="$(mktemp)"
python3 tests/upstream_double.py --port 0 >"$double_out" 2>/dev/null &
double_pid=$!
trap 'kill "$double_pid" 2>/dev/null || true; phase_table' EXIT
for _ in $(seq 50); do grep -q '^PORT ' "$double_out" && break; sleep 0.1; done
# The store's tests run against SQLite and a real PostgreSQL on 127.0.0.1 (scripts/postgres.sh).
pg_dir="$(mktemp -d /tmp/brolly-test-pg.XXXXXX)"
chmod 777 "$pg_dir"
pg_port="${BROLLY_TEST_PG_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
trap 'kill "$double_pid" 2>/dev/null || true; bash scripts/postgres.sh stop "$pg_dir/data" || true; phase_table' EXIT
BROLLY_TEST_DATABASE_URL="$(bash scripts/postgres.sh start "$pg_dir/data" "$pg_port")"
echo "PostgreSQL for the store's tests: $BROLLY_TEST_DATABASE_URL"
BROLLY_TEST_DATABASE_URL="$BROLLY_TEST_DATABASE_URL" \
  BROLLY_UPSTREAM_DOUBLE_URL="http://127.0.0.1:$(sed -n 's/^PORT //p' "$double_out")" swift test --skip-build 2>&1 |
  tee "$phase_log/swift-test.log"
kill "$double_pid" 2>/dev/null || true
bash scripts/postgres.sh stop "$pg_dir/data" || true
trap phase_table EXIT
phase "swift build -c release (the README's run command's build: scripts/serve.sh runs the same line)" build
# Built here, before the end-to-end cases rather than by the first of them beside the others: a fresh
# release build takes both cores for ~15 minutes, and the cases running beside it timed out on
# their upstream double (CI-like run: 8 of 413 failed with 504s).
time swift build -c release --static-swift-stdlib --product brolly
phase "pytest (CLI end to end, API, browser, three servers on one PostgreSQL), in parallel" test
# The end-to-end cases run the release binary the README builds (the binary users run), not the
# debug one: the flood and the cluster cases spend their time in it.
export BROLLY_BIN="$PWD/.build/release/brolly"
# Most cases wait on servers, browsers and time-outs rather than on the CPU: BROLLY_TEST_WORKERS
# (4) pytest-xdist workers. The README's tests stay on one worker, first (their xdist group);
# the cases that measure speed or memory run afterwards by themselves (the `alone` marker).
python3 -m pytest -q -p no:cacheprovider -n "${BROLLY_TEST_WORKERS:-4}" --dist loadgroup -m "not alone" --durations=15 tests |
  tee "$phase_log/pytest.log"
phase "pytest: the cases that measure speed or memory, by themselves" test
python3 -m pytest -q -p no:cacheprovider -m alone --durations=5 tests | tee "$phase_log/pytest-alone.log"
