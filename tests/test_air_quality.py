"""Air quality, UV and pollen: one call per place per hour shared by every client, never hiding the
weather, in the API, the CLI, the curl view and the page."""

import json
import re
import threading
import urllib.error
import urllib.request
from conftest import BERLIN, SYDNEY, weather



def test_air_quality_in_europe_with_pollen(server, double):
    status, _, doc = weather(server, *BERLIN)
    assert status == 200
    air = doc["airQuality"]
    assert air["europeanAqi"] == {"value": 44, "category": "Moderate", "colour": "#f0e641"}
    assert air["usAqi"] == {"value": 65, "category": "Moderate", "colour": "#ffff00"}
    assert air["pm2_5"] == 22.1 and air["pm10"] == 28.2 and air["ozone"] == 42 and air["nitrogenDioxide"] == 11.2
    assert air["uvIndex"]["category"] == "Low" and air["uvIndexMax"]["value"] == 6.2
    assert air["uvIndexMax"]["category"] == "High"
    assert air["pollen"] == {"alder": 0, "birch": 12.5, "grass": 3.1, "mugwort": 0, "olive": 0, "ragweed": 0.4}
    assert air["stale"] is False and air["time"][-6:] in ("+01:00", "+02:00")


def test_a_place_outside_the_pollen_model_has_no_pollen(server, double):
    _, _, doc = weather(server, *SYDNEY)
    air = doc["airQuality"]
    assert "pollen" not in air  # absent, not zero
    assert air["europeanAqi"]["category"] == "Fair" and air["usAqi"]["value"] == 38


def test_one_air_quality_call_per_place_per_hour_shared_by_every_client(server, double):
    results = []

    def ask():
        results.append(weather(server, 48.8534, 2.3488))

    threads = [threading.Thread(target=ask) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r[0] == 200 for r in results)
    assert double.calls("/v1/air-quality") == 1
    for _ in range(5):
        weather(server, 48.8534, 2.3488)
        weather(server, 48.8535, 2.3489, "&units=imperial")  # same ~1 km cell
    assert double.calls("/v1/air-quality") == 1


def test_failing_air_quality_never_hides_the_weather(server, double):
    double.fault("500", path="/v1/air-quality", times=-1)
    status, _, doc = weather(server, *BERLIN)
    assert status == 200 and "airQuality" not in doc and doc["current"]["temperature"] == round(20 - 52.52 / 3, 1)
    calls = double.calls("/v1/air-quality")
    for _ in range(5):
        assert weather(server, *BERLIN)[0] == 200
    # The failure is remembered: the air-quality API is not asked on every request.
    assert double.calls("/v1/air-quality") == calls
    double.fault("malformed", path="/v1/air-quality", times=-1)
    status, _, doc = weather(server, *SYDNEY)
    assert status == 200 and "airQuality" not in doc


def test_cli_shows_next_hour_air_and_pollen(cli, double):
    r = cli.run("now", "--lat", "52.52", "--lon", "13.41")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert re.search(r"Next hour\s+Rain starting in about \d+ min, for about 45 min", out), out
    assert "European AQI 44 (Moderate)" in out and "US AQI 65 (Moderate)" in out
    assert re.search(r"UV\s+2 \(Low\), today's highest 6 \(High\)", out), out
    assert "Pollen     alder 0, birch 13, grass 3, mugwort 0, olive 0, ragweed 0 grains/m³" in out
    assert "from Open-Meteo, updated" in out
    r = cli.run("now", "--lat", "52.52", "--lon", "13.41", "--format", "%q|%u|%y")
    assert r.returncode == 0, r.stderr
    q, u, y = r.stdout.strip().split("|")
    assert q == "AQI 44 moderate" and u == "2"
    # The band in the reader's language (issue 50).
    r = cli.run("now", "--lat", "52.52", "--lon", "13.41", "--format", "%q", "--lang", "ru")
    assert r.stdout.strip() == "AQI 44 умеренно", r.stdout
    assert y.endswith("than yesterday") or y == "about the same as yesterday"
    doc = json.loads(cli.run("now", "--json", "--lat", "-33.87", "--lon", "151.21").stdout)
    assert "pollen" not in doc["airQuality"] and "summary" not in doc["nowcast"]


def test_curl_view_has_air_quality(server, double):
    req = urllib.request.Request(server.url + "/Berlin", headers={"User-Agent": "curl/8.5.0"})
    with urllib.request.urlopen(req, timeout=15) as r:
        text = r.read().decode()
    assert "European AQI 44 (Moderate)" in text and "Next hour" in text


def test_page_shows_next_hour_air_quality_and_source(server, browser_factory, double):
    b = browser_factory(server.url)
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    assert re.fullmatch(r"☔ Rain starting in about \d+ min, for about 45 min", b.text("nowcast"))
    air = b.text("air-quality")
    assert "European AQI" in air and "44 · Moderate" in air and "birch 13" in air and "UV today, highest" in air
    assert b.text("source") == "· from Open-Meteo"
    b.screenshot("12-air-quality-nowcast")
