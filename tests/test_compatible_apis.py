"""Issue 25, first surface: the Pirate Weather / Dark Sky API (`GET /forecast/{key}/{lat},{lon}`)
from Brolly's cache, checked against a schema written from Pirate Weather's API reference and
OpenAPI description, and read by a real client from PyPI (pirateweatherlib, installed by
scripts/install-test-deps.sh into $BROLLY_TEST_CLIENTS) pointed at `brolly serve`."""

import os
import sys
import urllib.request
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conftest import BERLIN, LONDON, call, get

NEW_YORK = (40.71, -74.01)

NUMBER = {"type": "number"}
POINT = {
    "type": "object",
    "required": ["time"],
    "properties": {
        "time": {"type": "integer"}, "summary": {"type": "string"},
        "icon": {"enum": ["clear-day", "clear-night", "rain", "snow", "sleet", "wind", "fog", "cloudy", "partly-cloudy-day",
                          "partly-cloudy-night"]},
        "precipIntensity": {"type": "number", "minimum": 0}, "precipProbability": {"type": "number", "minimum": 0, "maximum": 1},
        "precipType": {"enum": ["rain", "snow", "sleet", "none"]}, "temperature": NUMBER, "apparentTemperature": NUMBER,
        "dewPoint": NUMBER, "humidity": {"type": "number", "minimum": 0, "maximum": 1}, "pressure": NUMBER,
        "windSpeed": {"type": "number", "minimum": 0}, "windGust": {"type": "number", "minimum": 0},
        "windBearing": {"type": "integer", "minimum": 0, "maximum": 359}, "cloudCover": {"type": "number", "minimum": 0, "maximum": 1},
        "uvIndex": {"type": "number", "minimum": 0}, "visibility": {"type": "number", "minimum": 0},
        "sunriseTime": {"type": "integer"}, "sunsetTime": {"type": "integer"}, "moonPhase": {"type": "number", "minimum": 0, "maximum": 1},
        "temperatureHigh": NUMBER, "temperatureLow": NUMBER, "temperatureMin": NUMBER, "temperatureMax": NUMBER,
        "precipAccumulation": {"type": "number", "minimum": 0},
    },
}
BLOCK = {"type": "object", "required": ["data"], "properties": {"summary": {"type": "string"}, "icon": {"type": "string"},
                                                               "data": {"type": "array", "items": POINT}}}
SCHEMA = {
    "type": "object",
    "required": ["latitude", "longitude", "timezone", "offset", "currently", "hourly", "daily", "flags"],
    "properties": {
        "latitude": NUMBER, "longitude": NUMBER, "timezone": {"type": "string"}, "offset": NUMBER,
        "currently": POINT, "minutely": BLOCK, "hourly": BLOCK, "daily": BLOCK,
        "alerts": {"type": "array", "items": {
            "type": "object", "required": ["title", "regions", "severity", "time", "description", "uri"],
            "properties": {"title": {"type": "string"}, "regions": {"type": "array", "items": {"type": "string"}},
                           "severity": {"enum": ["advisory", "watch", "warning"]}, "time": {"type": "integer"},
                           "expires": {"type": "integer"}, "description": {"type": "string"}, "uri": {"type": "string"}}}},
        "flags": {"type": "object", "required": ["sources", "units", "version"],
                  "properties": {"sources": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                                 "units": {"enum": ["si", "us", "uk", "ca"]}, "version": {"type": "string"},
                                 "nearest-station": NUMBER}},
    },
}


def forecast(server, where, query=""):
    return get(f"{server.url}/forecast/anykey/{where[0]},{where[1]}{query}")


def test_the_dark_sky_answer_has_pirate_weathers_fields_units_and_blocks(server, double):
    status, headers, d = forecast(server, NEW_YORK, "?units=si")
    assert status == 200 and headers["Content-Type"].startswith("application/json"), d
    Draft202012Validator(SCHEMA).validate(d)
    assert d["flags"]["units"] == "si" and d["flags"]["sources"][0] == "open-meteo"
    assert d["timezone"] == "America/New_York" and d["offset"] in (-5, -4)
    assert len(d["hourly"]["data"]) == 48 and len(d["minutely"]["data"]) == 61 and 1 <= len(d["daily"]["data"]) <= 8
    assert [a["title"] for a in d["alerts"]][:1] and {a["severity"] for a in d["alerts"]} <= {"warning", "watch", "advisory"}
    # The same values as Brolly's own API, in each unit system.
    _, _, w = get(f"{server.url}/api/v1/weather?lat={NEW_YORK[0]}&lon={NEW_YORK[1]}")
    c = w["current"]
    assert abs(d["currently"]["temperature"] - c["temperature"]) < 0.06
    assert d["currently"]["humidity"] == round(c["humidity"] / 100, 2)
    _, _, us = forecast(server, NEW_YORK, "?units=us")
    _, _, ca = forecast(server, NEW_YORK, "?units=ca")
    _, _, uk = forecast(server, NEW_YORK, "?units=uk")
    assert abs(us["currently"]["temperature"] - (d["currently"]["temperature"] * 9 / 5 + 32)) < 0.06
    assert abs(ca["currently"]["windSpeed"] - d["currently"]["windSpeed"] * 3.6) < 0.06
    assert abs(uk["currently"]["windSpeed"] - d["currently"]["windSpeed"] * 2.23694) < 0.06
    assert uk["currently"]["temperature"] == d["currently"]["temperature"]
    day, day_us = d["daily"]["data"][0], us["daily"]["data"][0]
    assert day["temperatureHigh"] == day["temperatureMax"] and abs(day_us["temperatureMax"] - (day["temperatureMax"] * 1.8 + 32)) < 0.06
    # One forecast call for the place, whichever API and units asked.
    assert double.calls("/v1/forecast") == 1


def test_auto_units_follow_the_country_and_blocks_can_be_left_out(server, double):
    assert forecast(server, NEW_YORK)[2]["flags"]["units"] == "us"
    assert forecast(server, LONDON)[2]["flags"]["units"] == "uk"
    assert forecast(server, BERLIN, "?units=auto")[2]["flags"]["units"] == "si"
    _, _, d = forecast(server, NEW_YORK, "?exclude=minutely,alerts,flags&extend=hourly&lang=ru")
    assert "minutely" not in d and "alerts" not in d and "flags" not in d and "currently" in d
    # Brolly keeps 48 hours (a week's would not fit the memory target): extend=hourly has those.
    assert len(d["hourly"]["data"]) == 48
    _, _, en = forecast(server, NEW_YORK)
    assert d["currently"]["summary"] != en["currently"]["summary"] and any("а" <= ch <= "я" for ch in d["currently"]["summary"].lower())
    _, _, v2 = forecast(server, NEW_YORK, "?version=2&units=si")
    assert "rainIntensity" in v2["currently"] and "snowIntensity" in v2["currently"]


def test_etag_and_errors_in_the_apis_own_shape(server, double):
    status, headers, _ = forecast(server, NEW_YORK)
    status, h2, body = call(f"{server.url}/forecast/k/{NEW_YORK[0]},{NEW_YORK[1]}", headers={"If-None-Match": headers["ETag"]})
    assert status == 304 and body == b""
    for path, word in (("/forecast/k/91,0", "Invalid Location"), ("/forecast/k/abc", "Invalid Location"),
                       ("/forecast/k/40,-74?units=metric", "units"), ("/forecast/k/40,-74,1700000000", "time machine"),
                       ("/forecast/k/40,-74?extend=daily", "extend")):
        status, headers, problem = get(server.url + path)
        assert status == 400 and set(problem) == {"detail"} and word in problem["detail"], (path, problem)
    # The upstream down with nothing cached: 502 in the API's shape, never a 500.
    double.fault("500", path="/v1/forecast", times=-1)
    status, headers, problem = forecast(server, (10.5, 10.5))
    assert status in (502, 503, 504) and set(problem) == {"message"}, (status, problem)


def test_open_meteo_down_with_openweathermap_keyed_the_dark_sky_answer_still_comes(server_factory, double):
    s = server_factory(args=("--provider", "open-meteo", "--timeout", "3"),
                       extra_env={"OPENWEATHERMAP_API_KEY": "testkey", "BROLLY_BREAKER_FAILURES": "1"})
    double.fault("500", path="/v1/forecast", times=-1)
    status, _, d = forecast(s, LONDON, "?units=si")
    assert status == 200, d
    assert d["flags"]["sources"] == ["openweathermap"] and "minutely" not in d
    Draft202012Validator(SCHEMA).validate(d)


def clients_dir():
    return Path(os.environ.get("BROLLY_TEST_CLIENTS") or Path.home() / ".cache/brolly-test-clients")


def test_pirateweatherlib_reads_brolly_as_pirate_weather(server, double):
    if not (clients_dir() / "pirateweather").is_dir():
        if os.environ.get("CI"):
            pytest.fail("pirateweatherlib is not installed (scripts/install-test-deps.sh installs it)")
        pytest.skip("pirateweatherlib is not installed: bash scripts/install-test-deps.sh")
    sys.path.insert(0, str(clients_dir()))
    try:
        import pirateweather
        # The only change a user makes: the base URL (the package's `forecast` function hides its
        # module of the same name).
        sys.modules["pirateweather.forecast"]._API_URL = server.url + "/forecast"
        ny = pirateweather.forecast("anykey", NEW_YORK[0], NEW_YORK[1], units="si")
        assert ny.currently.temperature == ny.temperature and isinstance(ny.temperature, float)
        assert len(ny.hourly) == 48 and ny.hourly[1].time > ny.hourly[0].time
        assert len(ny.daily) >= 7 and ny.daily[0].temperatureHigh >= ny.daily[0].temperatureLow
        assert ny.alerts and ny.alerts[0].title and ny.alerts[0].severity in ("warning", "watch", "advisory")
        assert ny.flags.units == "si" and ny.flags.sources[0] == "open-meteo"
        us = pirateweather.forecast("anykey", NEW_YORK[0], NEW_YORK[1], units="us")
        assert abs(us.temperature - (ny.temperature * 9 / 5 + 32)) < 0.06
        assert double.calls("/v1/forecast") == 1
    finally:
        sys.path.remove(str(clients_dir()))
        for name in [m for m in sys.modules if m == "pirateweather" or m.startswith("pirateweather.")]:
            del sys.modules[name]
