"""pyopenweathermap (Home Assistant core's OpenWeatherMap integration's client; its default mode is
One Call 3.0) against Brolly's /data/3.0/onecall: what the integration reads, every day's dew point
among it (a KeyError there takes the integration's entity down)."""
import asyncio
import json
import sys

from pyopenweathermap import create_owm_client
from pyopenweathermap.client import onecall_client

base, lat, lon = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
# The only change: the API's address.
onecall_client.API_URL = base + "/data/3.0/onecall"


async def main():
    report = await create_owm_client("anykey", "v3.0", units="metric").get_weather(lat, lon)
    c = report.current
    print(json.dumps({
        "current": {"temperature": float(c.temperature), "dew_point": float(c.dew_point), "humidity": float(c.humidity),
                    "snow": c.snow, "rain": c.rain, "condition": c.condition.id},
        "hourly": [{"temperature": float(h.temperature), "dew_point": float(h.dew_point)} for h in report.hourly_forecast],
        "daily": [{"max": float(d.temperature.max), "min": float(d.temperature.min), "dew_point": float(d.dew_point),
                   "humidity": float(d.humidity)} for d in report.daily_forecast],
    }))


asyncio.run(main())
