"""Automatic failover between Open-Meteo and OpenWeatherMap, and the breaker that stops calling the
one that is down."""

from conftest import BERLIN, LONDON, SYDNEY, weather


def owm_env(key="testkey", **more):
    env = {"OPENWEATHERMAP_API_KEY": key, "BROLLY_BREAKER_FAILURES": "1", "BROLLY_BREAKER_COOLDOWN_SECONDS": "60"}
    env.update(more)
    return env


def test_open_meteo_down_openweathermap_answers_and_the_breaker_stops_calls(server_factory, double):
    s = server_factory(args=("--provider", "open-meteo", "--timeout", "3"), extra_env=owm_env())
    status, _, doc = weather(s, *BERLIN)
    # Each day's range comes from the ensemble, uncalibrated here (the place is not scored).
    assert doc["source"].pop("ranges", {"calibrated": False})["calibrated"] is False
    assert status == 200 and doc["source"] == {
        "provider": "open-meteo", "fetchedAt": doc["source"]["fetchedAt"], "stale": False, "model": "best_match", "days": 16,
        # Corrected was asked (the default) and the place is not scored yet: said, not silent.
        "note": "not corrected yet: not scored here"}
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


def test_page_says_when_the_other_provider_answered(server_factory, browser_factory, double):
    s = server_factory(args=("--provider", "open-meteo", "--timeout", "3"), extra_env=owm_env())
    double.fault("500", path="/v1/forecast", times=-1)
    b = browser_factory(s.url)
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    assert b.text("source") == "· from OpenWeatherMap (Open-Meteo unavailable)"
    assert b.js("return document.getElementById('nowcast').hidden") is True
