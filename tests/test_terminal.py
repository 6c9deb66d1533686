"""Weather where people glance: the wttr.in-style text endpoint, the one-line format and Waybar
JSON in the CLI, the small now API and the embeddable widget (issue 11)."""

import json
import re
import urllib.error
import urllib.request

CURL = {"User-Agent": "curl/8.5.0"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")
BERLIN_C = round(20 - 52.52 / 3, 1)


def get(url, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def test_curl_gets_the_now_view_in_colour_and_plain_with_T(server, double):
    status, headers, body = get(server.url + "/Berlin", CURL)
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert ANSI.search(body) and "Berlin" in body and "Humidity" in body
    status, _, plain = get(server.url + "/Berlin?T", CURL)
    assert status == 200 and not ANSI.search(plain) and "Berlin" in plain
    # Not a terminal client: no colour either.
    assert not ANSI.search(get(server.url + "/Berlin", {"User-Agent": "python-urllib"})[2])


def test_coordinates_and_tilde_names(server, double):
    status, _, body = get(server.url + "/52.52,13.41?format=%l:+%t", CURL)
    assert status == 200 and body.endswith("\n") and "+3°C" in body
    status, _, body = get(server.url + "/~Paris?format=3", CURL)
    assert status == 200 and body.startswith("Paris")


def test_one_line_formats_match_the_json(server, double):
    doc = json.loads(get(server.url + "/api/v1/weather?lat=52.52&lon=13.41")[2])
    c = doc["current"]
    fmt = "%t|%h|%P|%w|%C|%l|%%"
    status, _, line = get(server.url + "/52.52,13.41?format=" + urllib.request.quote(fmt), CURL)
    t, h, p, w, cond, loc, pct = line.rstrip("\n").split("|")
    assert t == f"+{int(c['temperature'] + 0.5)}°C" and c["temperature"] == BERLIN_C
    assert h == f"{round(c['humidity'])}%" and p == f"{round(c['pressure'])}hPa"
    assert w.endswith(f"{c['windSpeed']:.1f}m/s")
    assert cond.lower() == c["condition"]["description"] and loc.startswith(doc["place"]["name"]) and pct == "%"
    for preset, parts in (("1", 2), ("2", 3), ("3", 3), ("4", 4)):
        status, _, line = get(server.url + f"/Berlin?format={preset}", CURL)
        assert status == 200 and len(line.split()) >= parts, (preset, line)
    # USCS and wind in m/s, as wttr.in spells them.
    assert "°F" in get(server.url + "/Berlin?u&format=%t", CURL)[2]
    assert "km/h" in get(server.url + "/Berlin?m&format=%w", CURL)[2]
    assert "m/s" in get(server.url + "/Berlin?M&format=%w", CURL)[2]
    # An unknown code is printed as it is; a malformed format is no crash.
    assert get(server.url + "/Berlin?format=%Q%25", CURL)[2] == "%Q%\n"


def test_status_codes_and_etags(server, double):
    status, headers, body = get(server.url + "/Nowhere", CURL)
    assert status == 404 and len(body.strip().splitlines()) == 1 and headers["Content-Type"].startswith("text/plain")
    status, headers, _ = get(server.url + "/Berlin?T", CURL)
    etag = headers["ETag"]
    status, _, body = get(server.url + "/Berlin?T", dict(CURL, **{"If-None-Match": etag}))
    assert status == 304 and body == ""


def test_provider_down_is_a_one_line_5xx(server, double):
    double.fault("500", times=-1, path="/v1/forecast")
    status, _, body = get(server.url + "/Kathmandu", CURL)
    assert status in (502, 503, 504) and len(body.strip().splitlines()) == 1


def test_root_tells_curl_how_to_ask_and_browsers_get_the_app(server, double):
    status, _, body = get(server.url + "/", CURL)
    assert status == 200 and "curl" in body and "/Paris" in body
    status, headers, body = get(server.url + "/", {"User-Agent": "Mozilla/5.0", "Accept": "text/html"})
    assert status == 200 and headers["Content-Type"].startswith("text/html") and "<html" in body


def test_small_now_api(server, double):
    status, headers, body = get(server.url + "/api/v1/weather/now?lat=52.52&lon=13.41&units=imperial")
    doc = json.loads(body)
    assert status == 200 and len(body) < 600 and headers.get("ETag")
    assert set(doc) >= {"temperature", "feelsLike", "condition", "clouds", "temperatureMin", "temperatureMax", "alert", "fetchedAt", "stale"}
    assert doc["units"] == "°F" and abs(doc["temperature"] - round(BERLIN_C * 9 / 5 + 32, 1)) < 0.11
    assert get(server.url + "/api/v1/weather/now?lat=99&lon=0")[0] == 400


def test_cli_one_line_and_waybar(cli, double):
    r = cli.run("now", "--lat", "52.52", "--lon", "13.41", "--format", "%t %h")
    assert r.returncode == 0 and r.stdout.strip().startswith("+3°C")
    w = json.loads(cli.run("now", "--place", "Berlin", "--format", "waybar").stdout)
    assert w["text"].endswith("+3°C") and "\n" in w["tooltip"] and w["class"][0] in ("clear", "rain", "partlyCloudy", "overcast", "mostlyClear", "drizzle", "showers", "snow", "fog", "thunderstorm", "sleet", "freezingRain", "snowShowers")
    r = cli.run("now", "--place", "Berlin", "--format", "%t", "--json")
    assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1


def test_widget_online_and_offline(server, browser_factory, double):
    b = browser_factory(server.url, width=320, height=160)
    b.open("/widget?lat=52.52&lon=13.41&theme=dark")
    b.wait(lambda: b.js("return document.getElementById('widget').dataset.state") == "ready", what="the widget")
    assert b.js("return document.getElementById('temp').textContent") == "3°C"
    assert b.js("return document.getElementById('stale').hidden") is True
    assert b.js("return document.documentElement.dataset.theme") == "dark"
    box = b.js("const r = document.getElementById('widget').getBoundingClientRect(); return [r.width, r.height]")
    assert box[0] <= 320 and box[1] <= 160, box  # fits a 320×160 frame
    # Offline: the last weather stays, marked stale (the service worker keeps the widget's files).
    b.wait(lambda: b.js("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"), what="the service worker")
    b.network(False)
    b.js("location.reload()")
    b.wait(lambda: b.js("return document.getElementById('stale') && !document.getElementById('stale').hidden"), what="stale marker offline")
    assert b.js("return document.getElementById('temp').textContent") == "3°C"
    b.network(True)


def test_widget_is_small(server, double):
    page = get(server.url + "/widget?place=Berlin")[2]
    script = get(server.url + "/widget.js")[2]
    assert len(page.encode()) + len(script.encode()) < 30 * 1024
    status, headers, _ = get(server.url + "/widget?place=Berlin")
    assert "frame-ancestors *" in headers["Content-Security-Policy"]


def test_manifest_has_shortcuts_to_saved_places(server, double):
    from test_device_data import Client
    a = Client(server.url)
    assert a.post("/api/v1/places", {"query": "Paris", "customName": "Work"})[0] == 201
    status, headers, manifest = a.get("/manifest.webmanifest")
    assert status == 200 and headers["Content-Type"].startswith("application/manifest+json")
    assert [s["name"] for s in manifest["shortcuts"]] == ["Weather in Work"]
    assert manifest["shortcuts"][0]["url"].startswith("/?lat=48.85")
    # Without the cookie: no shortcuts, and still a valid manifest.
    anonymous = json.loads(get(server.url + "/manifest.webmanifest")[2])
    assert anonymous["shortcuts"] == [] and anonymous["display"] == "standalone"


def test_a_shortcut_opens_its_place(server, browser_factory, double):
    b = browser_factory(server.url)
    b.deny_location()
    b.open("/?lat=48.8534&lon=2.3488&name=Work")
    b.wait_state("ready")
    assert b.js("return document.getElementById('place-name').textContent") == "Work"
    assert abs(b.map_view()["lat"] - 48.8534) < 0.05
