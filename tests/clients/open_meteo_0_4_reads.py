"""open-meteo 0.4 (the version Home Assistant core's Open-Meteo integration pins) against Brolly:
the integration's own request (homeassistant/components/open_meteo/coordinator.py: current_weather,
these daily and hourly variables, UTC), and what its weather entity reads."""
import asyncio
import json
import sys

from through_brolly import point_open_meteo_at

from open_meteo import DailyParameters, HourlyParameters, OpenMeteo, PrecipitationUnit, TemperatureUnit, WindSpeedUnit

base, lat, lon = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
point_open_meteo_at(base)  # the only change


async def main():
    async with OpenMeteo() as client:
        f = await client.forecast(
            latitude=lat, longitude=lon, current_weather=True,
            daily=[DailyParameters.PRECIPITATION_SUM, DailyParameters.TEMPERATURE_2M_MAX, DailyParameters.TEMPERATURE_2M_MIN,
                   DailyParameters.WEATHER_CODE, DailyParameters.WIND_DIRECTION_10M_DOMINANT, DailyParameters.WIND_SPEED_10M_MAX],
            hourly=[HourlyParameters.PRECIPITATION, HourlyParameters.TEMPERATURE_2M, HourlyParameters.WEATHER_CODE],
            precipitation_unit=PrecipitationUnit.MILLIMETERS, temperature_unit=TemperatureUnit.CELSIUS, timezone="UTC",
            wind_speed_unit=WindSpeedUnit.KILOMETERS_PER_HOUR)
        c = f.current_weather
        print(json.dumps({
            "current": {"temperature": c.temperature, "wind_speed": c.wind_speed, "wind_direction": c.wind_direction,
                        "weather_code": c.weather_code, "time": c.time.isoformat()},
            "hours": len(f.hourly.time), "hourly_temperatures": f.hourly.temperature_2m,
            "hourly_precipitation": f.hourly.precipitation, "hourly_codes": f.hourly.weather_code,
            "days": len(f.daily.time), "daily_max": f.daily.temperature_2m_max, "daily_min": f.daily.temperature_2m_min,
            "daily_codes": f.daily.weathercode, "daily_wind": f.daily.wind_speed_10m_max,
            "daily_direction": f.daily.wind_direction_10m_dominant, "daily_precipitation": f.daily.precipitation_sum,
        }))


asyncio.run(main())
