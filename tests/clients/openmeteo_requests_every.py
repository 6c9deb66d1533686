"""openmeteo-requests (Open-Meteo's official Python client, FlatBuffers) asking every variable
Brolly answers, for one or several locations, by GET or POST (the SDK's `method="POST"`): each
variable of each block as the SDK reads it, by position, with its meaning."""
import json
import sys

import openmeteo_requests

base, lats, lons, method = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
units = dict(arg.split("=", 1) for arg in sys.argv[5:])
CURRENT = ["temperature_2m", "relative_humidity_2m", "dew_point_2m", "apparent_temperature", "is_day", "precipitation", "rain",
           "snowfall", "weather_code", "cloud_cover", "pressure_msl", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m"]
HOURLY = ["temperature_2m", "relative_humidity_2m", "dew_point_2m", "apparent_temperature", "precipitation_probability",
          "precipitation", "weather_code", "pressure_msl", "cloud_cover", "wind_speed_10m", "wind_direction_10m",
          "wind_gusts_10m", "uv_index", "is_day"]
DAILY = ["weather_code", "temperature_2m_max", "temperature_2m_min", "apparent_temperature_max", "apparent_temperature_min",
         "precipitation_sum", "precipitation_probability_max", "wind_speed_10m_max", "wind_gusts_10m_max",
         "wind_direction_10m_dominant", "uv_index_max", "dew_point_2m_mean", "sunrise", "sunset"]
params = {"latitude": lats, "longitude": lons, "current": ",".join(CURRENT), "hourly": ",".join(HOURLY),
          "daily": ",".join(DAILY), "timezone": "auto", **units}
responses = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=params, method=method)


def block(b, names, single=False):
    out = {"time": b.Time(), "interval": b.Interval(), "variables": {}}
    for i, name in enumerate(names):
        v = b.Variables(i)
        if single:
            values = [v.Value()]
        elif v.ValuesInt64Length():
            values = [v.ValuesInt64(j) for j in range(v.ValuesInt64Length())]
        else:
            values = [None if x != x else x for x in v.ValuesAsNumpy().tolist()]
        out["variables"][name] = {"variable": v.Variable(), "unit": v.Unit(), "altitude": v.Altitude(),
                                  "aggregation": v.Aggregation(), "values": values}
    out["count"] = b.VariablesLength()
    return out


print(json.dumps([{
    "location_id": r.LocationId(), "latitude": r.Latitude(), "longitude": r.Longitude(),
    "current": block(r.Current(), CURRENT, single=True), "hourly": block(r.Hourly(), HOURLY), "daily": block(r.Daily(), DAILY),
} for r in responses]))
