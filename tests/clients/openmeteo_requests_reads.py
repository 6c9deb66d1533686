"""openmeteo-requests (Open-Meteo's official Python client, FlatBuffers) against Brolly's
/v1/forecast: the hourly temperature as its users read it."""
import json
import sys

import openmeteo_requests

base, lat, lon = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
client = openmeteo_requests.Client()
# The only change: the API's address.
responses = client.weather_api(base + "/v1/forecast", params={
    "latitude": lat, "longitude": lon, "hourly": "temperature_2m,relative_humidity_2m", "current": "temperature_2m,weather_code",
    "daily": "temperature_2m_max,sunrise"})
r = responses[0]
hourly = r.Hourly()
temperature = hourly.Variables(0)
current, daily = r.Current(), r.Daily()
print(json.dumps({
    "current": {"time": current.Time(), "temperature": current.Variables(0).Value(), "code": current.Variables(1).Value(),
                "variables": [current.Variables(i).Variable() for i in range(current.VariablesLength())]},
    "daily": {"start": daily.Time(), "interval": daily.Interval(), "max": daily.Variables(0).ValuesAsNumpy().tolist(),
              "aggregation": daily.Variables(0).Aggregation(),
              "sunrise": [daily.Variables(1).ValuesInt64(i) for i in range(daily.Variables(1).ValuesInt64Length())]},
    "humidity": [hourly.Variables(1).Values(i) for i in range(hourly.Variables(1).ValuesLength())],
    "latitude": r.Latitude(), "longitude": r.Longitude(), "timezone": r.Timezone().decode(), "offset": r.UtcOffsetSeconds(),
    "start": hourly.Time(), "end": hourly.TimeEnd(), "interval": hourly.Interval(),
    "variable": temperature.Variable(), "unit": temperature.Unit(),
    "temperatures": [temperature.Values(i) for i in range(temperature.ValuesLength())],
}))
