"""Issue 38, item 5: the apps people run, replayed against `brolly serve` — each app's exact
requests, read from its source, and every field it reads checked with the type it reads it as.

- MagicMirror's weather module (MagicMirrorOrg/MagicMirror, defaultmodules/weather/providers):
  `pirateweather.js` (`{apiBase}/forecast/{key}/{lat},{lon}?units=us&lang=en`), `openmeteo.js`
  (`{apiBase}/forecast?…` with its 57 hourly and 19 daily variables, `timeformat=unixtime`,
  `windspeed_unit=ms`, `forecast_days` by type) and `openweathermap.js` (One Call 3.0:
  `{apiBase}3.0/onecall?lat=…&lon=…&exclude=…&units=metric&lang=en&APPID=…`).
- Breezy Weather (breezy-weather/breezy-weather, app/src/main/java/org/breezyweather/sources):
  `pirateweather/PirateWeatherApi.kt` (`forecast/{apikey}/{lat},{lon}?units=si&lang=…&extend=hourly`,
  decoded by kotlinx into the `json/PirateWeather*.kt` classes: a `Long` must be a whole number and
  a non-null field must be present) and `openmeteo/OpenMeteoForecastApi.kt` (`v1/forecast?
  timezone=auto&timeformat=unixtime&…&forecast_days=16&past_days=1&windspeed_unit=ms`).
Home Assistant's integrations are replayed in test_compatible_apis.py."""

import urllib.parse

from conftest import get

NEW_YORK = (40.71, -74.01)
KEY = "k3y"

# MagicMirror's convertWeatherType tables: an icon outside them shows no icon.
MM_PIRATE_ICONS = {"clear-day", "clear-night", "rain", "snow", "sleet", "wind", "fog", "cloudy", "partly-cloudy-day",
                   "partly-cloudy-night"}
MM_OWM_ICONS = {f"{n}{dn}" for n in ("01", "02", "03", "04", "09", "10", "11", "13", "50") for dn in "dn"}


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def whole(v):
    """A JSON number kotlinx reads into a Long: no fraction, no exponent."""
    return isinstance(v, int) and not isinstance(v, bool)


def test_magicmirror_pirateweather_provider_current_daily_and_hourly(server, double):
    status, _, d = get(f"{server.url}/forecast/{KEY}/{NEW_YORK[0]},{NEW_YORK[1]}?units=us&lang=en")
    assert status == 200
    c = d["currently"]
    # generateCurrentWeather: humidity * 100, feels-like, wind, bearing, the icon; sunrise from daily[0].
    assert 0 < c["humidity"] <= 1 and number(c["temperature"]) and number(c["apparentTemperature"])
    assert number(c["windSpeed"]) and 0 <= c["windBearing"] < 360 and c["icon"] in MM_PIRATE_ICONS
    assert whole(d["daily"]["data"][0]["sunriseTime"]) and whole(d["daily"]["data"][0]["sunsetTime"])
    # generateForecast: precipAccumulation * 10 "cm to mm" — a -999 would show −9,990 mm.
    for day in d["daily"]["data"]:
        assert whole(day["time"]) and number(day["temperatureMin"]) and number(day["temperatureMax"])
        assert day["icon"] in MM_PIRATE_ICONS and 0 <= day["precipProbability"] <= 1
        assert day["precipAccumulation"] >= 0 and day["precipType"] in ("rain", "snow", "sleet", "none")
    # generateHourly: feels-like and the wind's direction every hour (the table's "no hourly
    # feels-like or wind direction"), rain and snow from precipAccumulation (the table's "always 0").
    hours = d["hourly"]["data"]
    assert len(hours) == 48
    for h in hours:
        assert h["apparentTemperature"] != -999 and number(h["apparentTemperature"]) and 0 <= h["windBearing"] < 360
        assert h["precipAccumulation"] >= 0 and h["icon"] in MM_PIRATE_ICONS
    assert any(h["precipAccumulation"] > 0 and h["precipType"] == "rain" for h in hours)
    assert d["flags"]["units"] == "us"


def magicmirror_open_meteo_query(kind):
    """openmeteo.js's #getQueryParameters for `type` (maxNumberOfDays 5, pastDays 0), in its order."""
    hourly = ("temperature_2m,relativehumidity_2m,dewpoint_2m,apparent_temperature,pressure_msl,surface_pressure,cloudcover,"
              "cloudcover_low,cloudcover_mid,cloudcover_high,windspeed_10m,windspeed_80m,windspeed_120m,windspeed_180m,"
              "winddirection_10m,winddirection_80m,winddirection_120m,winddirection_180m,windgusts_10m,shortwave_radiation,"
              "direct_radiation,direct_normal_irradiance,diffuse_radiation,vapor_pressure_deficit,cape,evapotranspiration,"
              "et0_fao_evapotranspiration,precipitation,snowfall,precipitation_probability,rain,showers,weathercode,snow_depth,"
              "freezinglevel_height,visibility,soil_temperature_0cm,soil_temperature_6cm,soil_temperature_18cm,"
              "soil_temperature_54cm,soil_moisture_0_1cm,soil_moisture_1_3cm,soil_moisture_3_9cm,soil_moisture_9_27cm,"
              "soil_moisture_27_81cm,uv_index,uv_index_clear_sky,is_day,terrestrial_radiation,terrestrial_radiation_instant,"
              "shortwave_radiation_instant,diffuse_radiation_instant,direct_radiation_instant,direct_normal_irradiance_instant")
    daily = ("temperature_2m_max,temperature_2m_min,apparent_temperature_min,apparent_temperature_max,precipitation_sum,"
             "rain_sum,showers_sum,snowfall_sum,precipitation_hours,weathercode,sunrise,sunset,windspeed_10m_max,"
             "windgusts_10m_max,winddirection_10m_dominant,shortwave_radiation_sum,uv_index_max,et0_fao_evapotranspiration,"
             "sunshine_duration")
    params = [("latitude", str(NEW_YORK[0])), ("longitude", str(NEW_YORK[1])), ("timeformat", "unixtime"),
              ("timezone", "auto"), ("past_days", "0")]
    query = "&".join(f"{k}={urllib.parse.quote(v, safe='')}" for k, v in params)
    query += f"&daily={daily}&hourly={hourly}&temperature_unit=celsius&windspeed_unit=ms&precipitation_unit=mm"
    return query + {"current": "&current_weather=true&forecast_days=1", "daily": "&forecast_days=6",
                    "hourly": "&forecast_days=3"}[kind]


def test_magicmirror_openmeteo_provider_gets_its_variables_passed_on(server, double):
    """Its variables (soil, radiation, 80–180 m winds) are not Brolly's: the query goes to the
    upstream Open-Meteo as the module wrote it (forecast_days as asked, never beside a range), and
    what comes back has what #parseWeatherApiResponse and the generators read, in Unix seconds."""
    for kind, days in (("current", 1), ("daily", 6), ("hourly", 3)):
        status, _, d = get(f"{server.url}/v1/forecast?{magicmirror_open_meteo_query(kind)}")
        assert status == 200, d
        assert len(d["daily"]["time"]) == days and all(whole(t) for t in d["daily"]["time"] + d["daily"]["sunrise"])
        assert all(whole(t) for t in d["hourly"]["time"]) and len(d["hourly"]["time"]) == 24 * days
        for name in ("temperature_2m_max", "temperature_2m_min", "weathercode", "windspeed_10m_max", "uv_index_max"):
            assert all(number(v) for v in d["daily"][name]), name
        for name in ("temperature_2m", "relativehumidity_2m", "apparent_temperature", "windspeed_10m", "winddirection_10m",
                     "rain", "snowfall", "precipitation", "precipitation_probability", "uv_index", "weathercode"):
            assert len(d["hourly"][name]) == 24 * days, name
        if kind == "current":
            w = d["current_weather"]
            assert whole(w["time"]) and number(w["temperature"]) and number(w["windspeed"]) and "weathercode" in w
    asked = [q for q in double.queries("/v1/forecast") if "soil_moisture_0_1cm" in q]
    assert len(asked) == 3
    for q, days in zip(asked, (1, 6, 3)):
        items = urllib.parse.parse_qs(q)
        assert items["forecast_days"] == [str(days)] and items["past_days"] == ["0"] and items["timeformat"] == ["unixtime"]
        assert items["wind_speed_unit"] == ["ms"] and items["timezone"] == ["auto"]


def test_magicmirror_openweathermap_provider_reads_one_call_3(server, double):
    """openweathermap.js asks One Call 3.0 with `APPID` and an `exclude` by type, and reads
    current, hourly and daily in OpenWeatherMap's names (`weather[0].icon`, `temp.min`, `pop`…)."""
    base = f"{server.url}/data/3.0/onecall?lat={NEW_YORK[0]}&lon={NEW_YORK[1]}"
    tail = f"&units=metric&lang=en&APPID={KEY}"
    status, _, d = get(base + "&exclude=minutely,hourly,daily" + tail)
    assert status == 200 and set(d) >= {"lat", "lon", "timezone", "timezone_offset", "current"} and "hourly" not in d
    c = d["current"]
    assert whole(c["dt"]) and whole(c["sunrise"]) and whole(c["sunset"]) and number(c["temp"]) and number(c["feels_like"])
    assert number(c["wind_speed"]) and 0 <= c["wind_deg"] < 360 and c["weather"][0]["icon"] in MM_OWM_ICONS
    assert 0 <= c["humidity"] <= 100 and number(c["uvi"])
    status, _, d = get(base + "&exclude=current,minutely,daily" + tail)
    assert status == 200 and len(d["hourly"]) == 48 and "current" not in d
    for h in d["hourly"]:
        assert whole(h["dt"]) and number(h["temp"]) and number(h["feels_like"]) and 0 <= h["humidity"] <= 100
        assert number(h["wind_speed"]) and 0 <= h["wind_deg"] < 360 and h["weather"][0]["icon"] in MM_OWM_ICONS
        assert 0 <= h["pop"] <= 1 and number(h["uvi"]) and ("rain" not in h or number(h["rain"]["1h"]))
    status, _, d = get(base + "&exclude=current,minutely,hourly" + tail)
    assert status == 200 and len(d["daily"]) == 8
    for x in d["daily"]:
        assert whole(x["dt"]) and whole(x["sunrise"]) and number(x["temp"]["min"]) and number(x["temp"]["max"])
        assert x["weather"][0]["icon"] in MM_OWM_ICONS and ("rain" not in x or number(x["rain"]))
    for x in d["daily"][:7]:
        assert 0 < x["humidity"] <= 100 and number(x["wind_speed"]) and 0 <= x["wind_deg"] < 360 and number(x["uvi"])
    # All of it from Brolly's one call; an unknown block is OpenWeatherMap's 400.
    assert double.calls("/v1/forecast") == 1
    status, _, body = get(base + "&exclude=tomorrow" + tail)
    assert status == 400 and body["cod"] == "400"


# Breezy Weather's kotlinx classes: fields that are Long (whole numbers) and the non-null ones.
BREEZY_LONGS = {
    "hourly": ["time"],
    "daily": ["time", "sunriseTime", "sunsetTime", "precipIntensityMaxTime", "temperatureHighTime", "temperatureLowTime",
              "apparentTemperatureHighTime", "apparentTemperatureLowTime", "temperatureMinTime", "temperatureMaxTime",
              "apparentTemperatureMinTime", "apparentTemperatureMaxTime", "windGustTime", "uvIndexTime"],
    "alerts": ["time", "expires"],
}
BREEZY_HOURLY = ["precipIntensity", "precipProbability", "precipAccumulation", "temperature", "apparentTemperature", "dewPoint",
                 "humidity", "pressure", "windSpeed", "windGust", "windBearing", "uvIndex", "cloudCover", "visibility"]


def test_breezy_weather_pirate_weather_source_decodes_and_maps(server, double):
    """PirateWeatherService.requestWeather: units=si, the app's language, extend=hourly; every
    Long whole, the alerts' non-null `time` and `expires` present, and what the converter maps
    (feels-like, gusts, bearing, UV, humidity, dew point, pressure, cloud, each hour) known."""
    status, _, d = get(f"{server.url}/forecast/{KEY}/{NEW_YORK[0]},{NEW_YORK[1]}?units=si&lang=de&extend=hourly")
    assert status == 200
    for h in d["hourly"]["data"]:
        assert all(whole(h[k]) for k in BREEZY_LONGS["hourly"])
        assert all(number(h[k]) for k in BREEZY_HOURLY)
        assert all(h[k] != -999 for k in ("apparentTemperature", "humidity", "windBearing", "windGust", "uvIndex", "cloudCover",
                                          "pressure", "dewPoint", "precipAccumulation")), h
    assert len(d["hourly"]["data"]) == 168
    for x in d["daily"]["data"]:
        assert all(whole(x[k]) for k in BREEZY_LONGS["daily"]), x
    for x in d["daily"]["data"][:7]:
        assert x["humidity"] != -999 and x["pressure"] != -999 and x["cloudCover"] != -999 and x["uvIndex"] != -999
    assert d["alerts"], "the double's New York warnings"
    for a in d["alerts"]:
        assert all(whole(a[k]) for k in BREEZY_LONGS["alerts"]) and a["severity"] in ("Extreme", "Severe", "Moderate", "Minor")
    for m in d.get("minutely", {}).get("data", []):
        assert whole(m["time"]) and number(m["precipIntensity"])
    # The German summary, as the app asked.
    status, _, en = get(f"{server.url}/forecast/{KEY}/{NEW_YORK[0]},{NEW_YORK[1]}?units=si&lang=en&extend=hourly")
    assert d["currently"]["summary"] != en["currently"]["summary"]


def test_breezy_weather_open_meteo_source_is_passed_on_with_its_own_days(server, double):
    """OpenMeteoService.requestWeather: its daily means and hourly dew point are not Brolly's, so the
    query goes upstream as the app wrote it — forecast_days=16 and past_days=1 kept, the legacy
    windspeed_unit read — and the answer is Open-Meteo's, in Unix seconds."""
    daily = ("temperature_2m_max,temperature_2m_min,apparent_temperature_max,apparent_temperature_min,sunshine_duration,"
             "uv_index_max,relative_humidity_2m_mean,relative_humidity_2m_max,relative_humidity_2m_min,dew_point_2m_mean,"
             "dew_point_2m_max,dew_point_2m_min,pressure_msl_mean,pressure_msl_max,pressure_msl_min,cloud_cover_mean,"
             "cloud_cover_max,cloud_cover_min,visibility_mean,visibility_max,visibility_min")
    hourly = ("temperature_2m,apparent_temperature,precipitation_probability,precipitation,rain,showers,snowfall,weather_code,"
              "wind_speed_10m,wind_direction_10m,wind_gusts_10m,uv_index,is_day,relative_humidity_2m,dew_point_2m,pressure_msl,"
              "cloud_cover,visibility")
    current = ("temperature_2m,apparent_temperature,weather_code,wind_speed_10m,wind_direction_10m,wind_gusts_10m,uv_index,"
               "relative_humidity_2m,dew_point_2m,pressure_msl,cloud_cover,visibility")
    url = (f"{server.url}/v1/forecast?timezone=auto&timeformat=unixtime&latitude={NEW_YORK[0]}&longitude={NEW_YORK[1]}"
           f"&models=best_match&daily={daily}&hourly={hourly}&minutely_15=precipitation&current={current}"
           "&forecast_days=16&past_days=1&windspeed_unit=ms")
    status, _, d = get(url)
    assert status == 200, d
    assert len(d["daily"]["time"]) == 17 and len(d["hourly"]["time"]) == 17 * 24 and whole(d["current"]["time"])
    assert all(whole(t) for t in d["hourly"]["time"]) and len(d["hourly"]["dew_point_2m"]) == 17 * 24
    q = urllib.parse.parse_qs(next(q for q in double.queries("/v1/forecast") if "dew_point_2m_mean" in q))
    assert q["forecast_days"] == ["16"] and q["past_days"] == ["1"] and q["wind_speed_unit"] == ["ms"]
    assert q["models"] == ["best_match"] and q["minutely_15"] == ["precipitation"]
