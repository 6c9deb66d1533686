"""Issue 39, item 1: the weather in one round trip. The page's code is one minified bundle (the
card's code first, the rest after the temperature), the weather asked for by the page's first
inline lines before any module (allowed by their hash), the first paint's language and units in the
page, and a returning browser's card drawn by the server from its cache (no upstream call)."""

import base64
import gzip
import hashlib
import json
import re
import urllib.request

from conftest import BERLIN, BERLIN_C, js_round, ready_at, throttled_visit, wait_for_service_worker

SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 400 * 1000 / 8, "uploadThroughput": 400 * 1000 / 8}


def page(server, headers=None, path="/"):
    req = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip", **(headers or {})})
    with urllib.request.urlopen(req, timeout=15) as r:
        body = r.read()
        if r.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return r.headers, body.decode()


def boot(html):
    return json.loads(re.search(r'<script type="application/json" id="brolly-boot"[^>]*>(.*?)</script>', html, re.S).group(1))


def test_the_page_carries_its_first_paint_and_its_first_lines_are_allowed_by_their_hash(server, double):
    headers, html = page(server)
    # The first inline lines (the only script without src or type), and their hash in the policy.
    inline = re.search(r"<script data-languages=\"[^\"]*\">(.*?)</script>", html, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
    policy = headers["Content-Security-Policy"]
    assert f"'sha256-{digest}'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    # They come before the stylesheet and the modules (a script after a stylesheet waits for it).
    assert html.index("brollyStart") < html.index("<style>") < html.index('src="/app/main.js"')
    # The stylesheet inline, the bundle's entry and its shared chunk asked for together.
    assert 'href="/style.css"' not in html
    chunks = re.findall(r'<link rel="modulepreload" href="(/app/chunk-[A-Z0-9]+\.js)">', html)
    assert len(chunks) == 1
    entry = urllib.request.urlopen(server.url + "/app/main.js", timeout=10).read().decode()
    assert chunks[0].split("/")[-1] in entry
    assert urllib.request.urlopen(server.url + chunks[0], timeout=10).status == 200
    # The first paint's texts (English over nothing here), languages and conversion table.
    data = boot(html)
    assert data["texts"]["code"] == "en" and data["texts"]["page"]["feelsLike"] == "Feels like"
    # Only the texts the page's code uses: those of the HTML itself are already written in it.
    assert "allowChrome" not in data["texts"]["page"] and "Chrome" in html
    assert {"temperature", "wind", "pressure"} <= set(data["units"]) and len(data["languages"]) >= 14
    # The device cookie comes with the page, so the first weather request is already this browser's.
    assert any(c.startswith("brolly_device=") for c in headers.get_all("Set-Cookie"))
    assert 'data-device="true"' in html
    # No comments for browsers; no upstream call for the page.
    assert "<!--" not in html and double.calls() == 0


def test_the_page_comes_in_the_readers_language(server, double):
    _, html = page(server, {"Accept-Language": "xx, ru;q=0.9, en;q=0.5"})
    assert '<html lang="ru" dir="ltr">' in html and boot(html)["texts"]["code"] == "ru"
    assert boot(html)["texts"]["page"]["feelsLike"] != boot(page(server)[1])["texts"]["page"]["feelsLike"]
    # The language the page chose last (its cookie) over the browser's; ?lang= over both.
    _, html = page(server, {"Accept-Language": "ru", "Cookie": "brolly_lang=de"})
    assert '<html lang="de"' in html
    _, html = page(server, {"Accept-Language": "ru", "Cookie": "brolly_lang=de"}, path="/?lang=ar")
    assert '<html lang="ar" dir="rtl">' in html
    # A language Brolly does not speak: English.
    _, html = page(server, {"Accept-Language": "xx"})
    assert '<html lang="en" dir="ltr">' in html


def test_a_returning_browsers_card_is_drawn_by_the_server_from_its_cache_only(server, double):
    # Nothing cached for the place: no card, and no upstream call to make one.
    cookie = {"Cookie": "brolly_place=52.5200,13.4100; brolly_units=F"}
    _, html = page(server, cookie)
    assert 'data-state="loading"' in html and 'data-drawn="server"' not in html and double.calls() == 0
    doc = json.loads(urllib.request.urlopen(f"{server.url}/api/v1/weather?lat=52.5200&lon=13.4100", timeout=15).read())
    calls = double.calls()
    headers, html = page(server, cookie)
    assert double.calls() == calls
    assert 'data-state="ready" data-drawn="server"' in html and '<article id="card" class="card">' in html
    fahrenheit = js_round(doc["current"]["temperature"] * 9 / 5 + 32)
    assert f'id="temperature">{fahrenheit}°F</p>' in html
    assert f'id="place-name">{doc["place"]["name"]}</h3>' in html
    assert f'id="description">{doc["current"]["condition"]["description"]}</p>' in html
    # The mark that says when the weather showed, allowed by its hash.
    mark = "performance.mark('brolly-weather-shown')"
    digest = base64.b64encode(hashlib.sha256(mark.encode()).digest()).decode()
    assert f"<script>{mark}</script>" in html and f"'sha256-{digest}'" in headers["Content-Security-Policy"]
    assert "private" in headers["Cache-Control"] and "Cookie" in headers["Vary"]
    # In Celsius without a unit cookie; a cookie that is not a place draws nothing.
    _, html = page(server, {"Cookie": "brolly_place=52.5200,13.4100"})
    assert f'id="temperature">{js_round(doc["current"]["temperature"])}°C</p>' in html
    for bad in ("brolly_place=91,0", "brolly_place=abc", "brolly_place=1,2,3", "brolly_place="):
        status_html = page(server, {"Cookie": bad})[1]
        assert 'data-drawn="server"' not in status_html
    assert double.calls() == calls


def test_the_server_drawn_card_shows_with_no_script_at_all(server, browser_factory, double):
    urllib.request.urlopen(f"{server.url}/api/v1/weather?lat=52.5200&lon=13.4100", timeout=15).read()
    b = browser_factory(server.url)
    b.cdp("Emulation.setScriptExecutionDisabled", {"value": True})
    b.cdp("Network.setCookie", {"name": "brolly_place", "value": "52.5200,13.4100", "url": server.url})
    b.open()
    temperature = b.driver.find_element("id", "temperature")
    assert temperature.is_displayed() and temperature.text == f"{js_round(BERLIN_C)}°C"
    assert b.driver.find_element("id", "place-name").text == "Berlin"
    # None of the page's code ran: the language switch has only the option written in the HTML.
    assert len(b.driver.find_elements("css selector", "#language option")) == 1
    b.screenshot("server-drawn-card-no-script")


def test_first_visit_asks_for_the_weather_before_any_module_and_needs_four_requests(server, browser_factory, double):
    b = throttled_visit(browser_factory, server, SLOW_3G)
    b.wait(lambda: b.js("return performance.getEntriesByName('brolly-weather-shown').length > 0"), timeout=60, what="weather")
    shown = b.js("return performance.getEntriesByName('brolly-weather-shown')[0].startTime")
    entries = b.js("return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
                   ".map(r => ({name: r.name.replace(location.origin, ''), size: r.transferSize, start: r.requestStart, end: r.responseEnd}))")
    before = [e for e in entries if e["end"] <= shown]
    names = [e["name"] for e in before]
    print("\nbefore the temperature:", [(e["name"], e["size"]) for e in before], f"shown at {shown:.0f} ms")
    assert len(before) <= 4 and sum(e["size"] for e in before) <= 30_000, names
    weather = next(e for e in entries if e["name"].startswith("/api/v1/weather"))
    entry = next(e for e in entries if e["name"] == "/app/main.js")
    # The weather was asked for before the card's code had arrived (not after it ran).
    assert weather["start"] < entry["end"], (weather, entry)
    # Leaflet and the rest of the page's code follow the card.
    for name in ("/vendor/leaflet/leaflet.min.js", "/app/later.js"):
        b.wait(lambda: any(e["name"] == name for e in b.js(
            "return performance.getEntriesByType('resource').map(r => ({name: r.name.replace(location.origin, '')}))")),
            timeout=60, what=name)
        assert name not in names
    b.wait_state("ready")
    assert b.text("place-name") == "Berlin"


def test_a_returning_visit_opens_from_the_workers_copy_and_the_page_still_works(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN)
    wait_for_service_worker(b)
    b.wait(lambda: b.js("return caches.keys().then(k => Promise.all(k.map(n => caches.open(n).then(c => c.keys()))))"
                        ".then(l => l.flat().some(r => r.url.includes('/app/later.js')))"), timeout=20, what="the bundle kept")
    b.open()
    b.wait_state("ready")
    # The page came from the worker's copy, its code too; the weather from the network.
    nav = b.js("return performance.getEntriesByType('navigation')[0].workerStart > 0")
    assert nav
    b.wait(lambda: b.js("return performance.getEntriesByName('brolly-weather-fresh').length > 0"), timeout=20, what="fresh")
    # The rest of the page works: the language switch lists every language, the map comes.
    b.wait(lambda: b.js("return document.querySelectorAll('#language option').length") >= 14, timeout=20, what="languages")
    b.wait(lambda: b.attr("map", "data-ready") == "true", timeout=30, what="the map")
