#!/usr/bin/env bash
# Compares the start of two or more builds of `brolly` in one hyperfine command: a cached
# `brolly now --offline` (the status-bar case, issue 22 and 36: <= 20 ms median) and `--version`
# (<= 10 ms), each binary reading the same cache that the first one filled from the upstream double.
# One command, so that the binaries meet the same moment of this shared machine; ROUNDS times.
#   git worktree add /tmp/before <rev> && (cd /tmp/before && swift build -c release --static-swift-stdlib --product brolly)
#   swift build -c release --static-swift-stdlib --product brolly
#   bash scripts/bench-start.sh /tmp/before/.build/release/brolly .build/release/brolly
# A binary compared must sit beside its resource bundle (where SwiftPM builds it): one copied
# alone into a crowded directory spends milliseconds in Foundation's Bundle listing that directory.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bash scripts/bench-start.sh BROLLY_BINARY [BROLLY_BINARY ...]" >&2; exit 64; }
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-60}
command -v hyperfine >/dev/null 2>&1 || { echo "bench-start.sh needs hyperfine (apt-get install hyperfine)" >&2; exit 69; }

WORK=$(mktemp -d)
cleanup() { kill "${DOUBLE:-}" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
source scripts/upstream-double.sh
"$1" now --lat 52.52 --lon 13.41 > /dev/null
commands=()
for bin in "$@"; do
  "$bin" now --lat 52.52 --lon 13.41 --offline > /dev/null   # each binary's own first read
  commands+=("$bin now --lat 52.52 --lon 13.41 --offline")
done
for bin in "$@"; do commands+=("$bin --version"); done
for round in $(seq "$ROUNDS"); do
  echo "== round $round"
  hyperfine -N --warmup 10 --runs "$RUNS" --export-json "$WORK/round.json" "${commands[@]}" > /dev/null 2>&1
  python3 - "$WORK/round.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['command']:<80} median {r['median'] * 1000:5.1f} ms  mean {r['mean'] * 1000:5.1f} ms")
PY
done
