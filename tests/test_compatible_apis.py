"""Issue 25: the APIs other weather apps speak, from Brolly's one cache — Pirate Weather / Dark Sky
(`GET /forecast/{key}/{lat},{lon}`), Open-Meteo (`GET /v1/forecast`) and OpenWeatherMap 2.5
(`GET /data/2.5/weather`, `/data/2.5/forecast`) — checked against schemas written from their
references, and read by the real clients from PyPI (pirateweatherlib, pirate-weather-python,
open-meteo, pyowm; installed by scripts/install-test-deps.sh into $BROLLY_TEST_CLIENTS) pointed at
`brolly serve` by their base URL only."""

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conftest import BERLIN, LONDON, brolly_binary, call, get, wait_until

NEW_YORK = (40.71, -74.01)

NUMBER = {"type": "number"}
UNKNOWN = {"const": -999}  # Pirate Weather's value for what it does not know


def known(**schema):
    return {"anyOf": [UNKNOWN, {"type": "number", **schema}]}


POINT = {
    "type": "object",
    "required": ["time", "precipType"],
    "properties": {
        "time": {"type": "integer"}, "summary": {"type": "string"},
        "icon": {"enum": ["clear-day", "clear-night", "rain", "snow", "sleet", "wind", "fog", "cloudy", "partly-cloudy-day",
                          "partly-cloudy-night"]},
        "precipIntensity": known(minimum=0), "precipProbability": known(minimum=0, maximum=1),
        "precipType": {"enum": ["rain", "snow", "sleet", "none"]}, "temperature": known(), "apparentTemperature": known(),
        "dewPoint": known(), "humidity": known(minimum=0, maximum=1), "pressure": known(),
        "windSpeed": known(minimum=0), "windGust": known(minimum=0),
        "windBearing": {"anyOf": [UNKNOWN, {"type": "integer", "minimum": 0, "maximum": 359}]},
        "cloudCover": known(minimum=0, maximum=1), "uvIndex": known(minimum=0), "visibility": known(minimum=0),
        "sunriseTime": {"type": "integer"}, "sunsetTime": {"type": "integer"}, "moonPhase": known(minimum=0, maximum=1),
        "temperatureHigh": known(), "temperatureLow": known(), "temperatureMin": known(), "temperatureMax": known(),
        "precipAccumulation": known(minimum=0),
    },
}
# Every field Pirate Weather writes in each block (its API v2 reference): all present, -999 when unknown.
FIELDS = {
    "currently": ["time", "summary", "icon", "nearestStormDistance", "nearestStormBearing", "precipIntensity", "precipProbability",
                  "precipIntensityError", "precipType", "temperature", "apparentTemperature", "dewPoint", "humidity", "pressure",
                  "windSpeed", "windGust", "windBearing", "cloudCover", "uvIndex", "visibility", "ozone"],
    "minutely": ["time", "precipIntensity", "precipProbability", "precipIntensityError", "precipType"],
    "hourly": ["time", "summary", "icon", "precipIntensity", "precipProbability", "precipIntensityError", "precipAccumulation",
               "precipType", "temperature", "apparentTemperature", "dewPoint", "humidity", "pressure", "windSpeed", "windGust",
               "windBearing", "cloudCover", "uvIndex", "visibility", "ozone"],
    "daily": ["time", "summary", "icon", "dawnTime", "sunriseTime", "sunsetTime", "duskTime", "moonPhase", "precipIntensity",
              "precipIntensityMax", "precipIntensityMaxTime", "precipProbability", "precipAccumulation", "precipType",
              "temperatureHigh", "temperatureHighTime", "temperatureLow", "temperatureLowTime", "apparentTemperatureHigh",
              "apparentTemperatureHighTime", "apparentTemperatureLow", "apparentTemperatureLowTime", "dewPoint", "humidity",
              "pressure", "windSpeed", "windGust", "windGustTime", "windBearing", "cloudCover", "uvIndex", "uvIndexTime",
              "visibility", "temperatureMin", "temperatureMinTime", "temperatureMax", "temperatureMaxTime"],
}
SEVERITIES = {"Extreme", "Severe", "Moderate", "Minor", "Unknown"}
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
                           "severity": {"enum": sorted(SEVERITIES)}, "time": {"type": "integer"},
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
    assert [a["title"] for a in d["alerts"]][:1] and {a["severity"] for a in d["alerts"]} <= SEVERITIES
    for block, fields in FIELDS.items():
        for point in ([d[block]] if block == "currently" else d[block]["data"]):
            assert set(fields) <= set(point), (block, set(fields) - set(point))
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
    # No units: Pirate Weather's default, us; auto: by the place's country.
    assert forecast(server, NEW_YORK)[2]["flags"]["units"] == "us"
    assert forecast(server, LONDON)[2]["flags"]["units"] == "us"
    assert forecast(server, LONDON, "?units=auto")[2]["flags"]["units"] == "uk"
    assert forecast(server, BERLIN, "?units=auto")[2]["flags"]["units"] == "si"
    _, _, d = forecast(server, NEW_YORK, "?exclude=minutely,alerts,flags&extend=hourly&lang=ru")
    assert "minutely" not in d and "alerts" not in d and "flags" not in d and "currently" in d
    # extend=hourly: a week of hours from the one under way.
    assert len(d["hourly"]["data"]) == 168
    assert len(forecast(server, NEW_YORK)[2]["daily"]["data"]) == 8
    _, _, en = forecast(server, NEW_YORK)
    assert d["currently"]["summary"] != en["currently"]["summary"] and any("а" <= ch <= "я" for ch in d["currently"]["summary"].lower())
    _, _, v2 = forecast(server, NEW_YORK, "?version=2&units=si")
    assert "rainIntensity" in v2["currently"] and "snowIntensity" in v2["currently"]


def test_etag_and_errors_in_the_apis_own_shape(server, double):
    # The first answer may be made before a helper (air quality, alerts) is in, when that is late
    # (a loaded machine): a later answer then differs, rightly. The ETag of an answer that stands.
    # The answer also moves on with the minute (`currently.time`, the minutely block): a 200 to the
    # conditional request is right only with another ETag, and then the next round asks again.
    def not_modified():
        first = forecast(server, NEW_YORK)[1]["ETag"]
        if forecast(server, NEW_YORK)[1]["ETag"] != first:
            return None
        status, headers, body = call(f"{server.url}/forecast/k/{NEW_YORK[0]},{NEW_YORK[1]}", headers={"If-None-Match": first})
        if status == 304:
            return ("304", body)
        assert status == 200 and headers["ETag"] != first, (status, headers)
        return None
    assert wait_until(not_modified, what="a 304 for the answer that stands") == ("304", b"")
    for path, word in (("/forecast/k/91,0", "Invalid Location"), ("/forecast/k/abc", "Invalid Location"),
                       ("/forecast/k/40,-74?units=metric", "units"), ("/forecast/k/40,-74,1700000000", "no weather for"), ("/forecast/k/40,-74,yesterday", "Invalid time"),
                       ("/forecast/k/40,-74?extend=daily", "extend")):
        status, headers, problem = get(server.url + path)
        assert status == 400 and set(problem) == {"detail"} and word in problem["detail"], (path, problem)
    # The upstream down with nothing cached: 502 in the API's shape, never a 500.
    double.fault("500", path="/v1/forecast", times=-1)
    status, headers, problem = forecast(server, (10.5, 10.5))
    assert status in (502, 503, 504) and set(problem) == {"message"}, (status, problem)


def test_a_time_machine_request_for_a_time_brolly_has(server, double):
    import datetime
    _, _, now = forecast(server, NEW_YORK, "?units=si")
    zone = datetime.timezone(datetime.timedelta(hours=now["offset"]))
    today = datetime.datetime.fromtimestamp(now["currently"]["time"], zone).date()
    tomorrow_noon = datetime.datetime.combine(today + datetime.timedelta(days=1), datetime.time(12), zone)
    for when in (str(int(tomorrow_noon.timestamp())), tomorrow_noon.strftime("%Y-%m-%dT%H:%M:%S")):
        status, _, d = forecast(server, NEW_YORK, f",{when}?units=si")
        assert status == 200, d
        Draft202012Validator(SCHEMA).validate(d)
        assert d["currently"]["time"] == int(tomorrow_noon.timestamp()) and "minutely" not in d and "alerts" not in d
        hours = d["hourly"]["data"]
        assert len(hours) in (23, 24, 25) and hours[0]["time"] == int(datetime.datetime.combine(tomorrow_noon.date(), datetime.time(0), zone).timestamp())
        assert [day["time"] for day in d["daily"]["data"]] == [hours[0]["time"]]
        noon = next(h for h in hours if h["time"] == int(tomorrow_noon.timestamp()))
        assert d["currently"]["temperature"] == noon["temperature"]
    # Yesterday (issue 38: a 400 before): its hours come with the one call (past_days=1).
    yesterday_noon = datetime.datetime.combine(today - datetime.timedelta(days=1), datetime.time(12), zone)
    status, _, d = forecast(server, NEW_YORK, f",{int(yesterday_noon.timestamp())}?units=si")
    assert status == 200 and d["currently"]["time"] == int(yesterday_noon.timestamp()) and len(d["hourly"]["data"]) >= 23, d
    assert double.calls("/v1/forecast") == 1
    # A week ago: Open-Meteo's past runs for that date (start_date = end_date), asked once and kept.
    week_ago = datetime.datetime.combine(today - datetime.timedelta(days=7), datetime.time(15), zone)
    for _ in range(2):
        status, _, d = forecast(server, NEW_YORK, f",{week_ago.strftime('%Y-%m-%dT%H:%M:%S')}?units=us")
        assert status == 200, d
        Draft202012Validator(SCHEMA).validate(d)
        assert d["currently"]["time"] == int(week_ago.timestamp()) and d["currently"]["humidity"] != -999
        assert len(d["daily"]["data"]) == 1 and len(d["hourly"]["data"]) in (23, 24, 25)
    asked = [q for q in double.queries("/v1/forecast") if "start_date" in q]
    assert len(asked) == 1 and f"start_date={week_ago.date()}&end_date={week_ago.date()}" in asked[0], asked
    assert "forecast_days" not in asked[0] and "past_days" not in asked[0]
    # Older than Open-Meteo keeps: a 400 that says how far back.
    status, _, d = forecast(server, NEW_YORK, f",{int(week_ago.timestamp()) - 200 * 86400}?units=si")
    assert status == 400 and "past 92 days" in d["detail"], d


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
        assert ny.alerts and ny.alerts[0].title and ny.alerts[0].severity in SEVERITIES
        assert ny.flags.units == "si" and ny.flags.sources[0] == "open-meteo"
        us = pirateweather.forecast("anykey", NEW_YORK[0], NEW_YORK[1], units="us")
        assert abs(us.temperature - (ny.temperature * 9 / 5 + 32)) < 0.06
        assert double.calls("/v1/forecast") == 1
    finally:
        sys.path.remove(str(clients_dir()))
        for name in [m for m in sys.modules if m == "pirateweather" or m.startswith("pirateweather.")]:
            del sys.modules[name]


def client(name, server, where, units, *extra, directory=None):
    """Runs tests/clients/<name>_reads.py with its client's own directory (`directory`, else the
    name with dashes) on the path."""
    directory = clients_dir() / (directory or name.replace("_", "-"))
    if not directory.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed (scripts/install-test-deps.sh installs it)")
        pytest.skip(f"{name} is not installed: bash scripts/install-test-deps.sh")
    script = Path(__file__).parent / "clients" / f"{name}_reads.py"
    done = subprocess.run([sys.executable, str(script), server.url, str(where[0]), str(where[1]), units, *extra],
                          env={**os.environ, "PYTHONPATH": str(directory)}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_python_forecastio_and_forecastiopy_read_every_field_they_ask_for(server, double):
    """Issue 38: python-forecastio raised reading pressure, the hourly humidity and apparentTemperature
    (missing fields); forecastiopy reads the same blocks. Both in si and us, from one upstream call."""
    for units in ("si", "us"):
        f = client("python_forecastio", server, NEW_YORK, units)
        assert isinstance(f["pressure"], (int, float)) and 900 < f["pressure"] < 1100 and 0 < f["humidity"] <= 1
        assert f["hours"] == 48 and f["hourly_summary"]
        for h in f["hourly"]:
            assert all(h[k] != -999 for k in h), h
            assert 0 <= h["humidity"] <= 1 and 0 <= h["windBearing"] < 360 and h["uvIndex"] >= 0
        assert all(d["humidity"] != -999 and d["temperatureMax"] >= d["temperatureMin"] for d in f["daily"][:7])
        o = client("forecastiopy", server, NEW_YORK, units)
        assert o["units"] == units and o["hours"] == 48 and o["days"] == 8
        assert o["temperature"] == f["temperature"] and o["pressure"] == f["pressure"]
        assert all(h["humidity"] == g["humidity"] and h["apparentTemperature"] == g["apparentTemperature"]
                   for h, g in zip(o["hourly"], f["hourly"]))
    si, us = client("python_forecastio", server, NEW_YORK, "si"), client("python_forecastio", server, NEW_YORK, "us")
    assert abs(us["hourly"][5]["apparentTemperature"] - (si["hourly"][5]["apparentTemperature"] * 9 / 5 + 32)) < 0.06
    assert double.calls("/v1/forecast") == 1


def test_home_assistant_cores_open_meteo_integration_with_open_meteo_0_4(server, double):
    """Issue 38: Home Assistant core pins open-meteo 0.4 and asks UTC for the place, with
    current_weather and each day's wind (coordinator.py); every hour and day is filled for New York
    (west of Greenwich) and the answer comes from Brolly's one call."""
    r = client("open_meteo_0_4", server, NEW_YORK, "si")
    c = r["current"]
    assert isinstance(c["temperature"], float) and isinstance(c["wind_direction"], int) and isinstance(c["weather_code"], int)
    assert r["hours"] == 7 * 24 and None not in r["hourly_temperatures"] and None not in r["hourly_codes"]
    assert r["days"] == 7 and None not in r["daily_max"] and None not in r["daily_wind"] and None not in r["daily_direction"]
    assert all(0 <= d < 360 for d in r["daily_direction"]) and all(w > 0 for w in r["daily_wind"])
    assert double.calls("/v1/forecast") == 1


@pytest.mark.parametrize("package", ["pirate-weather-python", "pirateweather-1"])
def test_pirate_weather_python_reads_current_hourly_daily_and_alerts(server, double, package):
    """pirate-weather-python 0.0.6 and its successor on PyPI, pirateweather 1.0.1 (the same
    `pirate_weather` module), each in its own directory."""
    si = client("pirate_weather_python", server, NEW_YORK, "si", directory=package)
    us = client("pirate_weather_python", server, NEW_YORK, "us", directory=package)
    assert si["units"] == "si" and us["units"] == "us" and si["sources"][0] == "open-meteo"
    assert abs(us["temperature"] - (si["temperature"] * 9 / 5 + 32)) < 0.06 and si["summary"] and si["icon"]
    assert si["hours"] == 48 and si["days"] == 8 and all(h is not None for h in si["day_highs"])
    assert si["alerts"] and {a["severity"] for a in si["alerts"]} <= SEVERITIES
    assert double.calls("/v1/forecast") == 1


def ha_forecast(f, unit_system, is_day=None):
    """Home Assistant's Pirate Weather integration's mapping of one hourly, daily or twice-daily
    point (custom_components/pirateweather/weather.py, read from its source): every field is read
    and rounded unchecked, so a missing one breaks the entity."""
    d = f
    precip = d.get("precipAccumulation")
    if precip is not None and unit_system != "us":
        precip = precip * 10
    out = {
        "datetime": d.get("time"), "condition": d.get("icon"),
        "native_temperature": d.get("temperature", d.get("temperatureHigh")),
        "native_apparent_temperature": d.get("apparentTemperature"), "native_dew_point": d.get("dewPoint"),
        "native_pressure": d.get("pressure"), "native_wind_speed": round(d.get("windSpeed"), 2),
        "wind_bearing": round(d.get("windBearing"), 0), "native_wind_gust_speed": round(d.get("windGust"), 2),
        "humidity": round(d.get("humidity") * 100, 2), "native_precipitation": precip,
        "precipitation_probability": round(d.get("precipProbability") * 100, 0),
        "cloud_coverage": round(d.get("cloudCover") * 100, 0), "uv_index": round(d.get("uvIndex"), 2),
    }
    if is_day is not None:
        out["is_daytime"] = is_day
    return out


def test_home_assistants_pirate_weather_integration_gets_current_hourly_daily_and_twice_daily(server, double):
    """Issue 38: the request the integration makes (weather_update_coordinator.py) with Brolly's
    address as its endpoint, and what its weather entity reads from the answer."""
    status, _, d = get(f"{server.url}/forecast/anykey/{NEW_YORK[0]},{NEW_YORK[1]}"
                       "?units=si&extend=hourly&version=2&lang=en&include=day_night_forecast")
    assert status == 200
    c = d["currently"]
    # The entity's state: each property reads its field and compares it with -999.
    for field in ("temperature", "apparentTemperature", "cloudCover", "humidity", "dewPoint", "windSpeed", "windGust",
                  "windBearing", "ozone", "pressure", "visibility"):
        assert isinstance(c[field], (int, float)), field
    assert c["temperature"] != -999 and c["humidity"] != -999 and round(c["ozone"], 2) is not None
    hourly = [ha_forecast(h, "si") for h in d["hourly"]["data"]]
    daily = [ha_forecast(x, "si") for x in d["daily"]["data"]]
    twice = [ha_forecast(x, "si", i % 2 == 0) for i, x in enumerate(d["day_night"]["data"])]
    assert len(hourly) == 168 and len(daily) == 8 and len(twice) >= 14
    assert all(h["native_temperature"] not in (None, -999) for h in hourly)
    # Every hour's detail is known (the thin hourly block of the table: -999 there made −99,900 % humidity).
    for field in ("humidity", "windBearing", "cloudCover", "uvIndex", "apparentTemperature", "pressure", "windGust", "dewPoint"):
        assert all(h[field] != -999 for h in d["hourly"]["data"]), field
    assert all(0 <= h["humidity"] <= 1 and 0 <= h["cloudCover"] <= 1 for h in d["hourly"]["data"])
    assert all(x["humidity"] != -999 and 0 < x["humidity"] <= 1 for x in d["daily"]["data"][:7])
    assert all(x["native_temperature"] not in (None, -999) for x in daily + twice)
    # Issue 49: no -999 where the hours give the value — the days' dew point and the extremes'
    # times, each half-day's details (Home Assistant's twice-daily forecast showed humidity −99,900 %),
    # read through the integration's own mapper as well.
    for field in ("dewPoint", "temperatureHighTime", "temperatureLowTime", "windGustTime", "uvIndexTime", "precipIntensityMax"):
        assert all(x[field] != -999 for x in d["daily"]["data"][:7]), field
    for field in ("humidity", "cloudCover", "uvIndex", "pressure", "windBearing", "windGust", "dewPoint", "apparentTemperature"):
        assert all(x[field] != -999 for x in d["day_night"]["data"]), field
    assert all(0 <= x["humidity"] <= 1 and 0 <= x["cloudCover"] <= 1 for x in d["day_night"]["data"])
    assert all(x["humidity"] is not None and 0 <= x["humidity"] <= 100 for x in twice)
    # Day and night in turn, from today's day: a night never shows a day icon.
    for i, x in enumerate(d["day_night"]["data"]):
        assert ("night" not in x["icon"]) if i % 2 == 0 else ("-day" not in x["icon"]), (i, x["icon"])
    assert d["day_night"]["data"][1]["time"] - d["day_night"]["data"][0]["time"] == 12 * 3600
    # Version 2's fields, and the source's grid point.
    assert "feelsLike" in c and "smoke" in c and "liquidAccumulation" in d["hourly"]["data"][0]
    assert d["flags"]["units"] == "si" and isinstance(d["flags"]["nearest-station"], (int, float))


def test_open_meteo_client_reads_brolly_as_open_meteo(server, double):
    c = client("open_meteo", server, NEW_YORK, "si")
    f = client("open_meteo", server, NEW_YORK, "us")
    _, _, w = get(f"{server.url}/api/v1/weather?lat={NEW_YORK[0]}&lon={NEW_YORK[1]}")
    assert c["current"]["temperature"] == round(w["current"]["temperature"], 1) and c["current"]["units"] == "°C"
    assert f["current"]["units"] == "°F" and abs(f["current"]["temperature"] - (c["current"]["temperature"] * 1.8 + 32)) < 0.11
    assert abs(c["current"]["wind"] - w["current"]["windSpeed"] * 3.6) < 0.06  # km/h, the client's default
    assert c["timezone"] == "UTC" and c["hours"] == 7 * 24 and len(c["days"]) == 7
    # Asked in UTC for a place west of Greenwich (open-meteo 0.4, Home Assistant core's version, broke
    # on the nulls): every hour is filled, those before New York's midnight from yesterday's hours,
    # which the one call brings too.
    assert None not in c["hourly_temperatures"]
    assert None not in c["daily_max"] and all(hi >= lo for hi, lo in zip(c["daily_max"], c["daily_min"]))
    assert double.calls("/v1/forecast") == 1  # both unit systems from Brolly's one call
    # What Home Assistant's integration also asks (hourly wind direction and humidity, each day's
    # strongest wind): from the hours Brolly keeps, so still Brolly's one call.
    x = client("open_meteo", server, NEW_YORK, "si", "--extra")
    assert x["daily_wind"] and all(v is not None and v > 0 for v in x["daily_wind"]), x["daily_wind"]
    assert double.calls("/v1/forecast") == 1


def test_the_official_open_meteo_sdk_decodes_brollys_flatbuffers(server, double):
    """Issue 38, item 2: openmeteo-requests asks format=flatbuffers (as the TypeScript and Swift
    SDKs do) and read JSON with a struct.error; Brolly writes the openmeteo_sdk schema itself from
    its one call (a query its weather does not hold is passed on and the answer given as it came)."""
    r = client("openmeteo_requests", server, NEW_YORK, "si")
    # No timezone asked: GMT, as Open-Meteo answers.
    assert r["timezone"] == "GMT" and r["offset"] == 0 and abs(r["latitude"] - NEW_YORK[0]) < 0.01
    assert r["interval"] == 3600 and r["variable"] == 47 and r["unit"] == 1  # temperature, °C
    assert len(r["temperatures"]) == 7 * 24 and all(-60 < t < 60 for t in r["temperatures"])
    # The same hours, hour for hour, as Brolly's JSON answer to the same query (in UTC).
    _, _, j = get(f"{server.url}/v1/forecast?latitude={NEW_YORK[0]}&longitude={NEW_YORK[1]}&hourly=temperature_2m&timeformat=unixtime")
    flat = {r["start"] + 3600 * i: round(t, 1) for i, t in enumerate(r["temperatures"])}
    pairs = [(flat.get(t), v) for t, v in zip(j["hourly"]["time"], j["hourly"]["temperature_2m"]) if v is not None and t in flat]
    assert len(pairs) >= 100 and all(a == b for a, b in pairs), pairs[:5]
    # The current block (one value a variable, in the order asked), the days (the maximum's aggregation,
    # sunrise as 64-bit Unix seconds) and a second hourly variable.
    assert r["current"]["variables"] == [47, 56] and -60 < r["current"]["temperature"] < 60 and r["current"]["code"] >= 0
    assert r["daily"]["interval"] == 86400 and r["daily"]["aggregation"] == 2 and len(r["daily"]["max"]) == 7
    assert all(r["daily"]["start"] < s < r["daily"]["start"] + 8 * 86400 for s in r["daily"]["sunrise"]), r["daily"]
    assert len(r["humidity"]) == 7 * 24 and all(0 <= h <= 100 for h in r["humidity"] if h == h)
    assert double.calls("/v1/forecast") == 1  # the SDK and the JSON answer from Brolly's one call
    # A variable Brolly does not keep: the query goes upstream once and its FlatBuffers come back as they came.
    status, headers, body = call(f"{server.url}/v1/forecast?latitude=40.71&longitude=-74.01&hourly=soil_temperature_0cm&format=flatbuffers")
    assert status == 200 and headers["Content-Type"] == "application/octet-stream" and double.calls("/v1/forecast") == 2
    status, headers, _ = call(f"{server.url}/v1/forecast?latitude=40.71&longitude=-74.01&hourly=temperature_2m&format=yaml")
    assert status == 400


def om_client(server, lats, lons, method, *units):
    directory = clients_dir() / "openmeteo-requests"
    if not directory.is_dir():
        if os.environ.get("CI"):
            pytest.fail("openmeteo-requests is not installed (scripts/install-test-deps.sh installs it)")
        pytest.skip("openmeteo-requests is not installed: bash scripts/install-test-deps.sh")
    script = Path(__file__).parent / "clients" / "openmeteo_requests_every.py"
    done = subprocess.run([sys.executable, str(script), server.url, lats, lons, method, *units],
                          env={**os.environ, "PYTHONPATH": str(directory)}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("units", [(), ("temperature_unit=fahrenheit", "wind_speed_unit=mph", "precipitation_unit=inch")])
def test_the_official_sdk_reads_every_variable_as_the_json_answer_has_it(server, double, units):
    """Issue 49: FlatBuffers dropped five daily variables and shifted the rest (`Variables(3)`, asked
    as the apparent maximum, held weather codes). Every variable Brolly answers, current, hourly and
    daily, read by the official SDK, equals the JSON answer's, in metric and in °F/mph/inch; two
    locations in one call are two messages; POST (the SDK's method="POST") answers as GET."""
    sdk = om_client(server, "40.71", "-74.01", "GET", *units)
    assert len(sdk) == 1
    r = sdk[0]
    import urllib.parse
    params = {k: ",".join(v["variables"]) for k, v in (("current", r["current"]), ("hourly", r["hourly"]), ("daily", r["daily"]))}
    query = urllib.parse.urlencode({"latitude": 40.71, "longitude": -74.01, **params, "timezone": "auto",
                                    "timeformat": "unixtime", **dict(u.split("=") for u in units)})
    status, _, j = get(f"{server.url}/v1/forecast?{query}")
    assert status == 200
    for block in ("current", "hourly", "daily"):
        names = list(r[block]["variables"])
        assert r[block]["count"] == len(names), block  # none left out
        assert r[block]["time"] == (j[block]["time"] if block == "current" else j[block]["time"][0])
        for name, v in r[block]["variables"].items():
            assert v["variable"] != 0 and v["unit"] != 0, (block, name, v)
            expected = j[block][name] if block != "current" else [j[block][name]]
            assert len(v["values"]) == len(expected), (block, name)
            for a, b in zip(v["values"], expected):
                if b is None:
                    assert a is None or name in ("sunrise", "sunset"), (block, name, a)
                else:
                    assert a is not None and abs(a - b) <= 1e-3 * max(1, abs(b)), (block, name, a, b)
    daily = r["daily"]["variables"]
    # What the day works out from its hours is there, each with its own meaning (apparent 1, max 2).
    assert daily["apparent_temperature_max"]["variable"] == 1 and daily["apparent_temperature_max"]["aggregation"] == 2
    assert daily["weather_code"]["variable"] == 56 and daily["wind_direction_10m_dominant"]["aggregation"] == 9
    assert all(x is not None for x in daily["apparent_temperature_max"]["values"][:7])
    assert all(x is not None for x in daily["dew_point_2m_mean"]["values"][:7])
    # Two locations: two messages, in order, with their ids; the JSON answer a list of two.
    two = om_client(server, "40.71,52.52", "-74.01,13.41", "GET", *units)
    assert [m["location_id"] for m in two] == [0, 1] and abs(two[1]["latitude"] - 52.52) < 0.01
    assert two[0]["daily"]["variables"] == r["daily"]["variables"]
    status, _, both = get(f"{server.url}/v1/forecast?latitude=40.71,52.52&longitude=-74.01,13.41&hourly=temperature_2m")
    assert status == 200 and isinstance(both, list) and len(both) == 2 and abs(both[1]["latitude"] - 52.52) < 0.01
    # POST with a form body answers as GET.
    posted = om_client(server, "40.71", "-74.01", "POST", *units)
    assert posted[0]["daily"]["variables"] == r["daily"]["variables"]
    assert posted[0]["hourly"]["variables"] == r["hourly"]["variables"]
    assert double.calls("/v1/forecast") == 2  # New York and Berlin, once each


def test_pyopenweathermap_reads_one_call_3_with_every_days_dew_point(server, double):
    """Issue 49: Home Assistant core's OpenWeatherMap integration (pyopenweathermap, One Call 3.0 by
    default) raised KeyError: 'dew_point' on the days; the dew point now is the view's, the same as
    Brolly's own API's and the other APIs' within 0.15 °C."""
    o = client("pyopenweathermap", server, NEW_YORK, "metric")
    assert len(o["daily"]) == 8 and all(-60 < d["dew_point"] < 40 for d in o["daily"])
    assert len(o["hourly"]) == 48 and all(h["dew_point"] <= h["temperature"] + 0.05 for h in o["hourly"])
    _, _, mine = get(f"{server.url}/api/v1/weather?lat={NEW_YORK[0]}&lon={NEW_YORK[1]}")
    _, _, dark = forecast(server, NEW_YORK, "?units=si")
    _, _, om = get(f"{server.url}/v1/forecast?latitude={NEW_YORK[0]}&longitude={NEW_YORK[1]}&current=dew_point_2m")
    dews = [o["current"]["dew_point"], mine["current"]["dewPoint"], dark["currently"]["dewPoint"], om["current"]["dew_point_2m"]]
    assert max(dews) - min(dews) <= 0.15, dews
    assert double.calls("/v1/forecast") == 1


def test_pyowm_reads_brolly_as_openweathermap(server, double):
    m = client("pyowm", server, LONDON, "metric", "--other-places")
    i = client("pyowm", server, LONDON, "imperial")
    _, _, w = get(f"{server.url}/api/v1/weather?lat={LONDON[0]}&lon={LONDON[1]}")
    assert abs(m["temperature"] - w["current"]["temperature"]) < 0.06 and m["status"] == "Rain" and 500 <= m["code"] < 600
    assert abs(i["temperature"] - (m["temperature"] * 1.8 + 32)) < 0.06 and m["humidity"] == w["current"]["humidity"]
    assert m["slots"] == 40 and m["slot_times"][1] - m["slot_times"][0] == 3 * 3600 and m["sunrise"]
    assert m["named"] == "Berlin" and m["named_country"] == "DE"
    # weather_at_zip_code, and a 3-hour slot's feels-like, humidity, wind direction (issue 38's table).
    assert m["zip"] == "New York" and m["id"] == "APIRequestError", m
    slot = m["slot"]
    assert slot["feels_like"] is not None and slot["humidity"] and slot["wind_deg"] is not None and slot["pressure"], slot


def test_the_four_clients_for_one_place_make_one_forecast_call(server, double):
    """Home Assistant (open-meteo), two Pirate Weather libraries and pyowm ask for the same place
    within a minute: Brolly asks its provider once."""
    client("open_meteo", server, BERLIN, "si")
    client("pirate_weather_python", server, BERLIN, "si")
    client("pyowm", server, BERLIN, "metric")
    status, _, _ = forecast(server, BERLIN, "?units=si")
    assert status == 200
    calls = double.calls("/v1/forecast")
    print(f"four clients, one place: {calls} forecast call(s)")
    assert calls == 1


def test_open_meteo_and_openweathermap_errors_in_their_own_shapes(server, double):
    for path, word in (("/v1/forecast?latitude=91&longitude=0", "Latitude"), ("/v1/forecast?longitude=0", "latitude"),
                       ("/v1/forecast?latitude=1&longitude=1&timezone=Mars/Base", "timezone"),
                       ("/v1/forecast?latitude=1&longitude=1&forecast_days=17", "forecast_days"),
                       ("/v1/forecast?latitude=1&longitude=1&hourly=temperature_2m;drop", "invalid String"),
                       ("/v1/forecast?latitude=52.52&longitude=13.41&hourly=no_such_variable", "no_such_variable")):
        status, _, body = get(server.url + path)
        assert status == 400 and body["error"] is True and word in body["reason"], (path, body)
    for path, word in (("/data/2.5/weather?lat=91&lon=0", "latitude"), ("/data/2.5/weather", "lat and lon"),
                       ("/data/2.5/forecast?lat=1&lon=1&units=kelvin", "units"), ("/data/2.5/forecast?lat=1&lon=1&cnt=41", "cnt")):
        status, _, body = get(server.url + path)
        assert status == 400 and body["cod"] == "400" and word in body["message"], (path, body)
    status, _, body = get(server.url + "/data/2.5/weather?q=Nowhereville")
    assert status == 404 and body["message"] == "city not found"
    # A name qualified by its country (and state), as OpenWeatherMap takes it.
    status, _, body = get(server.url + "/data/2.5/weather?q=London,GB&units=metric")
    assert status == 200 and body["name"] == "London" and body["sys"]["country"] == "GB", body
    status, _, body = get(server.url + "/data/2.5/weather?q=Springfield,MO,US&units=metric")
    assert status == 200 and abs(body["coord"]["lat"] - 37.2153) < 0.01, body
    status, _, body = get(server.url + "/data/2.5/weather?q=Springfield,Massachusetts,US&units=metric")
    assert status == 200 and abs(body["coord"]["lat"] - 42.1015) < 0.01, body
    assert get(server.url + "/data/2.5/weather?q=London,FR")[0] == 404
    # Open-Meteo's ETag and the cache: a repeat is a 304.
    status, headers, _ = get(server.url + "/v1/forecast?latitude=52.52&longitude=13.41&hourly=temperature_2m")
    status, _, body = call(server.url + "/v1/forecast?latitude=52.52&longitude=13.41&hourly=temperature_2m",
                           headers={"If-None-Match": headers["ETag"]})
    assert status == 304


def test_openweathermap_by_postcode_city_and_country_and_its_error_shapes(server, double):
    """Issue 38, item 3: zip= (a postcode search, the United States unless a country is given),
    q=City,CC, and cod as OpenWeatherMap writes it (a string for 400 and 404)."""
    status, _, body = get(f"{server.url}/data/2.5/weather?zip=10001&units=metric")
    assert status == 200 and body["name"] == "New York" and body["sys"]["country"] == "US" and body["cod"] == 200, body
    status, _, body = get(f"{server.url}/data/2.5/weather?zip=10115,de")
    assert status == 200 and body["name"] == "Berlin", body
    status, _, body = get(f"{server.url}/data/2.5/weather?q=Springfield,MO,US")
    assert status == 200 and abs(body["coord"]["lat"] - 37.215) < 0.01, body
    # id= is OpenWeatherMap's own list: without an OpenWeatherMap key, a 400 in its shape that says what to give instead.
    status, _, body = get(f"{server.url}/data/2.5/weather?id=2643743")
    assert status == 400 and body["cod"] == "400" and "zip=" in body["message"], body
    status, _, body = get(f"{server.url}/data/2.5/weather?zip=99999,US")
    assert status == 404 and body == {"cod": "404", "message": "city not found"}, body


def test_keys_for_a_public_instance(server_factory, double, tmp_path):
    keys = tmp_path / "keys"
    keys.write_text("# household\nhome-key-1\nfriend-key-2 1   # one upstream call a minute\n")
    s = server_factory(extra_env={"BROLLY_API_KEYS": str(keys)})
    status, _, body = get(f"{s.url}/forecast/wrong-key/52.52,13.41")
    assert status == 403 and set(body) == {"message"}  # Pirate Weather's status (Home Assistant's setup reads it)
    status, _, body = get(f"{s.url}/v1/forecast?latitude=52.52&longitude=13.41&hourly=temperature_2m&apikey=wrong")
    assert status == 401 and body["error"] is True
    status, _, body = get(f"{s.url}/data/2.5/weather?lat=52.52&lon=13.41")
    assert status == 401 and body["cod"] == 401
    assert get(f"{s.url}/forecast/home-key-1/52.52,13.41")[0] == 200
    assert get(f"{s.url}/data/2.5/weather?lat=52.52&lon=13.41&appid=home-key-1")[0] == 200
    # pyowm and MagicMirror write the name in capitals.
    assert get(f"{s.url}/data/2.5/weather?lat=52.52&lon=13.41&APPID=home-key-1")[0] == 200
    # The friend's allowance: one upstream call a minute; a second new place waits.
    assert get(f"{s.url}/forecast/friend-key-2/48.85,2.35")[0] == 200
    status, headers, body = get(f"{s.url}/forecast/friend-key-2/41.9,12.5")
    assert status == 429 and "Retry-After" in headers, body
    # Cached places cost nothing: still answered.
    assert get(f"{s.url}/forecast/friend-key-2/52.52,13.41")[0] == 200
    text = call(s.url + "/metrics")[2].decode()
    assert 'brolly_compatible_api_requests_total{api="darksky",result="refused-key"} 1' in text
    assert 'brolly_compatible_api_requests_total{api="openweathermap",result="answered"} 2' in text
    assert "home-key-1" not in text and "friend-key-2" not in text
    # A bad keys file stops the server with one line on stderr.
    bad = tmp_path / "bad"
    bad.write_text("k\n")
    done = subprocess.run([brolly_binary(), "serve", "--port", "0"], env={**os.environ, "BROLLY_API_KEYS": str(bad)},
                          capture_output=True, text=True, timeout=20)
    assert done.returncode != 0 and "BROLLY_API_KEYS line 1" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_keys_for_some_apis_only(server_factory, double, tmp_path):
    """Issue 38, item 4: Open-Meteo's apps (Home Assistant core's integration, Breezy's and
    MagicMirror's Open-Meteo sources) cannot send a key; BROLLY_API_KEYS_FOR keys the others only."""
    keys = tmp_path / "keys"
    keys.write_text("home-key-1\n")
    s = server_factory(extra_env={"BROLLY_API_KEYS": str(keys), "BROLLY_API_KEYS_FOR": "pirateweather, openweathermap"})
    assert get(f"{s.url}/v1/forecast?latitude=52.52&longitude=13.41&hourly=temperature_2m")[0] == 200  # no key needed
    assert get(f"{s.url}/forecast/wrong-key/52.52,13.41")[0] == 403
    assert get(f"{s.url}/data/2.5/weather?lat=52.52&lon=13.41")[0] == 401
    assert get(f"{s.url}/data/3.0/onecall?lat=52.52&lon=13.41&appid=wrong")[0] == 401  # One Call is OpenWeatherMap's
    assert get(f"{s.url}/data/3.0/onecall?lat=52.52&lon=13.41&appId=home-key-1")[0] == 200
    bad = subprocess.run([brolly_binary(), "serve", "--port", "0"], capture_output=True, text=True, timeout=20,
                         env={**os.environ, "BROLLY_API_KEYS": str(keys), "BROLLY_API_KEYS_FOR": "darksky,accuweather"})
    assert bad.returncode != 0 and "BROLLY_API_KEYS_FOR" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_openweathermap_city_ids_with_an_openweathermap_key(server_factory, double):
    """Issue 38, item 3: pyowm's weather_at_id and MagicMirror's locationID send id=; with an
    OpenWeatherMap key the server asks OpenWeatherMap where that city is (once: kept), and answers
    from its own weather there."""
    s = server_factory(extra_env={"OPENWEATHERMAP_API_KEY": "owm-key"})
    status, _, body = get(f"{s.url}/data/2.5/weather?id=2643743&units=metric&appid=x")
    assert status == 200 and abs(body["coord"]["lat"] - 51.51) < 0.01 and body["name"] == "London", body
    status, _, f = get(f"{s.url}/data/2.5/forecast?id=2643743&units=metric")
    assert status == 200 and f["city"]["name"] == "London" and f["cnt"] == 40
    assert double.queries("/data/2.5/weather").count("id=2643743&appid=owm-key") == 1  # looked up once
    status, _, body = get(f"{s.url}/data/2.5/weather?id=99")
    assert status == 404 and body == {"cod": "404", "message": "city not found"}, body
    # Asked again within the minute the failure is remembered: still 404, not 502 (issue 52).
    status, _, body = get(f"{s.url}/data/2.5/weather?id=99")
    assert status == 404 and body == {"cod": "404", "message": "city not found"}, body
    assert sum(q.split("&")[0] == "id=99" for q in double.queries("/data/2.5/weather")) == 1  # remembered
    status, _, body = get(f"{s.url}/data/2.5/weather?id=abc")
    assert status == 400 and body["cod"] == "400"

