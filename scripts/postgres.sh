#!/usr/bin/env bash
# A PostgreSQL server for Brolly's cluster and its tests, on 127.0.0.1 only, in a directory of its
# own: Debian's `postgresql` package (installed when missing), a database `brolly` owned by the
# user `brolly`, trust authentication on loopback, TLS offered with a self-signed certificate
# (DIR/server.crt).
#
#   scripts/postgres.sh start  [DIR] [PORT]   # prints the BROLLY_DATABASE_URL to use
#   scripts/postgres.sh stop   [DIR]
#   scripts/postgres.sh status [DIR]
#
# DIR defaults to .brolly-postgres in the current directory, PORT to 55432. As root the server
# runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
command="${1:-start}"
dir="$(realpath -m "${2:-.brolly-postgres}")"
port="${3:-55432}"

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
if [ -z "$bin" ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "installing PostgreSQL (Debian's postgresql package)" >&2
        apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
        bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    else
        echo "PostgreSQL is not installed: sudo apt-get install postgresql" >&2
        exit 1
    fi
fi

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
start)
    if [ ! -f "$dir/PG_VERSION" ]; then
        mkdir -p "$dir"
        [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
        as_owner "$bin/initdb" -D "$dir" -U brolly --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
        # TLS offered too (clients choose with sslmode): a self-signed certificate for 127.0.0.1,
        # also its own CA, so that sslmode=verify-full&sslrootcert=$dir/server.crt can check it.
        if command -v openssl >/dev/null; then
            as_owner openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=127.0.0.1" \
                -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" -addext "basicConstraints=critical,CA:TRUE" \
                -keyout "$dir/server.key" -out "$dir/server.crt" >/dev/null 2>&1
            as_owner chmod 600 "$dir/server.key"
            echo "ssl = on" | as_owner tee -a "$dir/postgresql.conf" >/dev/null
        fi
    fi
    if ! as_owner "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
        if ! as_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300" >/dev/null; then
            # pg_ctl only says "Examine the log output": say what the server said (a port already
            # taken, say) where the caller sees it.
            echo "PostgreSQL did not start on 127.0.0.1:$port; the end of $dir/server.log:" >&2
            tail -n 15 "$dir/server.log" >&2 || true
            exit 1
        fi
    fi
    if ! as_owner "$bin/psql" -h 127.0.0.1 -p "$port" -U brolly -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'brolly'" | grep -q 1; then
        as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U brolly brolly
    fi
    echo "postgres://brolly@127.0.0.1:$port/brolly"
    ;;
stop)
    as_owner "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1 || true
    ;;
status)
    as_owner "$bin/pg_ctl" -D "$dir" status
    ;;
*)
    echo "usage: scripts/postgres.sh start|stop|status [DIR] [PORT]" >&2
    exit 2
    ;;
esac
