"""openmeteo-requests (Open-Meteo's official Python client, FlatBuffers) against Brolly's
/v1/forecast: the hourly temperature as its users read it."""
import json
import sys

import openmeteo_requests

base, lat, lon = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
client = openmeteo_requests.Client()
# The only change: the API's address.
responses = client.weather_api(base + "/v1/forecast", params={"latitude": lat, "longitude": lon, "hourly": "temperature_2m"})
r = responses[0]
hourly = r.Hourly()
temperature = hourly.Variables(0)
print(json.dumps({
    "latitude": r.Latitude(), "longitude": r.Longitude(), "timezone": r.Timezone().decode(), "offset": r.UtcOffsetSeconds(),
    "start": hourly.Time(), "end": hourly.TimeEnd(), "interval": hourly.Interval(),
    "variable": temperature.Variable(), "unit": temperature.Unit(),
    "temperatures": [temperature.Values(i) for i in range(temperature.ValuesLength())],
}))
