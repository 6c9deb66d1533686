"""python-forecastio (Dark Sky's Python client) against Brolly's Pirate Weather API: its
`manual` call (documented for a URL the user builds: here only the host differs from what
`load_forecast` builds), reading what its users read, each value through the library's own data
points (a field that is missing raises PropertyUnavailable)."""
import json
import sys

import forecastio

base, lat, lon, units = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
# load_forecast's URL, with the host changed.
f = forecastio.manual(f"{base}/forecast/anykey/{lat},{lon}?units={units}&lang=en")
now = f.currently()
hours = f.hourly().data
days = f.daily().data
print(json.dumps({
    "temperature": now.temperature, "apparentTemperature": now.apparentTemperature, "pressure": now.pressure,
    "humidity": now.humidity, "windBearing": now.windBearing, "icon": now.icon, "summary": now.summary,
    "hours": len(hours),
    "hourly": [{"time": h.time.timestamp(), "temperature": h.temperature, "apparentTemperature": h.apparentTemperature,
                "humidity": h.humidity, "pressure": h.pressure, "windBearing": h.windBearing, "windGust": h.windGust,
                "cloudCover": h.cloudCover, "uvIndex": h.uvIndex, "precipProbability": h.precipProbability}
               for h in hours],
    "daily": [{"temperatureMax": d.temperatureMax, "temperatureMin": d.temperatureMin, "humidity": d.humidity,
               "pressure": d.pressure, "windBearing": d.windBearing, "sunriseTime": d.sunriseTime.timestamp()} for d in days],
    "hourly_summary": f.hourly().summary,
}))
