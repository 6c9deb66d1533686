#!/usr/bin/env python3
"""Writes the fuzzers' seed inputs into Fuzz/seeds/<target>/: the repository's own fixtures in the
providers' formats (Tests/BrollyCoreTests/Fixtures) and answers of the test double
(tests/upstream_double.py), which speaks every provider's format. Run by scripts/fuzz.sh."""

import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests" / "BrollyCoreTests" / "Fixtures"
SEEDS = ROOT / "Fuzz" / "seeds"

# target -> fixture globs (relative to FIXTURES) and double paths
SOURCES = {
    "open-meteo": (["open-meteo/forecast-*.json", "open-meteo/error-*.json"],
                   ["/v1/forecast?latitude=52.52&longitude=13.41&current=temperature_2m&hourly=temperature_2m&timezone=auto",
                    "/v1/forecast?latitude=-33.87&longitude=151.21&forecast_days=16&minutely_15=precipitation&timezone=auto"]),
    "open-meteo-geocoding": (["open-meteo/geocoding-*.json"], ["/v1/search?name=Springfield&count=10", "/v1/search?name=Nowhere"]),
    "open-meteo-air-quality": (["open-meteo/air-quality-*.json"],
                               ["/v1/air-quality?latitude=52.52&longitude=13.41&current=european_aqi,us_aqi,pm2_5&hourly=uv_index,birch_pollen&timezone=auto"]),
    "previous-runs": ([], ["/previous-runs/v1/forecast?latitude=27.7&longitude=85.3&hourly=temperature_2m,temperature_2m_previous_day1,"
                           "precipitation,precipitation_previous_day1&models=best_match,ecmwf_ifs025&past_days=5&forecast_days=1&timezone=auto"]),
    "openweathermap-current": (["openweathermap/current-*.json", "openweathermap/error-*.json"],
                               ["/data/2.5/weather?lat=52.52&lon=13.41&appid=k&units=metric"]),
    "openweathermap-forecast": (["openweathermap/forecast-*.json"], ["/data/2.5/forecast?lat=52.52&lon=13.41&appid=k&units=metric"]),
    "openweathermap-geocoding": (["openweathermap/geo-*.json"], ["/geo/1.0/direct?q=London&appid=k", "/geo/1.0/reverse?lat=52.52&lon=13.41&appid=k"]),
    "openweathermap-onecall": ([], ["/data/3.0/onecall?lat=40.71&lon=-74.0&appid=k&exclude=current,minutely,hourly,daily"]),
    "nominatim": (["nominatim/*.json"], ["/reverse?lat=52.52&lon=13.41&format=jsonv2"]),
    "google-geocoding": (["google/*.json"], ["/maps/api/geocode/json?latlng=52.52,13.41&key=k"]),
    "nws": (["alerts/nws-*.json"], ["/alerts/active?point=40.7143,-74.006"]),
    "meteoalarm": (["alerts/meteoalarm-*.json"], ["/api/v1/warnings/feeds-germany", "/api/v1/warnings/feeds-france"]),
    "cap-xml": (["alerts/*.xml"], ["/cap/feed.xml"]),
    "metar": ([], ["/api/data/metar?bbox=52.2,13.1,52.8,13.7&format=json&hours=2"]),
    "bbc-rss": (["bbc/*.xml"], ["/news/world/europe/rss.xml"]),
    "newsapi": (["newsapi/*.json"], ["/v2/everything?q=Berlin&apiKey=k"]),
    "json": (["*/*.json"], []),
}
QUERIES = [
    "latitude=52.52&longitude=13.41&current=temperature_2m,weather_code&hourly=temperature_2m&daily=temperature_2m_max&timezone=auto",
    "latitude=52.52&longitude=13.41&hourly=pressure_msl,dew_point_2m&forecast_days=16&models=icon_seamless,gfs_seamless",
    "latitude=40.7&longitude=-74&start_date=2026-11-20&end_date=2026-11-27&temperature_unit=fahrenheit&wind_speed_unit=mph",
    "latitude=1&longitude=2&past_days=3&minutely_15=precipitation&format=flatbuffers&cell_selection=land",
]


def main():
    double = subprocess.Popen([sys.executable, str(ROOT / "tests" / "upstream_double.py"), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = "http://127.0.0.1:" + double.stdout.readline().split()[1]
        for target, (globs, paths) in SOURCES.items():
            out = SEEDS / target
            out.mkdir(parents=True, exist_ok=True)
            for pattern in globs:
                for f in FIXTURES.glob(pattern):
                    shutil.copy(f, out / f.name)
            for i, path in enumerate(paths):
                try:
                    with urllib.request.urlopen(base + path, timeout=30) as r:
                        (out / f"double-{i}").write_bytes(r.read())
                except urllib.error.HTTPError as e:
                    (out / f"double-{i}").write_bytes(e.read())
        q = SEEDS / "open-meteo-query"
        q.mkdir(parents=True, exist_ok=True)
        for i, text in enumerate(QUERIES):
            (q / f"query-{i}").write_text(text)
        print(f"seeds: {sum(1 for _ in SEEDS.rglob('*') if _.is_file())} files in {SEEDS.relative_to(ROOT)}")
    finally:
        double.terminate()


if __name__ == "__main__":
    main()
