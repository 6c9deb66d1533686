"""Issue 12 end to end: automatic failover between providers, air quality / UV / pollen, and the next
hour's rain, with the real binary against the upstream double (which speaks Open-Meteo's forecast
and air-quality formats and OpenWeatherMap's 2.5 API)."""

import json
import re
import threading
import urllib.error
import urllib.request

from conftest import http_json

BERLIN = (52.52, 13.41)
LONDON = (51.5085, -0.1257)
SYDNEY = (-33.8679, 151.2073)


def get(url, timeout=15):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read() or b"null")


def weather(server, lat, lon, extra=""):
    return get(f"{server.url}/api/v1/weather?lat={lat}&lon={lon}{extra}")


# ---------- the next hour's rain ----------

def test_rain_starting_soon_comes_from_the_same_forecast_call(server, double):
    status, _, doc = weather(server, *BERLIN)
    assert status == 200
    now = doc["nowcast"]
    assert re.fullmatch(r"Rain starting in about (15|20|25|30) min, for about 45 min", now["summary"]), now["summary"]
    assert len(now["slots"]) == 8
    assert now["slots"][0]["start"][-6:] in ("+01:00", "+02:00")
    assert [s["precipitation"] for s in now["slots"]][:5] == [0, 0, 0.6, 0.6, 0.6]
    # One forecast call gives the weather, yesterday and the 15-minute slots.
    assert double.calls("/v1/forecast") == 1
    assert isinstance(doc["current"]["temperatureYesterday"], (int, float))


def test_rain_stopping_and_a_dry_next_hour(server, double):
    _, _, london = weather(server, *LONDON)
    assert re.fullmatch(r"Rain stopping in about (15|20|25|30) min", london["nowcast"]["summary"]), london["nowcast"]
    _, _, sydney = weather(server, *SYDNEY)
    assert "summary" not in sydney["nowcast"]  # dry: nothing said
    assert all(s["precipitation"] == 0 for s in sydney["nowcast"]["slots"])
    _, _, inches = weather(server, *BERLIN, "&units=imperial")
    assert inches["nowcast"]["slots"][2]["precipitation"] == round(0.6 / 25.4, 4)


# ---------- air quality, UV and pollen ----------

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
    assert y.endswith("than yesterday") or y == "about the same as yesterday"
    doc = json.loads(cli.run("now", "--json", "--lat", "-33.87", "--lon", "151.21").stdout)
    assert "pollen" not in doc["airQuality"] and "summary" not in doc["nowcast"]


def test_curl_view_has_air_quality(server, double):
    req = urllib.request.Request(server.url + "/Berlin", headers={"User-Agent": "curl/8.5.0"})
    with urllib.request.urlopen(req, timeout=15) as r:
        text = r.read().decode()
    assert "European AQI 44 (Moderate)" in text and "Next hour" in text


# ---------- automatic failover ----------

def owm_env(key="testkey", **more):
    env = {"OPENWEATHERMAP_API_KEY": key, "BROLLY_BREAKER_FAILURES": "1", "BROLLY_BREAKER_COOLDOWN_SECONDS": "60"}
    env.update(more)
    return env


def test_open_meteo_down_openweathermap_answers_and_the_breaker_stops_calls(server_factory, double):
    s = server_factory(args=("--provider", "open-meteo", "--timeout", "3"), extra_env=owm_env())
    status, _, doc = weather(s, *BERLIN)
    assert status == 200 and doc["source"] == {
        "provider": "open-meteo", "fetchedAt": doc["source"]["fetchedAt"], "stale": False}
    double.fault("500", path="/v1/forecast", times=-1)
    status, _, doc = weather(s, *LONDON)
    assert status == 200, doc
    assert doc["source"]["provider"] == "openweathermap" and doc["source"]["fallbackFrom"] == "open-meteo"
    assert doc["place"]["name"] == "London" and "nowcast" not in doc and "temperatureYesterday" not in doc["current"]
    # The breaker is open now: more new places fail over at once without calling Open-Meteo.
    forecast_calls = double.calls("/v1/forecast")
    for lat, lon in [SYDNEY, (27.7017, 85.3206), (40.7143, -74.006)]:
        status, _, doc = weather(s, lat, lon)
        assert status == 200 and doc["source"]["fallbackFrom"] == "open-meteo"
    assert double.calls("/v1/forecast") == forecast_calls
    # Berlin's fresh Open-Meteo answer is still served from the cache, as itself.
    _, _, berlin = weather(s, *BERLIN)
    assert berlin["source"]["provider"] == "open-meteo" and "fallbackFrom" not in berlin["source"]


def test_openweathermap_down_open_meteo_answers(server_factory, double):
    s = server_factory(args=("--timeout", "3"), extra_env=owm_env())  # the key makes OpenWeatherMap the provider
    double.fault("429", path="/data/2.5/", times=-1, retry_after=30)
    status, _, doc = weather(s, *BERLIN)
    assert status == 200, doc
    assert doc["source"]["provider"] == "open-meteo" and doc["source"]["fallbackFrom"] == "openweathermap"
    assert "nowcast" in doc
    calls = double.calls("/data/2.5/weather")
    for lat, lon in [LONDON, SYDNEY, (27.7017, 85.3206)]:
        status, _, doc = weather(s, lat, lon)
        assert status == 200 and doc["source"]["fallbackFrom"] == "openweathermap"
    # The 429 opened OpenWeatherMap's breaker (BROLLY_BREAKER_FAILURES=1): no more calls to it.
    assert double.calls("/data/2.5/weather") == calls


def test_failover_does_not_hide_a_rejected_key(server_factory, cli, double):
    s = server_factory(args=("--timeout", "3"), extra_env=owm_env(key="badkey"))
    status, headers, problem = weather(s, *BERLIN)
    assert status == 502 and headers["Content-Type"].startswith("application/problem+json")
    assert "rejected" in problem["detail"] and "API key" in problem["detail"]
    assert double.calls("/v1/forecast") == 0  # Open-Meteo did not paper over it
    r = cli.run("now", "--lat", "52.52", "--lon", "13.41", env={"OPENWEATHERMAP_API_KEY": "badkey"})
    assert r.returncode != 0 and "rejected the API key" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    # The fallback's bad key is said too when Open-Meteo is the one that failed.
    double.fault("500", path="/v1/forecast", times=-1)
    r = cli.run("now", "--provider", "open-meteo", "--lat", "48.85", "--lon", "2.35",
                env={"OPENWEATHERMAP_API_KEY": "badkey"})
    assert r.returncode != 0 and "OpenWeatherMap rejected the API key" in r.stderr, r.stderr


def test_cli_says_who_answered(cli, double):
    double.fault("500", path="/v1/forecast", times=-1)
    r = cli.run("now", "--provider", "open-meteo", "--lat", "52.52", "--lon", "13.41", "--timeout", "3",
                env={"OPENWEATHERMAP_API_KEY": "testkey"})
    assert r.returncode == 0, r.stderr
    assert "from OpenWeatherMap (Open-Meteo unavailable)" in r.stdout
    # Without a second provider: as before, an error.
    r = cli.run("now", "--lat", "48.85", "--lon", "2.35", "--timeout", "3")
    assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1


# ---------- the page ----------

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


def test_page_says_when_the_other_provider_answered(server_factory, browser_factory, double):
    s = server_factory(args=("--provider", "open-meteo", "--timeout", "3"), extra_env=owm_env())
    double.fault("500", path="/v1/forecast", times=-1)
    b = browser_factory(s.url)
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    assert b.text("source") == "· from OpenWeatherMap (Open-Meteo unavailable)"
    assert b.js("return document.getElementById('nowcast').hidden") is True
