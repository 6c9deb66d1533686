"""The `open-meteo` client (Home Assistant's Open-Meteo integration uses it) against Brolly:
asks what that integration asks, in its units, and prints what it read."""
import asyncio
import json
import sys

from through_brolly import point_open_meteo_at

from open_meteo import DailyParameters, HourlyParameters, OpenMeteo, TemperatureUnit, WindSpeedUnit

base, lat, lon, units = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
extra = sys.argv[5:] == ["--extra"]

point_open_meteo_at(base)  # the only change


async def main():
    async with OpenMeteo() as client:
        hourly = [HourlyParameters.PRECIPITATION, HourlyParameters.TEMPERATURE_2M, HourlyParameters.WEATHER_CODE]
        daily = [DailyParameters.PRECIPITATION_SUM, DailyParameters.TEMPERATURE_2M_MAX, DailyParameters.TEMPERATURE_2M_MIN,
                 DailyParameters.WEATHER_CODE, DailyParameters.SUNRISE, DailyParameters.SUNSET]
        if extra:  # what Home Assistant's integration also asks: Brolly passes it on to Open-Meteo
            hourly += [HourlyParameters.WIND_DIRECTION_10M, HourlyParameters.RELATIVE_HUMIDITY_2M]
            daily += [DailyParameters.WIND_DIRECTION_10M_DOMINANT, DailyParameters.WIND_SPEED_10M_MAX]
        f = await client.forecast(
            latitude=lat, longitude=lon, timezone="UTC",
            current=[HourlyParameters.TEMPERATURE_2M, HourlyParameters.RELATIVE_HUMIDITY_2M, HourlyParameters.WEATHER_CODE,
                     HourlyParameters.WIND_SPEED_10M, HourlyParameters.WIND_DIRECTION_10M, HourlyParameters.PRESSURE_MSL,
                     HourlyParameters.IS_DAY],
            hourly=hourly, daily=daily,
            temperature_unit=TemperatureUnit.FAHRENHEIT if units == "us" else TemperatureUnit.CELSIUS,
            wind_speed_unit=WindSpeedUnit.MILES_PER_HOUR if units == "us" else WindSpeedUnit.KILOMETERS_PER_HOUR)
        print(json.dumps({
            "elevation": f.elevation, "timezone": f.timezone,
            "current": {"temperature": f.current.temperature_2m, "humidity": f.current.relative_humidity_2m,
                        "code": f.current.weather_code, "wind": f.current.wind_speed_10m, "pressure": f.current.pressure_msl,
                        "units": f.current_units.temperature_2m},
            "hours": len(f.hourly.time), "hourly_temperatures": f.hourly.temperature_2m[:48],
            "hourly_codes": f.hourly.weather_code[:48],
            "days": [str(d) for d in f.daily.time], "daily_max": f.daily.temperature_2m_max, "daily_min": f.daily.temperature_2m_min,
            "daily_wind": getattr(f.daily, "wind_speed_10m_max", None),
        }))


asyncio.run(main())
