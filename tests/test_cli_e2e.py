"""End to end: the built `brolly` binary against the upstream double on 127.0.0.1."""

import json
import os
import time
from pathlib import Path


def now_json(cli, *args, **kw):
    r = cli.run("now", "--json", *args, **kw)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), r


def test_now_prints_the_json_contract(cli, double):
    doc, _ = now_json(cli, "--lat", "52.52", "--lon", "13.41")
    assert set(doc) == {"place", "current", "days", "hours", "units", "source", "sky", "nowcast", "airQuality", "alerts",
                        "alertsElsewhere", "summary", "fields"}
    # The view's table fields current carries, each by its key and kind, and each has its value.
    assert all(isinstance(doc["current"][f["key"]], (int, float)) and f["kind"] for f in doc["fields"])
    assert set(doc["sky"]) == {"dawn", "sunrise", "solarNoon", "sunset", "dusk", "moon"}
    assert doc["place"]["name"] == "Berlin" and doc["place"]["country"] == "Germany"
    c = doc["current"]
    assert c["temperature"] == round(20 - 52.52 / 3, 1)
    for key in ("time", "feelsLike", "temperatureMin", "temperatureMax", "humidity", "pressure", "windSpeed",
                "windDirection", "windGust", "clouds", "visibility", "rain", "snow", "condition"):
        assert key in c, key
    assert set(c["condition"]) == {"code", "title", "description", "icon"}
    assert c["time"][-6:] in ("+01:00", "+02:00")  # Berlin's offset, not UTC
    assert doc["place"]["timezone"] == "Europe/Berlin"
    assert len(doc["days"]) >= 5 and all(len(d["date"]) == 10 for d in doc["days"])
    assert doc["units"] == {"temperature": "°C", "windSpeed": "m/s", "pressure": "hPa", "precipitation": "mm"}
    assert doc["source"]["provider"] == "open-meteo" and doc["source"]["stale"] is False
    assert isinstance(c["temperatureYesterday"], (int, float))


def test_fresh_cache_makes_no_second_call(cli, double):
    now_json(cli, "--lat", "52.52", "--lon", "13.41")
    calls = double.calls("/v1/forecast")
    now_json(cli, "--lat", "52.5203", "--lon", "13.4099")  # within ~1 km: same entry
    assert double.calls("/v1/forecast") == calls == 1


def test_unit_switch_makes_no_call(cli, double):
    metric, _ = now_json(cli, "--lat", "52.52", "--lon", "13.41")
    before = double.calls()
    imperial, _ = now_json(cli, "--lat", "52.52", "--lon", "13.41", "--units", "imperial")
    kelvin, _ = now_json(cli, "--lat", "52.52", "--lon", "13.41", "--units", "standard")
    assert double.calls() == before and double.calls("/v1/forecast") == 1
    assert imperial["units"]["temperature"] == "°F" and kelvin["units"]["temperature"] == "K"
    assert abs(imperial["current"]["temperature"] - (metric["current"]["temperature"] * 9 / 5 + 32)) < 0.11
    assert abs(kelvin["current"]["temperature"] - (metric["current"]["temperature"] + 273.15)) < 0.11
    # The choice is remembered.
    again, _ = now_json(cli, "--lat", "52.52", "--lon", "13.41")
    assert again["units"]["temperature"] == "K"


def test_refresh_with_provider_down_serves_cache_marked_stale(cli, double):
    now_json(cli, "--lat", "52.52", "--lon", "13.41")
    double.fault("500")
    doc, r = now_json(cli, "--lat", "52.52", "--lon", "13.41", "--refresh", "--timeout", "2")
    assert doc["source"]["stale"] is True
    assert "cached" in r.stderr and "refresh failed" in r.stderr
    assert double.calls("/v1/forecast") > 1  # it did try


def test_nothing_cached_and_provider_down_is_a_clear_error(cli, double):
    double.fault("500")
    r = cli.run("now", "--lat", "52.52", "--lon", "13.41", "--timeout", "2")
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("brolly: error:"), r.stderr
    assert "unavailable" in lines[0]
    assert "Traceback" not in r.stderr and "Fatal" not in r.stderr


def test_dropped_connections_read_as_offline(cli, double):
    double.fault("drop")
    r = cli.run("now", "--lat", "10", "--lon", "10", "--timeout", "2")
    assert r.returncode != 0
    assert "cannot reach the weather service" in r.stderr


def test_time_out_is_reported(cli, double):
    double.fault("delay", delay=5)
    started = time.time()
    r = cli.run("now", "--lat", "10", "--lon", "10", "--timeout", "1")
    assert r.returncode != 0 and "did not answer in time" in r.stderr
    assert time.time() - started < 15


def test_malformed_and_truncated_bodies_are_unreadable_or_offline(cli, double):
    double.fault("malformed", times=10)
    r = cli.run("now", "--lat", "11", "--lon", "11", "--timeout", "2")
    assert r.returncode != 0 and "could not be read" in r.stderr
    double.reset()
    double.fault("truncated", times=10)
    r = cli.run("now", "--lat", "12", "--lon", "12", "--timeout", "2")
    assert r.returncode != 0 and r.stderr.startswith("brolly: error:")


def test_rate_limit_with_retry_after_is_retried(cli, double):
    double.fault("429", retry_after=1, times=1, path="/v1/forecast")
    started = time.time()
    doc, _ = now_json(cli, "--lat", "13", "--lon", "13")
    assert double.calls("/v1/forecast") == 2
    assert time.time() - started >= 0.9  # Retry-After honoured


def test_server_errors_are_retried(cli, double):
    double.fault("500", times=2, path="/v1/forecast")
    now_json(cli, "--lat", "14", "--lon", "14")
    assert double.calls("/v1/forecast") == 3


def test_offline_uses_only_the_cache(cli, double):
    r = cli.run("now", "--lat", "15", "--lon", "15", "--offline")
    assert r.returncode != 0 and "no cached weather" in r.stderr and double.calls() == 0
    now_json(cli, "--lat", "15", "--lon", "15")
    before = double.calls()
    doc, _ = now_json(cli, "--lat", "15", "--lon", "15", "--offline")
    assert double.calls() == before and double.calls("/v1/forecast") == 1


def test_corrupted_cache_entry_is_fetched_again(cli, double, home):
    now_json(cli, "--lat", "16", "--lon", "16")
    entries = [p for p in Path(home["BROLLY_CACHE_DIR"]).glob("weather-*.json")]
    assert len(entries) == 1
    entries[0].write_bytes(entries[0].read_bytes()[:100])
    now_json(cli, "--lat", "16", "--lon", "16")
    assert double.calls("/v1/forecast") == 2


def test_place_search_takes_the_best_match_and_says_so(cli, double):
    doc, r = now_json(cli, "--place", "Springfield")
    assert doc["place"]["name"] == "Springfield" and doc["place"]["region"] == "Illinois"
    assert "matches 3 places" in r.stderr


def test_unknown_place_is_not_found(cli, double):
    r = cli.run("now", "--place", "Atlantis")
    assert r.returncode != 0 and "no place found" in r.stderr


def test_ip_lookup_is_done_once_and_remembered(cli, double):
    doc, r = now_json(cli)
    assert doc["place"]["name"] == "Berlin" and "assuming you are in Berlin" in r.stderr
    doc, r = now_json(cli)
    assert double.calls("/json") == 1 and "assuming" not in r.stderr


def test_search_lists_places(cli, double):
    r = cli.run("search", "Springfield", "--json")
    places = json.loads(r.stdout)
    assert [p["region"] for p in places] == ["Illinois", "Missouri", "Massachusetts"]
    assert set(places[0]) >= {"name", "region", "country", "countryCode", "latitude", "longitude"}
    text = cli.run("search", "Springfield").stdout
    assert "Missouri" in text and "37.2153" in text


def test_forecast_rows_are_local_days(cli, double):
    r = cli.run("forecast", "--place", "Kathmandu", "--days", "5", "--json")
    doc = json.loads(r.stdout)
    assert len(doc["days"]) == 5 and doc["place"]["timezone"] == "Asia/Kathmandu"
    assert doc["current"]["time"].endswith("+05:45")
    text = cli.run("forecast", "--place", "Kathmandu", "--hourly").stdout
    assert text.count("\n") > 10 and "°C" in text


def test_plain_output_has_no_colour_in_a_pipe(cli, double):
    r = cli.run("now", "--lat", "52.52", "--lon", "13.41", env={"NO_COLOR": ""})
    assert r.returncode == 0 and "\x1b[" not in r.stdout
    assert "Humidity" in r.stdout and "Wind" in r.stdout


def test_openweathermap_with_a_key(cli, double):
    doc, _ = now_json(cli, "--lat", "-33.87", "--lon", "151.21", env={"OPENWEATHERMAP_API_KEY": "k"})
    assert doc["source"]["provider"] == "openweathermap" and doc["place"]["name"] == "Sydney"
    assert doc["current"]["condition"]["description"] == "light rain, mist"
    r = cli.run("now", "--lat", "1", "--lon", "1", env={"OPENWEATHERMAP_API_KEY": "badkey"})
    assert r.returncode != 0 and "rejected the API key" in r.stderr
    r = cli.run("now", "--provider", "openweathermap", "--lat", "1", "--lon", "1")
    assert r.returncode != 0 and "OPENWEATHERMAP_API_KEY" in r.stderr


def test_bad_input_is_a_usage_error_on_one_line(cli, double):
    for args in (["--lat", "91", "--lon", "0"], ["--lat", "0", "--lon", "-181"], ["--units", "rankine"],
                 ["--place", ""], ["--place", "   "], ["--lat", "1"], ["--provider", "nope"], ["--timeout", "0"],
                 ["--lat", "nan", "--lon", "1"], ["forecast", "--days", "0"], ["bogus"]):
        r = cli.run(*args)
        assert r.returncode not in (0, 1), (args, r.returncode)
        assert len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
        assert r.stderr.startswith("brolly: error:"), r.stderr
    assert double.calls() == 0


# ---------- saved places, history, address, news (local profile) ----------

def test_places_commands(cli, double):
    assert cli.run("places", "add", "Paris", "--name", "Work").returncode == 0
    assert cli.run("places", "add", "Kathmandu").returncode == 0
    r = cli.run("places", "add", "--lat", "52.52", "--lon", "13.41", "--name", "Home")
    assert r.returncode == 0 and "Home" in r.stdout
    places = json.loads(cli.run("places", "list", "--json").stdout)
    assert [p.get("customName") or p["name"] for p in places] == ["Work", "Kathmandu", "Home"]
    assert places[2]["name"] == "Berlin"  # named by its address
    home = places[2]["id"]
    assert cli.run("places", "move", str(home), "1").returncode == 0
    assert cli.run("places", "rename", str(places[1]["id"]), "Trek").returncode == 0
    assert cli.run("places", "rename", str(places[0]["id"]), "--clear").returncode == 0
    text = cli.run("places").stdout
    assert text.index("Home") < text.index("Paris") < text.index("Trek")
    # The first saved place is the default place.
    doc = json.loads(cli.run("now", "--json").stdout)
    assert doc["place"]["latitude"] == 52.52 and double.calls("/json") == 0
    assert cli.run("places", "remove", str(home)).returncode == 0
    assert "Home" not in cli.run("places").stdout
    r = cli.run("places", "add", "--lat", "95", "--lon", "0")
    assert "see 'brolly places add --help'" in r.stderr  # the subcommand's own help
    for args in (["places", "remove", "999"], ["places", "move", "1", "0"], ["places", "add"],
                 ["places", "rename", "1"], ["places", "add", "--lat", "95", "--lon", "0"]):
        r = cli.run(*args)
        assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)


def test_history_commands_work_offline(cli, double):
    cli.run("now", "--lat", "52.52", "--lon", "13.41")
    cli.run("now", "--place", "Kathmandu")
    entries = json.loads(cli.run("history", "--json").stdout)["items"]  # the API's shape
    assert [e["placeName"] for e in entries] == ["Kathmandu", "Berlin"]  # coordinates named by their address
    assert entries[1]["address"]["street"] == "Hauptstraße" and entries[1]["latitude"] == 52.52
    # No network at all: the history is still readable.
    offline = {k: "http://127.0.0.1:9" for k in double.env()}
    r = cli.run("history", "show", str(entries[0]["id"]), env=offline)
    assert r.returncode == 0 and "Kathmandu" in r.stdout
    shown = json.loads(cli.run("history", "show", str(entries[0]["id"]), "--json", env=offline).stdout)
    assert shown["weather"]["source"]["stale"] is True and len(shown["weather"]["days"]) >= 5
    assert cli.run("history", "delete", str(entries[1]["id"])).returncode == 0
    assert len(json.loads(cli.run("history", "--json").stdout)["items"]) == 1
    assert "Deleted 1" in cli.run("history", "clear").stdout
    assert "No lookups" in cli.run("history").stdout


def test_address_command(cli, double):
    r = cli.run("address", "--lat", "52.52", "--lon", "13.41", "--json")
    a = json.loads(r.stdout)
    assert a["street"] == "Hauptstraße" and a["houseNumber"] == "12" and a["city"] == "Berlin" and a["countryCode"] == "DE"
    r = cli.run("address", "--lat", "-33.87", "--lon", "151.21", env={"GOOGLE_MAPS_API_KEY": "k"})
    assert "Example Street" in r.stdout and "Sydney" in r.stdout
    r = cli.run("address", "--lat", "0", "--lon", "-150")
    assert r.returncode != 0 and r.stderr.startswith("brolly: error:")


def test_news_command(cli, double):
    items = json.loads(cli.run("news", "--place", "Berlin", "--json").stdout)["items"]
    assert 1 <= len(items) <= 10 and items[0]["title"].startswith("Snow closes schools in Berlin")
    assert all("Yesterday" not in i["title"] for i in items)
    r = cli.run("news", "--lat", "52.52", "--lon", "13.41")
    assert r.returncode == 0 and "https://www.bbc.co.uk/news/articles/berlin-snow" in r.stdout
    items = json.loads(cli.run("news", "--place", "Berlin", "--json", env={"NEWSAPI_API_KEY": "k"}).stdout)["items"]
    assert [i["title"] for i in items] == ["Berlin council meets"]
    r = cli.run("news", "--place", "Berlin", env={"NEWSAPI_API_KEY": "badkey"})
    assert r.returncode != 0 and "NewsAPI" in r.stderr


def test_cli_and_server_share_the_database_but_not_the_profile(cli, double, server_factory, home):
    cli.run("places", "add", "Paris")
    server = server_factory()
    from test_device_data import Client
    browser = Client(server.url)
    assert browser.get("/api/v1/places")[2] == []
    browser.post("/api/v1/places", {"query": "Berlin"})
    assert [p["name"] for p in json.loads(cli.run("places", "list", "--json").stdout)] == ["Paris"]


def cells(line):
    """A line's width in terminal cells (East Asian wide characters take two, combining marks none)."""
    import unicodedata
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in line)


def test_a_60_column_terminal_gets_lines_of_at_most_60_cells_and_help_puts_the_environment_last(cli, double):
    """Issue 50, item 2: at 60 columns the first run printed a 137-cell error line, at 80 words were
    cut ("(c⏎annot connect"), and `brolly --help` put a 13-line ENVIRONMENT block before the options
    and subcommands, without BROLLY_RADAR_URL. Notes and errors are wrapped at spaces to the
    terminal's width (one line still when they go to a file or a pipe without COLUMNS)."""
    narrow = {"COLUMNS": "60"}
    r = cli.run("--help", env=narrow)
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert max(cells(line) for line in lines) <= 60, [line for line in lines if cells(line) > 60]
    text = r.stdout
    assert text.index("OPTIONS:") < text.index("SUBCOMMANDS:") < text.index("ENVIRONMENT:"), text
    assert "BROLLY_RADAR_URL" in text and "BROLLY_NWS_URL" in text
    # The weather itself at 60 columns.
    r = cli.run("now", "--lat", "52.52", "--lon", "13.41", env=narrow)
    assert r.returncode == 0 and max(cells(line) for line in r.stdout.splitlines()) <= 60, r.stdout
    # A first run with the IP location service down: the error wrapped at spaces, no word cut.
    down = dict(narrow, BROLLY_IP_LOCATION_URL="http://127.0.0.1:9")
    r = cli.run("now", env=down)
    assert r.returncode != 0
    err = r.stderr.splitlines()
    assert len(err) > 1 and max(cells(line) for line in err) <= 60, r.stderr
    one_line = cli.run("now", env={"BROLLY_IP_LOCATION_URL": "http://127.0.0.1:9"}).stderr
    assert len(one_line.splitlines()) == 1  # to a pipe without COLUMNS: one line, as scripts read it
    # The same words (the second run says the lookup failed "a moment ago").
    assert " ".join(line.strip() for line in err) == one_line.strip().replace(" a moment ago", ""), (err, one_line)
