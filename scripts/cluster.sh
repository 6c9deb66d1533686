#!/usr/bin/env bash
# Several servers, one PostgreSQL: starts PostgreSQL (Debian's `postgresql` package, installed when
# missing; data in .brolly-postgres/, on 127.0.0.1:55432) and three `brolly serve` on
# http://127.0.0.1:8081, :8082 and :8083 sharing it. Ctrl-C stops the three (PostgreSQL keeps
# running: `bash scripts/postgres.sh stop .brolly-postgres`).
#
#   bash scripts/cluster.sh            # build (release) and run
#   BROLLY_BIN=.build/debug/brolly bash scripts/cluster.sh
#
# Put a load balancer in front, for example nginx:
#
#   upstream brolly { server 127.0.0.1:8081; server 127.0.0.1:8082; server 127.0.0.1:8083; }
#   server {
#     listen 80;
#     location / {
#       proxy_pass http://brolly;
#       proxy_set_header Host $host;
#       proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
#       proxy_next_upstream error timeout http_502;
#     }
#   }
#
# or HAProxy:
#
#   backend brolly
#     balance roundrobin
#     option httpchk GET /healthz
#     server b1 127.0.0.1:8081 check
#     server b2 127.0.0.1:8082 check
#     server b3 127.0.0.1:8083 check
#
# and give every instance BROLLY_PUBLIC_ORIGIN=https://your.host (the address browsers use) and
# BROLLY_TRUSTED_PROXIES=127.0.0.1 (so each client's own address counts for its allowance).
set -euo pipefail
cd "$(dirname "$0")/.."

DATABASE_URL="${BROLLY_DATABASE_URL:-$(bash scripts/postgres.sh start .brolly-postgres 55432)}"
echo "PostgreSQL: $DATABASE_URL"

BIN="${BROLLY_BIN:-}"
if [ -z "$BIN" ]; then
  swift build -c release --static-swift-stdlib --product brolly   # the README's and serve.sh's build
  BIN=.build/release/brolly
fi

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait' INT TERM EXIT
for port in 8081 8082 8083; do
  # Each instance has its own cache directory and data directory; everything shared is in PostgreSQL.
  BROLLY_DATABASE_URL="$DATABASE_URL" \
    BROLLY_CACHE_DIR="${BROLLY_CACHE_DIR:-$HOME/.cache/brolly}/instance-$port" \
    BROLLY_DATA_DIR="${BROLLY_DATA_DIR:-$HOME/.local/share/brolly}/instance-$port" \
    "$BIN" serve --port "$port" &
  pids+=($!)
done
for port in 8081 8082 8083; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
  echo "brolly serve on http://127.0.0.1:$port"
done
wait
