#!/usr/bin/env python3
"""The page on a phone's connection (issue 39): rerun with `python3 scripts/bench-page.py [--runs 3]`.

Starts the upstream double and `brolly serve` pointed at it (its cache warmed for the place, as a
returning user's server would have it), then drives headless Chromium at a 390 x 844 phone viewport
with the DevTools protocol's network emulation and prints, for each run:

  - first visit at 400 ms round trip, 400 kbit/s each way: when the temperature shows;
  - first visit at Chrome's "Slow 3G" preset (2,000 ms, 400 kbit/s): the same;
  - returning visit at Slow 3G with the service worker's own fetches throttled too (as on a real
    phone; DevTools' page throttling alone does not reach the worker): when the saved copy shows,
    and when the fresh temperature (an answer from the network) shows;
  - the bytes on the wire and the requests finished before the temperature showed (first visit).

"Shows" is the page's own performance marks: `brolly-weather-shown` (the first card on screen,
drawn by the server or by the script) and `brolly-weather-fresh` (the first card from a network
answer). The binary is BROLLY_BIN, else .build/release/brolly when built, else .build/debug/brolly.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
release = ROOT / ".build" / "release" / "brolly"
if "BROLLY_BIN" not in os.environ and release.exists():
    os.environ["BROLLY_BIN"] = str(release)

import conftest  # noqa: E402  (the tests' double, server and browser)

BERLIN = (52.52, 13.41)
THROTTLED = {"offline": False, "latency": 400, "downloadThroughput": 400 * 1000 / 8, "uploadThroughput": 400 * 1000 / 8}
SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 400 * 1000 / 8, "uploadThroughput": 400 * 1000 / 8}


def mark(b, name, timeout=60):
    b.wait(lambda: b.js(f"return performance.getEntriesByName('{name}').length > 0"), timeout=timeout, what=name)
    return b.js(f"return performance.getEntriesByName('{name}')[0].startTime")


def before(b, ms):
    """Bytes on the wire and requests finished by `ms` (the navigation counts as one)."""
    entries = b.js("return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
                   ".map(r => [r.name.replace(location.origin, ''), r.transferSize, r.responseEnd])")
    done = [e for e in entries if e[2] <= ms]
    return sum(e[1] for e in done), [e[0] for e in done]


class WorkerThrottle:
    """The service worker's own network, throttled through its DevTools target."""

    def __init__(self, b):
        self.b = b
        self.sessions = []

    def apply(self, conditions):
        targets = self.b.cdp("Target.getTargets", {})["targetInfos"]
        workers = [t for t in targets if t["type"] == "service_worker"]
        if not workers:
            raise SystemExit("no service worker to throttle")
        for w in workers:
            session = self.b.cdp("Target.attachToTarget", {"targetId": w["targetId"], "flatten": False})["sessionId"]
            for i, (method, params) in enumerate([("Network.enable", {}), ("Network.emulateNetworkConditions", conditions)]):
                self.b.cdp("Target.sendMessageToTarget",
                           {"sessionId": session, "message": json.dumps({"id": i + 1, "method": method, "params": params})})
            self.sessions.append(session)
        return len(workers)


def first_visit(server, factory, conditions):
    b = factory(server.url)
    b.allow_location(*BERLIN)
    b.cdp("Network.setCacheDisabled", {"cacheDisabled": True})
    b.cdp("Network.emulateNetworkConditions", conditions)
    b.open()
    shown = mark(b, "brolly-weather-shown")
    size, names = before(b, shown)
    b.quit()
    return shown, size, names


def returning_visit(server, factory):
    b = factory(server.url)
    b.allow_location(*BERLIN)
    b.open()
    mark(b, "brolly-weather-fresh")
    b.driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
    b.wait(lambda: b.js("return !!navigator.serviceWorker.controller"), timeout=20, what="a controlling worker")
    b.wait(lambda: b.js("return caches.keys().then(k => k.length)") > 0, timeout=20, what="the worker's cache")
    # The worker has filled its cache: give it a moment to finish.
    b.driver.execute_async_script("setTimeout(arguments[0], 1500)")
    b.cdp("Network.emulateNetworkConditions", SLOW_3G)
    WorkerThrottle(b).apply(SLOW_3G)
    b.open()
    saved = mark(b, "brolly-weather-shown")
    fresh = mark(b, "brolly-weather-fresh")
    b.quit()
    return saved, fresh


def spread(values, unit="s", scale=1000):
    return " / ".join(f"{v / scale:.2f}" for v in values) + f" {unit} (median {statistics.median(values) / scale:.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    double = conftest.Double()
    tmp = Path(tempfile.mkdtemp(prefix="brolly-bench-page-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROLLY_") or k == "BROLLY_BIN"}
    env.update(LANG="C.UTF-8", HOME=str(tmp), BROLLY_CACHE_DIR=str(tmp / "cache"), BROLLY_CONFIG_DIR=str(tmp / "config"),
               BROLLY_DATA_DIR=str(tmp / "data"))
    env.update(double.env())
    server = conftest.Server(env)
    opened = []

    def factory(url):
        b = conftest.Browser(url)
        opened.append(b)
        return b

    try:
        urllib.request.urlopen(f"{server.url}/api/v1/weather?lat={BERLIN[0]}&lon={BERLIN[1]}", timeout=30).read()
        print(f"binary: {conftest.brolly_binary()}")
        rows = {"first": [], "slow": [], "saved": [], "fresh": [], "bytes": [], "requests": []}
        for run in range(args.runs):
            shown, size, names = first_visit(server, factory, THROTTLED)
            rows["first"].append(shown)
            rows["bytes"].append(size)
            rows["requests"].append(len(names))
            print(f"run {run + 1}: first visit 400 ms / 400 kbit/s: temperature at {shown / 1000:.2f} s; "
                  f"before it {size / 1000:.1f} KB in {len(names)} requests: {' '.join(names)}")
            shown, _, _ = first_visit(server, factory, SLOW_3G)
            rows["slow"].append(shown)
            print(f"run {run + 1}: first visit Slow 3G: temperature at {shown / 1000:.2f} s")
            saved, fresh = returning_visit(server, factory)
            rows["saved"].append(saved)
            rows["fresh"].append(fresh)
            print(f"run {run + 1}: returning visit Slow 3G, worker throttled: saved copy at {saved / 1000:.2f} s, "
                  f"fresh temperature at {fresh / 1000:.2f} s")
        print()
        print(f"first visit, 400 ms / 400 kbit/s:       {spread(rows['first'])}")
        print(f"first visit, Slow 3G:                  {spread(rows['slow'])}")
        print(f"returning, Slow 3G, saved copy:        {spread(rows['saved'])}")
        print(f"returning, Slow 3G, fresh temperature: {spread(rows['fresh'])}")
        print(f"before the temperature (first visit):  {spread(rows['bytes'], 'KB')}, "
              f"{' / '.join(str(n) for n in rows['requests'])} requests")
    finally:
        for b in opened:
            try:
                b.quit()
            except Exception:
                pass
        server.stop()
        double.stop()


if __name__ == "__main__":
    main()
