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


def test_coordinates_are_named_in_the_readers_language(server, double, cli):
    """Issue 50, item 1: the reverse lookup for coordinates was asked with accept-language=en for
    `?lang=ru`, for a browser saying only `Accept-Language: ja` and for `brolly now --lat --lon
    --lang ja`, so "New York" sat above a Russian address line. Each is asked in its language and
    cached per language; English keeps its own entry."""
    status, _, w = get(f"{server.url}/api/v1/weather?lat={PARIS[0]}&lon={PARIS[1]}&lang=ru")
    assert status == 200 and w["place"]["name"] == "Париж" and w["place"]["country"] == "Франция", w["place"]
    status, _, en = get(f"{server.url}/api/v1/weather?lat={PARIS[0]}&lon={PARIS[1]}")
    assert en["place"]["name"] == "Paris" and en["place"]["country"] == "France", en["place"]
    status, _, body = call(f"{server.url}/api/v1/weather?lat=52.52&lon=13.41", headers={"Accept-Language": "ru"})
    assert json.loads(body)["place"]["name"] == "Берлин", json.loads(body)["place"]
    status, _, r = get(f"{server.url}/api/v1/places/reverse?lat={PARIS[0]}&lon={PARIS[1]}&lang=ru")
    assert r["name"] == "Париж", r
    for language in ("ru", "ja"):
        assert any(f"accept-language={language}" in q for q in double.queries("/reverse")) or language == "ja"
    # Asked once per language: the Russian name again costs no call.
    calls = double.calls("/reverse")
    assert get(f"{server.url}/api/v1/weather?lat={PARIS[0]}&lon={PARIS[1]}&lang=ru&units=imperial")[2]["place"]["name"] == "Париж"
    assert double.calls("/reverse") == calls
    out = cli.run("now", "--lat", "52.52", "--lon", "13.41", "--lang", "ru")
    assert out.returncode == 0 and "Берлин" in out.stdout, out.stdout
    cli.run("now", "--lat", "35.68", "--lon", "139.69", "--lang", "ja")
    assert any("accept-language=ja" in q for q in double.queries("/reverse"))


def test_saved_places_are_shown_in_the_readers_language(server, double):
    """Issue 50, item 1: Paris saved in English stayed "Paris, Île-de-France" in Russian, and a
    custom name showed an English place beside it. The list names each place in the reader's
    language once that name is known (looked up in the background the first time); a custom name
    stays as written."""
    from test_device_data import Client

    c = Client(server.url)
    status, _, saved = c.post("/api/v1/places", {"latitude": PARIS[0], "longitude": PARIS[1]})
    assert status == 201 and saved["name"] == "Paris", saved
    status, _, home = c.post("/api/v1/places", {"latitude": 52.52, "longitude": 13.41, "customName": "Дом"})
    assert status == 201
    from conftest import wait_until

    def listed():
        return c.get("/api/v1/places?lang=ru")[2]

    wait_until(lambda: [p["name"] for p in listed()] == ["Париж", "Берлин"], timeout=15, what="the places named in Russian")
    places = listed()
    assert places[0]["displayName"] == "Париж" and places[0]["country"] == "Франция", places[0]
    assert places[1]["displayName"] == "Дом" and places[1]["name"] == "Берлин", places[1]
    # In English again, English.
    assert c.get("/api/v1/places")[2][0]["name"] == "Paris"
    # Saved from a Russian page: the answer (the page's "Saved: …") is named in Russian.
    status, _, london = Client(server.url).post("/api/v1/places?lang=ru", {"latitude": 51.5085, "longitude": -0.1257})
    assert status == 201 and london["name"] == "Лондон", london


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
