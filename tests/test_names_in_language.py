"""Issue 39, item 3: place names, search suggestions and street addresses in the reader's language
(Open-Meteo's geocoding `language=`, Nominatim's `accept-language`), cached per language."""

import json
from urllib.parse import quote

from conftest import call, get

PARIS = (48.85341, 2.3488)


def test_search_suggestions_come_in_the_readers_language_and_are_cached_per_language(server, double):
    status, _, ru = get(f"{server.url}/api/v1/places/search?q=Par&lang=ru")
    assert status == 200 and ru[0]["name"] == "Париж" and ru[0]["country"] == "Франция", ru
    status, _, en = get(f"{server.url}/api/v1/places/search?q=Par")
    assert en[0]["name"] == "Paris" and en[0]["country"] == "France"
    asked = [q for q in double.queries("/v1/search")]
    assert any("language=ru" in q for q in asked) and any("language=en" in q for q in asked)
    # Each language is kept: asking again costs nothing.
    calls = double.calls("/v1/search")
    assert get(f"{server.url}/api/v1/places/search?q=Par&lang=ru")[2][0]["name"] == "Париж"
    assert double.calls("/v1/search") == calls
    # The browser's own language (Accept-Language) is the reader's too.
    status, _, body = call(f"{server.url}/api/v1/places/search?q=Lon", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert json.loads(body)[0]["country"] == "Vereinigtes Königreich"


def test_the_weather_for_a_name_and_the_address_are_named_in_the_readers_language(server, double):
    status, _, w = get(f"{server.url}/api/v1/weather?place={quote('Париж')}&lang=ru")
    assert status == 200 and w["place"]["name"] == "Париж" and w["place"]["country"] == "Франция", w["place"]
    status, _, a = get(f"{server.url}/api/v1/address?lat={PARIS[0]}&lon={PARIS[1]}&lang=ru")
    assert status == 200 and a["city"] == "Париж" and a["country"] == "Франция", a
    assert any("accept-language=ru" in q for q in double.queries("/reverse"))
    status, _, a = get(f"{server.url}/api/v1/address?lat={PARIS[0]}&lon={PARIS[1]}")
    assert a["city"] == "Paris"


def test_the_cli_searches_and_names_in_its_language(cli, double):
    r = cli.run("search", "Paris", "--lang", "ru")
    assert r.returncode == 0 and "Париж" in r.stdout and "Франция" in r.stdout, r.stdout
    r = cli.run("now", "--place", "Paris", "--lang", "ru")
    assert r.returncode == 0 and "Париж" in r.stdout, r.stdout
    r = cli.run("search", "Paris", "--lang", "xx")
    assert r.returncode != 0 and "unknown language" in r.stderr
    r = cli.run("now", "--help")
    # --lang's help lists every language.
    assert "zh" in r.stdout and "ja" in r.stdout and "en or ru" not in r.stdout, r.stdout


def test_news_comes_from_a_feed_in_the_readers_language_where_one_exists_else_is_marked_english(server, double):
    status, _, ru = get(f"{server.url}/api/v1/news?lat={PARIS[0]}&lon={PARIS[1]}&lang=ru")
    assert status == 200 and ru["feed"]["language"] == "ru" and ru["items"][0]["title"].startswith("Снег"), ru
    assert double.calls("/russian/rss.xml") == 1
    # German: no BBC feed in German; Europe's, in English, and the document says so.
    status, _, de = get(f"{server.url}/api/v1/news?lat={PARIS[0]}&lon={PARIS[1]}&lang=de")
    assert de["feed"]["language"] == "en" and de["feed"]["code"] == "europe"


def test_the_help_fits_80_columns_without_breaking_words(cli):
    r = cli.run("--help", env={"COLUMNS": "80"})
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert all(len(l) <= 80 for l in lines), [l for l in lines if len(l) > 80]
    words = r.stdout.split()
    assert "files" in " ".join(words) and "colour" in words and "fi" not in words and "colou" not in words
