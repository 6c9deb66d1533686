#!/usr/bin/env python3
"""The cost of one forecast-accuracy look (issue 26): rerun with `python3 scripts/bench-accuracy.py`.

Starts the upstream double, `brolly serve` pointed at it and, as the reference for the cached
answer, `brolly bench-reference` (a bare Hummingbird route) serving the same bytes. Prints:
  - the upstream calls of one look at a place with a station within 25 km and at one without;
  - a cold GET /api/v1/accuracy (median over distinct places; most of it is the double making a
    month of hourly values for eight models, as the real API would send them);
  - a cached GET (median and p99 of 300 in a row) against the bare route serving the same bytes.
The binary is BROLLY_BIN, else .build/release/brolly when built, else .build/debug/brolly.
"""

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def fetch(url):
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as r:
        body = r.read()
        status = r.status
    return status, body, time.perf_counter() - started


def wait_for(url):
    for _ in range(300):
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not come up")


def calls(double):
    with urllib.request.urlopen(double + "/__calls") as r:
        return json.load(r)["paths"]


def main():
    binary = os.environ.get("BROLLY_BIN") or next(
        (str(p) for p in (ROOT / ".build/release/brolly", ROOT / ".build/debug/brolly") if p.exists()), None)
    if not binary:
        raise SystemExit("build brolly first: swift build -c release --product brolly")
    work = Path(tempfile.mkdtemp(prefix="brolly-bench-accuracy-"))
    procs = []
    try:
        double_out = work / "double.out"
        procs.append(subprocess.Popen([sys.executable, str(ROOT / "tests/upstream_double.py"), "--port", "0"],
                                      stdout=open(double_out, "w"), stderr=subprocess.DEVNULL))
        for _ in range(100):
            if "PORT" in double_out.read_text():
                break
            time.sleep(0.1)
        double = "http://127.0.0.1:" + double_out.read_text().split()[1]
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("BROLLY_")}
        env.update(BROLLY_CACHE_DIR=str(work / "cache"), BROLLY_CONFIG_DIR=str(work / "config"), BROLLY_DATA_DIR=str(work / "data"),
                   BROLLY_LOG_LEVEL="warning", BROLLY_CLIENT_CALLS_PER_MINUTE="100000")
        for name in ("OPEN_METEO", "OPEN_METEO_GEOCODING", "OPEN_METEO_AIR_QUALITY", "NWS", "METEOALARM", "NOMINATIM",
                     "BBC_FEEDS", "AVIATIONWEATHER"):
            env[f"BROLLY_{name}_URL"] = double
        env["BROLLY_OPEN_METEO_PREVIOUS_RUNS_URL"] = double + "/previous-runs"
        env["BROLLY_OPEN_METEO_ARCHIVE_URL"] = double + "/archive-api"
        procs.append(subprocess.Popen([binary, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
        base = f"http://127.0.0.1:{port}"
        wait_for(base + "/healthz")

        def look(lat, lon):
            # The place is named first (Nominatim's one request a second would otherwise be most
            # of a cold look's time), so what is timed is the look itself.
            try:
                fetch(f"{base}/api/v1/places/reverse?lat={lat}&lon={lon}")
            except urllib.error.HTTPError:
                pass  # nothing named there: the look names it by its coordinates
            before = calls(double)
            status, body, seconds = fetch(f"{base}/api/v1/accuracy?lat={lat}&lon={lon}")
            after = calls(double)
            spent = {p: after.get(p, 0) - before.get(p, 0) for p in after if after.get(p, 0) != before.get(p, 0)}
            spent.pop("/reverse", None)  # naming the place, not the look
            return status, body, seconds, spent

        _, body, cold_station, station_calls = look(40.71, -74.01)
        _, _, cold_none, none_calls = look(27.70, 85.32)
        colds = [cold_station, cold_none]
        for i in range(6):
            colds.append(look(10 + i * 3.1, 20 + i * 2.7)[2])
        before_cached = calls(double)
        cached = [fetch(f"{base}/api/v1/accuracy?lat=40.71&lon=-74.01")[2] for _ in range(300)]
        after_cached = calls(double)
        # What the double itself takes to make a Previous Runs answer (a month, eight models).
        upstream_times = [fetch(f"{double}/previous-runs/v1/forecast?latitude=27.7&longitude=85.3&hourly="
                                "temperature_2m,temperature_2m_previous_day1,temperature_2m_previous_day2,temperature_2m_previous_day3,"
                                "temperature_2m_previous_day4,temperature_2m_previous_day5,temperature_2m_previous_day6,"
                                "temperature_2m_previous_day7,precipitation,precipitation_previous_day1,precipitation_previous_day2,"
                                "precipitation_previous_day3,precipitation_previous_day4,precipitation_previous_day5,"
                                "precipitation_previous_day6,precipitation_previous_day7&models=best_match,ecmwf_ifs025,icon_seamless,"
                                "gfs_seamless,meteofrance_seamless,ukmo_seamless,jma_seamless,gem_seamless&past_days=31&forecast_days=1"
                                "&timezone=auto")[2] for _ in range(3)]

        (work / "body.json").write_bytes(body)
        ref_port = free_port()
        procs.append(subprocess.Popen([binary, "bench-reference", "--port", str(ref_port), "--body", str(work / "body.json")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        ref = f"http://127.0.0.1:{ref_port}/api/v1/weather"
        wait_for(ref)
        reference = [fetch(ref)[2] for _ in range(300)]

        def ms(x):
            return f"{x * 1000:.2f} ms"

        p99 = lambda xs: sorted(xs)[int(len(xs) * 0.99) - 1]
        print(f"binary: {binary}")
        print(f"one look with a station within 25 km: {sum(station_calls.values())} upstream calls {station_calls}")
        print(f"one look without a station:           {sum(none_calls.values())} upstream calls {none_calls}")
        print(f"cold GET /api/v1/accuracy: median {ms(statistics.median(colds))} over {len(colds)} places "
              f"(station {ms(cold_station)}, none {ms(cold_none)}); of which the double's Previous Runs answer alone: "
              f"median {ms(statistics.median(upstream_times))}")
        print(f"cached GET /api/v1/accuracy: median {ms(statistics.median(cached))}, p99 {ms(p99(cached))}; "
              f"bare route, same {len(body)} bytes: median {ms(statistics.median(reference))}, p99 {ms(p99(reference))}; "
              f"ratio of medians {statistics.median(reference) / statistics.median(cached):.2f}×")
        during = {p: after_cached[p] - before_cached.get(p, 0) for p in after_cached if after_cached[p] != before_cached.get(p, 0)}
        print(f"upstream calls during the 300 cached looks: {sum(during.values())} {during}")
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
