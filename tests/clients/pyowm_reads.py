"""pyowm (OpenWeatherMap's Python library) against Brolly's /data/2.5: the current weather and
the 3-hourly forecast by coordinates and by name, in the units asked, and what it prints."""
import json
import sys

import pyowm
from pyowm.commons import http_client
from pyowm.utils.config import get_default_config
from pyowm.weatherapi30 import weather_manager

base, lat, lon, units = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
host = base.split("://", 1)[1]

# The only change: where the client sends its requests (plain http to the local server).
weather_manager.ROOT_WEATHER_API = host + "/data/2.5"
http_client.HttpRequestBuilder.URL_TEMPLATE_WITH_SUBDOMAINS = "{0}://{2}/{3}"
config = get_default_config()
config["connection"]["use_ssl"] = False
config["connection"]["verify_ssl_certs"] = False

mgr = pyowm.OWM("anykey", config).weather_manager()
unit = {"metric": "celsius", "imperial": "fahrenheit"}.get(units, "kelvin")
w = mgr.weather_at_coords(lat, lon).weather
forecast = mgr.forecast_at_coords(lat, lon, "3h").forecast
named = mgr.weather_at_place("Berlin")
by_zip = by_id = None
if sys.argv[5:] == ["--other-places"]:  # (other places: not for the one-place, one-call test)
    by_zip = mgr.weather_at_zip_code("10001", "us").location.name
    # By OpenWeatherMap's city id: answered when the server has an OpenWeatherMap key, else its 400.
    try:
        by_id = mgr.weather_at_id(2643743).location.name
    except Exception as e:  # pyowm raises its APIRequestError for the 400
        by_id = type(e).__name__
slot = forecast.weathers[0]
print(json.dumps({
    "zip": by_zip, "id": by_id,
    "slot": {"feels_like": slot.temperature(unit).get("feels_like"), "humidity": slot.humidity, "wind_deg": slot.wind().get("deg"),
             "pressure": slot.pressure["press"], "clouds": slot.clouds},
    "temperature": w.temperature(unit)["temp"], "status": w.status, "detailed": w.detailed_status, "code": w.weather_code,
    "humidity": w.humidity, "pressure": w.pressure["press"], "wind": w.wind(unit="miles_hour" if units == "imperial" else "meters_sec")["speed"],
    "clouds": w.clouds, "rain": w.rain, "sunrise": w.sunrise_time(),
    "slots": len(forecast.weathers), "slot_times": [x.reference_time() for x in forecast.weathers][:3],
    "slot_temperatures": [x.temperature(unit)["temp"] for x in forecast.weathers][:3],
    "named": named.location.name, "named_country": named.location.country,
}))
