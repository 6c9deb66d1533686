"""forecastiopy against Brolly's Pirate Weather API: the library's Dark Sky address (its one
class attribute) changed to Brolly's, then its readers for the currently, hourly and daily blocks."""
import contextlib
import json
import sys

from forecastiopy import FIOCurrently, FIODaily, FIOHourly, ForecastIO

base, lat, lon, units = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
ForecastIO.ForecastIO._darksky_url = base + "/forecast/"  # the only change
# Its keys are 32 characters (Dark Sky's): any such key, as Brolly takes any key unless it keeps a list.
# (It prints a warning for each Dark Sky header it does not find: to stderr, not into the JSON.)
with contextlib.redirect_stdout(sys.stderr):
    fio = ForecastIO.ForecastIO("0123456789abcdef0123456789abcdef", units=units, lang="en", latitude=lat, longitude=lon)
assert fio.has_currently() and fio.has_hourly() and fio.has_daily()
now = FIOCurrently.FIOCurrently(fio)
hourly = FIOHourly.FIOHourly(fio)
daily = FIODaily.FIODaily(fio)
hours = [hourly.get_hour(i) for i in range(hourly.hours())]
days = [daily.get_day(i) for i in range(daily.days())]
print(json.dumps({
    "temperature": now.temperature, "apparentTemperature": now.apparentTemperature, "pressure": now.pressure,
    "humidity": now.humidity, "windBearing": now.windBearing, "units": fio.get_flags()["units"],
    "hours": len(hours), "hourly": [{k: h.get(k) for k in ("time", "temperature", "apparentTemperature", "humidity",
                                                            "windBearing", "cloudCover", "uvIndex")} for h in hours],
    "days": len(days), "daily": [{k: d.get(k) for k in ("time", "temperatureMax", "temperatureMin", "humidity", "windBearing")}
                                 for d in days],
}))
