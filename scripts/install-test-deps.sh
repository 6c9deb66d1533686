#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine, skipping what is already there:
# Chromium and its driver, Leaflet (Debian's libjs-leaflet), wrk (the flood test), esbuild (the page's
# bundle), PostgreSQL, and pytest, pytest-xdist (the cases in parallel), Selenium and schemathesis
# from PyPI.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
[ -f /usr/share/javascript/leaflet/leaflet.js ] || missing+=(libjs-leaflet)
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
# esbuild bundles the page's modules (scripts/bundle.sh; the test checks the committed bundle).
command -v esbuild >/dev/null 2>&1 || missing+=(esbuild)
# PostgreSQL's server, for the store's tests on both engines and the cluster tests (tests/test_cluster.py).
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

if ! python3 -c "import pytest, xdist, selenium, jsonschema, openapi_spec_validator, schemathesis, http_ece, cryptography, axe_selenium_python" >/dev/null 2>&1; then
  echo "installing Python packages: pytest pytest-xdist selenium jsonschema openapi-spec-validator schemathesis http-ece cryptography axe-selenium-python"
  python3 -m pip install -q --disable-pip-version-check pytest pytest-xdist selenium jsonschema openapi-spec-validator schemathesis http-ece cryptography axe-selenium-python
fi

# The weather clients people already run, for the compatible APIs' tests (tests/test_compatible_apis.py):
# each pointed at `brolly serve` by its base URL. Installed apart from the test tools (--target, no
# dependencies: they use the requests already here), so that their pinned requirements cannot
# downgrade what the other tests need.
CLIENTS="${BROLLY_TEST_CLIENTS:-$HOME/.cache/brolly-test-clients}"
if [ ! -d "$CLIENTS/pirateweather" ]; then
  echo "installing the weather clients into $CLIENTS: pirateweatherlib"
  python3 -m pip install -q --disable-pip-version-check --no-deps --target "$CLIENTS" "pirateweatherlib==0.4.0"
fi
# The others each in a directory of their own with their own dependencies (run as subprocesses by
# tests/clients/*.py). `client DIR MODULE SPEC…` installs SPEC… into $CLIENTS/DIR unless MODULE is there.
client() {
  local dir="$1" module="$2"
  shift 2
  if [ ! -d "$CLIENTS/$dir/$module" ]; then
    echo "installing $* into $CLIENTS/$dir"
    python3 -m pip install -q --disable-pip-version-check --target "$CLIENTS/$dir" "$@"
  fi
}
# open-meteo: Home Assistant's Open-Meteo integration (1.x), and the 0.4 Home Assistant core pins.
client open-meteo open_meteo "open-meteo==1.0.1"
client open-meteo-0-4 open_meteo "open-meteo==0.4.0"
# Open-Meteo's official Python client (its TypeScript and Swift SDKs read the same FlatBuffers);
# the upstream double builds its FlatBuffers answers with the flatbuffers package it brings.
client openmeteo-requests openmeteo_requests "openmeteo-requests==1.3.0" "openmeteo-sdk==1.29.0"
client pyowm pyowm "pyowm==3.5.0"
# pyopenweathermap: Home Assistant core's OpenWeatherMap integration's client (One Call 3.0 by default).
client pyopenweathermap pyopenweathermap "pyopenweathermap==0.3.0"
# pirate-weather-python's successor on PyPI (the same module, its own pinned requirements).
client pirateweather-1 pirate_weather "pirateweather==1.0.1"
# Dark Sky's Python clients.
client python-forecastio forecastio "python-forecastio==1.4.0"
client forecastiopy forecastiopy "forecastiopy==0.22"
# pirate-weather-python: its pinned aiohttp 3.5 no longer imports on Python 3.11, so a current one.
if [ ! -d "$CLIENTS/pirate-weather-python/pirate_weather" ]; then
  echo "installing pirate-weather-python into $CLIENTS/pirate-weather-python"
  python3 -m pip install -q --disable-pip-version-check --no-deps --target "$CLIENTS/pirate-weather-python" "pirate-weather-python==0.0.6"
  python3 -m pip install -q --disable-pip-version-check --target "$CLIENTS/pirate-weather-python" "requests>=2.31" pytz "aiohttp>=3.9"
fi
