"""The page on a phone's connection: a slow 3G first visit and repeat, compressed text, and the
files that make it installable, measured in headless Chromium."""

import json
import urllib.error
import urllib.request
from conftest import BERLIN, ready_at, throttled_visit


# DevTools' "Slow 3G" as the issue measured it: 400 ms round trip, 400 kbit/s each way.
SLOW_3G = {"offline": False, "latency": 400, "downloadThroughput": 400 * 1000 / 8, "uploadThroughput": 400 * 1000 / 8}

def weather_shown_after(b):
    """Milliseconds from navigation start to the first weather on screen (the page's own mark)."""
    b.wait(lambda: b.js("return performance.getEntriesByName('brolly-weather-shown').length > 0"), timeout=40,
           what="weather on screen")
    return b.js("return performance.getEntriesByName('brolly-weather-shown')[0].startTime")

def transfer(b):
    return b.js("return performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))"
                ".map(r => [r.name.replace(location.origin, ''), r.transferSize, r.encodedBodySize, r.decodedBodySize])")


def test_slow_3g_first_visit_within_3_5_s_and_repeat_within_1_s(server, browser_factory, double):
    # The server's cache is warm, as in the measurement.
    b = throttled_visit(browser_factory, server, SLOW_3G, cache_disabled=False)
    first = weather_shown_after(b)
    sizes = transfer(b)
    print(f"\nSlow 3G first visit: weather after {first / 1000:.2f} s; {sum(s[1] for s in sizes)} bytes transferred")
    for name, sent, encoded, decoded in sizes:
        print(f"  {name[:60]:60} {sent:>7} {decoded:>7}")
    b.wait_state("ready")
    assert b.text("place-name") == "Berlin"
    assert first < 3500, first  # issue 23's limit
    # The map follows the card.
    b.wait(lambda: b.attr("map", "data-ready") == "true", timeout=40, what="the map")
    # A repeat visit on the same network: the service worker and the page's own memory.
    b.open()
    repeat = weather_shown_after(b)
    print(f"Slow 3G repeat visit: weather after {repeat / 1000:.2f} s")
    assert repeat < 1000, repeat


def test_text_responses_are_compressed(server, double):
    def fetch(path, gzip):
        req = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip"} if gzip else {})
        with urllib.request.urlopen(req, timeout=15) as r:
            headers = dict(r.headers)
            headers["Vary"] = ", ".join(r.headers.get_all("Vary") or [])
            return r.status, headers, r.read()

    import gzip as gz
    for path, kind in [("/", "text/html"), ("/style.css", "text/css"), ("/js/card.js", "javascript"),
                       ("/vendor/leaflet/leaflet.min.js", "javascript"), ("/manifest.webmanifest", "manifest"),
                       (f"/api/v1/weather?lat={BERLIN[0]}&lon={BERLIN[1]}", "json")]:
        status, plain_headers, plain = fetch(path, False)
        status, headers, body = fetch(path, True)
        assert "Accept-Encoding" in headers.get("Vary", ""), (path, headers)
        assert kind in headers["Content-Type"], (path, headers["Content-Type"])
        if len(plain) >= 1024:
            assert headers.get("Content-Encoding") == "gzip", path
            assert gz.decompress(body) == plain or path.startswith("/api/"), path
            assert len(body) < len(plain) / 2, (path, len(body), len(plain))
            assert int(headers["Content-Length"]) == len(body)
        assert "Content-Encoding" not in plain_headers
    # Leaflet is the minified build, not the 431 KB source.
    status, headers, body = fetch("/vendor/leaflet/leaflet.min.js", True)
    assert len(body) < 60_000
    # A compressed answer revalidates: its ETag is sent back and matched.
    status, headers, body = fetch("/style.css", True)
    req = urllib.request.Request(server.url + "/style.css", headers={"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]})
    try:
        urllib.request.urlopen(req, timeout=15)
        raise AssertionError("expected 304")
    except urllib.error.HTTPError as e:
        assert e.code == 304


def test_installable_with_png_icons(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN)
    b.driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
    errors = b.wait(lambda: (lambda r: r if r["installabilityErrors"] == [] else None)(b.cdp("Page.getInstallabilityErrors", {})),
                    timeout=20, what="no installability errors")
    assert errors == {"installabilityErrors": []}
    manifest = b.cdp("Page.getAppManifest", {})
    assert manifest["errors"] == [], manifest["errors"]
    doc = json.loads(urllib.request.urlopen(server.url + "/manifest.webmanifest", timeout=10).read())
    pngs = {(i["sizes"], i.get("purpose", "any")) for i in doc["icons"] if i["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= pngs
    for icon in doc["icons"]:
        with urllib.request.urlopen(server.url + icon["src"], timeout=10) as r:
            data = r.read()
        if icon["type"] == "image/png":
            assert r.headers["Content-Type"] == "image/png" and data[:8] == b"\x89PNG\r\n\x1a\n"
            w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert f"{w}x{h}" == icon["sizes"], icon
    # iOS: a PNG apple-touch-icon and the web-app meta tags; a theme colour for light and dark.
    touch = b.js("return document.querySelector('link[rel=apple-touch-icon]').getAttribute('href')")
    with urllib.request.urlopen(server.url + touch, timeout=10) as r:
        data = r.read()
    assert data[:4] == b"\x89PNG" and int.from_bytes(data[16:20], "big") == 180
    assert b.js("return document.querySelector('meta[name=apple-mobile-web-app-capable]').content") == "yes"
    assert b.js("return [...document.querySelectorAll('meta[name=theme-color]')].map(m => m.media)") == [
        "(prefers-color-scheme: light)", "(prefers-color-scheme: dark)"]
