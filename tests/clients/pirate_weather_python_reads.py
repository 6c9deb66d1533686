"""pirate-weather-python against Brolly's /forecast: current, hourly, daily and alerts in the
units asked, as its users read them."""
import json
import sys

from pirate_weather import api
from pirate_weather.types.units import Units

base, lat, lon, units = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]


class Address(str):
    """The API's address as 0.0.6 takes it (a string) and as 1.0 reads it (an enum's `.value`)."""
    value = property(str)


client = api.PirateWeather("anykey", gzip=False)
# The only change: the API's address (the client's default argument names Pirate Weather's).
original = client.get_url
client.get_url = lambda la, lo, time=None, api_version=None, **p: original(la, lo, time, api_version=Address(base + "/forecast"), **p)
f = client.get_forecast(lat, lon, values_units={"si": Units.SI, "us": Units.US}[units])
print(json.dumps({
    "temperature": f.currently.temperature, "summary": f.currently.summary, "icon": f.currently.icon,
    "humidity": f.currently.humidity, "wind": f.currently.wind_speed,
    "hours": len(f.hourly.data), "hour_temperatures": [h.temperature for h in f.hourly.data][:3],
    "days": len(f.daily.data), "day_highs": [d.temperature_high for d in f.daily.data],
    "alerts": [{"title": a.title, "severity": a.severity} for a in (f.alerts or [])],
    "units": f.flags.units, "sources": f.flags.sources,
}))
