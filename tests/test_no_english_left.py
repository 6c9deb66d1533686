"""Issue 24's quality gate: in every translated language no English is left — the page (the weather
shown with its details open, a saved place, the radar on, the units panel open; and the
location-denied state) and the CLI's commands (now, forecast with hours, alerts, units). A word of
English's texts (four letters or more) found in another language's output fails, unless that
language's own file uses it too (Brolly, Beaufort, Celsius) or it is a proper name from the answer
(the place, the address, the station, a warning's own text from its source, a news headline)."""

import json
import re
import urllib.request
from pathlib import Path

import pytest

from conftest import BERLIN, SYDNEY, Browser, Double, Server, chromium_paths, home_env

LANGUAGES = Path(__file__).resolve().parent.parent / "Sources" / "BrollyCore" / "Languages"


def words(value):
    """The words of every text in a language file (its values, not its keys)."""
    out = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= words(v)
    elif isinstance(value, list):
        for v in value:
            out |= words(v)
    elif isinstance(value, str):
        out |= {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z’']+", value)}
    return out


def load(code):
    return json.loads((LANGUAGES / f"{code}.json").read_text(encoding="utf-8"))


ENGLISH = {w for w in words(load("en")) if len(w) >= 4}
CODES = sorted(p.stem for p in LANGUAGES.glob("*.json") if p.stem != "en")


def english_in(text, code, allowed=()):
    own = words(load(code))
    names = set()
    for name in allowed:
        names |= {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z’']+", name or "")}
    text = re.sub(r"https?://\S+", " ", text)  # addresses are not words
    found = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z’']+", text)}
    return sorted(w for w in found if w in ENGLISH and w not in own and w not in names)


def context(text, found):
    """Each English word found with the text around it."""
    out = []
    for w in found:
        m = re.search(r"\b" + re.escape(w) + r"\b", text, re.I)
        out.append(f"{w}: …{text[max(0, m.start() - 40):m.end() + 30]}…" if m else w)
    return out


PAGE_TEXT = """
const hide = [...document.querySelectorAll('#news-list, #language, [data-testid=place-alert], [data-testid=alert] .alert-body, [data-testid=alert] summary strong, .alert.elsewhere li, .leaflet-control-attribution, #radar-attribution, #precipitation-attribution')];
hide.forEach((n) => { n.dataset.wasDisplay = n.style.display; n.style.display = 'none'; });
const text = document.body.innerText;
const labels = [...document.querySelectorAll('body *')].filter((e) => e.offsetParent !== null)
  .flatMap((e) => ['aria-label', 'title', 'placeholder'].map((a) => e.getAttribute(a)).filter(Boolean));
hide.forEach((n) => { n.style.display = n.dataset.wasDisplay || ''; });
return text + '\\n' + labels.join('\\n');
"""


# One browser, one server and one double for a group of languages (issue 53: 52 Chromium starts
# and 26 servers for the sweep before): each group's cases run on one pytest-xdist worker, in order,
# and each language starts as a first visit (no cookie, storage, service worker or cache of the last).
GROUPS = {"latin-a": ("de", "es", "fr", "it"), "latin-b": ("nl", "pl", "pt", "tr"), "other": ("ar", "ja", "ru", "uk", "zh")}
assert sorted(c for g in GROUPS.values() for c in g) == CODES, CODES


def grouped(codes):
    return [pytest.param(c, marks=pytest.mark.xdist_group(f"no-english-{g}")) for c in codes
            for g, members in GROUPS.items() if c in members]


class Sweep:
    def __init__(self, tmp_path_factory):
        binary, driver = chromium_paths()
        if not binary or not driver:
            pytest.fail("chromium and chromedriver are required for the browser tests")
        self.double = Double()
        env = home_env(tmp_path_factory.mktemp("sweep-home"))
        env.update(self.double.env())
        self.server = Server(env, ("--timeout", "2"))
        self.browser = Browser(self.server.url)
        # The places the cases read, cached before any case makes the provider fail (a breaker
        # opened by one language's error state must not turn the next language's weather away).
        for lat, lon in (BERLIN, (40.71, -74.01)):
            with urllib.request.urlopen(f"{self.server.url}/api/v1/weather?lat={lat}&lon={lon}", timeout=20) as r:
                assert r.status == 200

    def first_visit(self):
        """The browser as new: no cookie (a new device), storage, service worker or cached file."""
        self.double.ok()
        self.browser.reset()  # as the browser pool puts a browser back (conftest.Browser.reset)
        return self.browser

    def stop(self):
        self.browser.quit()
        self.server.stop()
        self.double.stop()


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    s = Sweep(tmp_path_factory)
    yield s
    s.stop()


@pytest.mark.parametrize("code", grouped(CODES))
def test_the_page_has_no_english_left(sweep, code):
    double = sweep.double
    b = sweep.first_visit()
    b.allow_location(*BERLIN)
    b.open(f"/?lang={code}")
    b.wait_state("ready")
    b.wait(lambda: b.js("return document.documentElement.lang") == code, what=code)
    b.click("save-place")
    b.wait(lambda: b.exists("place-now"), what="a saved place")
    b.click("details-toggle")
    b.js("document.querySelector('.unit-panel').open = true; document.getElementById('push-settings').open = true;")
    b.click("radar-toggle")
    b.wait(lambda: b.attr("radar", "data-state") == "on", what="the radar")
    doc = b.driver.execute_async_script(
        "const done = arguments[0]; fetch('/api/v1/weather?lat=52.52&lon=13.41&lang=" + code + "').then(r => r.json()).then(done);")
    names = [doc["place"]["name"], doc["place"]["country"], doc["place"].get("region"), doc.get("addressLine"),
             (doc["current"].get("measured") or {}).get("station", {}).get("name")]
    names += [a["event"] for a in doc.get("alerts", [])] + [a["headline"] for a in doc.get("alerts", [])]
    names += ["Open-Meteo", "OpenWeatherMap", "OpenStreetMap", "RainViewer", "Leaflet", "Brolly", "Chrome", "Edge", "Android",
              "Safari", "iPhone", "Firefox", "ECMWF", "GFS", "ICON", "Météo-France", "BBC News", "NewsAPI",
              # The accuracy panel's models, by their names (shown once the scores come in time).
              "Canada GEM", "UK Met Office", "JMA"]
    text = b.js(PAGE_TEXT)
    left = english_in(text, code, names)
    assert not left, f"{code}: English left on the page: {context(text, left)}"
    # The page in the language, to be looked at (issue 50): the whole of it on the phone (390 × 844)
    # and on a 1280 × 900 desktop, every panel open.
    b.full_screenshot(f"50-{code}-phone")
    b.full_screenshot(f"50-{code}-desktop", width=1280, height=900)
    try:
        # Location denied on a first visit: the empty state and its help.
        b = sweep.first_visit()
        b.deny_location()
        double.fault("500", path="/json", times=-1)  # and no IP location either
        b.open(f"/?lang={code}")
        b.wait_state("empty")
        double.ok()
        text = b.js(PAGE_TEXT)
        left = english_in(text, code, names)
        assert not left, f"{code}: English left in the location-denied state: {context(text, left)}"
        # The weather service failing for a new place: the error panel.
        b = sweep.first_visit()
        double.fault("500", path="/v1/forecast", times=-1)
        b.allow_location(*SYDNEY)
        b.open(f"/?lang={code}")
        b.wait_state("error", timeout=30)
        text = b.js(PAGE_TEXT)
        left = english_in(text, code, names)
        assert not left, f"{code}: English left in the error state: {context(text, left)}"
    finally:
        double.ok()


@pytest.mark.parametrize("code", CODES)
def test_the_cli_has_no_english_left(cli, double, code):
    # A warning's own texts come from its source in its language (NWS: English), marked "[en]".
    alerts = json.loads(cli.run("alerts", "--lat", "40.71", "--lon", "-74.01", "--json").stdout or "{}")
    source = [a.get(k) or "" for a in alerts.get("alerts", []) for k in ("event", "headline", "description", "instruction", "sender")]
    source += [area for a in alerts.get("alerts", []) for area in a.get("areas", [])]
    names = source + ["New York", "United States", "LaGuardia", "Arpt", "Open-Meteo", "NWS", "Upton", "Flood", "Warning", "Wind",
             "Advisory", "issued", "KLGA", "Brolly"]
    for args in (("now",), ("forecast", "--days", "3", "--hours", "6"), ("forecast", "--chart"), ("alerts",), ("units",)):
        where = () if args == ("units",) else ("--lat", "40.71", "--lon", "-74.01")
        r = cli.run(*args, *where, "--lang", code)
        assert r.returncode == 0, (args, r.stderr)
        left = english_in(r.stdout, code, names)
        assert not left, f"{code}: English left in `brolly {' '.join(args)}`: {left}\n{r.stdout}"


@pytest.mark.parametrize("code", grouped(CODES))
def test_the_api_widget_and_terminal_have_no_english_left(sweep, code):
    server = sweep.server

    def get(path, headers=None):
        req = urllib.request.Request(server.url + path, headers=headers or {})
        with urllib.request.urlopen(req, timeout=20) as resp:
            return resp.read().decode()
    doc = json.loads(get(f"/api/v1/weather?lat=40.71&lon=-74.01&lang={code}"))
    names = [doc["place"]["name"], doc["place"]["country"], doc["place"].get("region"), doc.get("addressLine"),
             (doc["current"].get("measured") or {}).get("station", {}).get("name"), "Open-Meteo", "Brolly"]
    # The API's texts: every string of the document but the place, the address, the warnings (their
    # source's own) and the codes and times.
    texts = []
    def walk(value, key=""):
        # `category`, `phase` and the summary's `fall` and `temperatureIs` are stable tokens; their
        # words in the language are `label`, `phaseName` and the page's summary line.
        if key in ("place", "alerts", "alertsElsewhere", "source", "units", "addressLine", "icon", "time", "date", "measured",
                   "category", "phase", "fall", "temperatureIs"):
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and not re.match(r"^[\d:+\-T.Z ]+$", value):
            texts.append(value)
    walk(doc)
    left = english_in("\n".join(texts), code, names)
    assert not left, f"{code}: English left in the API's weather: {left}"
    # The terminal over curl, by ?lang= and by Accept-Language.
    for path, headers in ((f"/40.71,-74.01?lang={code}&T", {}), ("/40.71,-74.01?T", {"Accept-Language": code})):
        text = get(path, {"User-Agent": "curl/8.5.0", **headers})
        alerts = [a.get(k) or "" for a in doc.get("alerts", []) for k in ("event", "headline", "sender")]
        left = english_in(text, code, names + alerts + ["NWS", "Upton", "LaGuardia", "Arpt", "KLGA"])
        assert not left, f"{code}: English left in the terminal ({path}): {left}\n{text}"
    # The widget.
    b = sweep.first_visit()
    b.open(f"/widget?lat=40.71&lon=-74.01&lang={code}")
    b.wait(lambda: b.js("return document.getElementById('widget').dataset.state") == "ready", what="the widget")
    text = b.js("return document.body.innerText")
    left = english_in(text, code, names)
    assert not left, f"{code}: English left in the widget: {left}\n{text}"


def test_the_cli_places_and_history_have_no_english_left_in_a_russian_locale(cli, double):
    """Issue 50, item 2: under LANG=ru_RU.UTF-8, `places add` said "Saved #1 … at position 1",
    `history` showed the provider's "moderate snow fall" and `history show` "Address, Clouds,
    Humidity, Looked up, …": every string of these commands now comes from the language files."""
    ru = {"LANG": "ru_RU.UTF-8"}
    names = ["Open-Meteo", "Brolly", "brolly", "places", "add", "--name", "Berlin", "Germany", "Mitte"]
    outputs = []
    for args in (("places", "list"), ("places", "add", "--lat", "52.52", "--lon", "13.41", "--name", "Дом"),
                 ("places", "add", "--lat", "52.52", "--lon", "13.41"), ("places", "list"), ("places", "rename", "1", "Работа"),
                 ("now", "--lat", "52.52", "--lon", "13.41"), ("history",), ("history", "show", "1"), ("history", "delete", "1"),
                 ("history", "clear"), ("history",), ("places", "remove", "1")):
        r = cli.run(*args, env=ru)
        assert r.returncode == 0, (args, r.stderr)
        outputs.append((args, r.stdout))
    address = json.loads(cli.run("places", "list", "--json", env=ru).stdout or "[]")
    for args, out in outputs:
        if args[0] == "now":  # its warning is the source's own text, marked [en] (checked elsewhere)
            continue
        left = english_in(out, "ru", names + [a.get("name", "") for a in address])
        assert not left, f"English left in `brolly {' '.join(args)}` under LANG=ru_RU.UTF-8: {left}\n{out}"
    assert "Сохранено #1" in outputs[1][1] and "Удалено" in outputs[8][1], outputs
