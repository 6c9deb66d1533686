#!/usr/bin/env python3
"""The cached weather under attack (issue 35): rerun with `python3 scripts/bench-attacks.py`.

Starts the upstream double and `brolly serve` (the release build when there is one, else the
debug one; BROLLY_BIN wins), fills the cache for one place, then runs wrk (2 threads, 64
connections, BENCH_SECONDS each, default 10) against the cached weather from 127.0.0.1:
  - alone (the baseline);
  - while one address (127.0.0.3) holds 1,100 connections with half a request each (slowloris);
  - while a client asks 300 distinct Open-Meteo pass-through queries whose answers are 6 MB;
  - while a crowd asks for new places (26 a second from many addresses);
and prints each figure beside the baseline, the server's peak memory and its cache directory's size.
Everything is on 127.0.0.1 and bounded in time."""

import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=30, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except OSError:
        return 0, b""


def wrk(url):
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{SECONDS}s", "--latency", url], capture_output=True, text=True).stdout
    rps = next((float(l.split()[1]) for l in out.splitlines() if l.startswith("Requests/sec")), 0.0)
    p99 = next((l.split()[1] for l in out.splitlines() if l.strip().startswith("99%")), "?")
    errors = next((l.strip() for l in out.splitlines() if "Socket errors" in l or "Non-2xx" in l), "")
    return rps, p99, errors


def vm(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    return 0


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 16384), hard))
    binary = os.environ.get("BROLLY_BIN") or next(
        str(p) for p in (ROOT / ".build/release/brolly", ROOT / ".build/debug/brolly") if p.exists())
    work = Path(tempfile.mkdtemp(prefix="brolly-bench-attacks-"))
    procs = []
    try:
        double = subprocess.Popen([sys.executable, str(ROOT / "tests/upstream_double.py"), "--port", "0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        procs.append(double)
        up = "http://127.0.0.1:" + double.stdout.readline().split()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("BROLLY_")}
        for name in ("OPEN_METEO", "OPEN_METEO_GEOCODING", "OPEN_METEO_AIR_QUALITY", "NWS", "METEOALARM", "NOMINATIM",
                     "BBC_FEEDS", "AVIATIONWEATHER", "OPENWEATHERMAP", "GOOGLE_GEOCODING", "NEWSAPI", "RADAR"):
            env[f"BROLLY_{name}_URL"] = up
        env.update(BROLLY_IP_LOCATION_URL=up + "/json", BROLLY_OPEN_METEO_PREVIOUS_RUNS_URL=up + "/previous-runs",
                   BROLLY_OPEN_METEO_ARCHIVE_URL=up + "/archive-api",
                   BROLLY_CACHE_DIR=str(work / "cache"), BROLLY_DATA_DIR=str(work / "data"), BROLLY_CONFIG_DIR=str(work / "config"),
                   BROLLY_LOG_LEVEL="warning", BROLLY_TRUSTED_PROXIES="127.0.0.1")
        port = free_port()
        server = subprocess.Popen([binary, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        procs.append(server)
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            if get(base + "/healthz", timeout=1)[0] == 200:
                break
            time.sleep(0.1)
        weather = base + "/api/v1/weather?lat=52.52&lon=13.41"
        get(weather)
        time.sleep(1)
        get(weather)
        print(f"binary: {binary}; wrk -t2 -c64 -d{SECONDS}s on the cached weather")
        rows = []
        baseline = wrk(weather)
        rows.append(("alone (baseline)", baseline))

        # 1. Slowloris from another address.
        held = []
        for _ in range(1100):
            s = socket.socket()
            s.bind(("127.0.0.3", 0))
            s.settimeout(2)
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(b"GET /api/v1/weather?lat=52.52&lon=13.41 HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            except OSError:
                pass
            held.append(s)
        rows.append(("1,100 slow connections, one address", wrk(weather)))
        for s in held:
            s.close()

        # 2. Large pass-through answers.
        get(up + "/__control", headers={})  # no-op GET keeps the double warm
        req = urllib.request.Request(up + "/__control", data=json.dumps(
            {"mode": "large", "path": "/v1/forecast", "bytes": 6 << 20, "times": -1}).encode(), method="POST",
            headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req).read()
        stop = threading.Event()
        refused = [0]

        def large():
            i = 0
            while not stop.is_set() and i < 300:
                status, _ = get(f"{base}/v1/forecast?latitude={10 + i * 0.01:.2f}&longitude=20&hourly=pressure_msl&forecast_days=16",
                                headers={"X-Forwarded-For": f"198.51.100.{i % 250}"})
                refused[0] += status == 400
                i += 1

        t = threading.Thread(target=large)
        t.start()
        rows.append(("300 pass-through queries of 6 MB", wrk(weather)))
        stop.set()
        t.join()
        urllib.request.urlopen(urllib.request.Request(up + "/__control", data=b'{"mode": "ok"}', method="POST",
                                                      headers={"Content-Type": "application/json"})).read()

        # 3. A crowd of new places from many addresses.
        stop = threading.Event()

        def crowd():
            i = 0
            while not stop.is_set():
                get(f"{base}/api/v1/weather?lat={-40 + (i % 800) * 0.1:.1f}&lon={(i // 800) * 0.1 + 5:.1f}",
                    headers={"X-Forwarded-For": f"203.0.113.{i % 250}"}, timeout=10)
                i += 1
                time.sleep(1 / 26)

        t = threading.Thread(target=crowd)
        t.start()
        rows.append(("a crowd of new places (26/s)", wrk(weather)))
        stop.set()
        t.join()

        for name, (rps, p99, errors) in rows:
            print(f"{name:<40} {rps:>10.0f} req/s  {rps / baseline[0]:.2f}× the baseline  p99 {p99:>8}  {errors}")
        cache = sum(f.stat().st_size for f in (work / "cache").rglob("*") if f.is_file())
        print(f"pass-through answers refused (over 1 MB): {refused[0]}; server VmHWM {vm(server.pid, 'VmHWM')} MB, "
              f"VmRSS {vm(server.pid, 'VmRSS')} MB; cache directory {cache / 1e6:.1f} MB; server alive: {server.poll() is None}")
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
