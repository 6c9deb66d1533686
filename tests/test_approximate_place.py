"""Issue 39, item 2: a first visit whose browser location is denied, slow or unavailable shows the
weather where the request's address is — the IP lookup the CLI uses, kept a day per address,
within its budget — marked "approximate" and replaced when the precise location arrives."""

import json

from conftest import SYDNEY, call


def near_ip(server, address=None, extra=""):
    headers = {"X-Forwarded-For": address} if address else {}
    status, headers, body = call(f"{server.url}/api/v1/weather?near=ip{extra}", headers=headers)
    return status, headers, json.loads(body or b"null")


def test_the_api_answers_the_weather_where_the_request_comes_from_marked_approximate(server_factory, double):
    server = server_factory(extra_env={"BROLLY_TRUSTED_PROXIES": "127.0.0.1"})
    # From this machine's own network (a loopback or private address): where this machine is.
    status, headers, doc = near_ip(server)
    assert status == 200 and doc["place"]["name"] == "Berlin" and doc["place"]["approximate"] is True
    assert headers["Cache-Control"].startswith("private"), headers["Cache-Control"]
    assert double.queries("/json") == [""] or double.calls("/json") == 1
    # From a public address (through a trusted proxy): where that address is, asked by address.
    status, _, doc = near_ip(server, "198.51.100.7")
    assert status == 200 and doc["place"]["name"] == "London" and doc["place"]["approximate"] is True
    assert double.calls("/json/198.51.100.7") == 1
    # The same address again: from the cache, no lookup; another one, its own place.
    assert near_ip(server, "198.51.100.7")[2]["place"]["name"] == "London" and double.calls("/json/198.51.100.7") == 1
    assert near_ip(server, "203.0.113.50")[2]["place"]["name"] == "Paris"
    # Issue 50: in the reader's language too (the IP service names in English; the namer is asked
    # in the request's language).
    status, _, doc = near_ip(server, "198.51.100.7", extra="&lang=ru")
    assert status == 200 and doc["place"]["name"] == "Лондон" and doc["place"]["approximate"] is True, doc["place"]
    # The ordinary weather never says approximate.
    status, _, plain = call(f"{server.url}/api/v1/weather?lat=51.51&lon=-0.13")
    assert "approximate" not in json.loads(plain)["place"]
    # Bad input: a clear problem.
    for bad in ("&lat=1&lon=2", "&place=Paris"):
        status, headers, problem = near_ip(server, extra=bad)
        assert status == 400 and headers["Content-Type"].startswith("application/problem+json"), problem
    status, _, problem = call(f"{server.url}/api/v1/weather?near=moon")
    assert status == 400 and "near" in json.loads(problem)["detail"]


def test_a_failing_ip_lookup_is_a_problem_and_is_not_asked_again_at_once(server_factory, double):
    server = server_factory(extra_env={"BROLLY_TRUSTED_PROXIES": "127.0.0.1"})
    double.fault("500", path="/json", times=-1)
    status, headers, problem = near_ip(server, "192.0.2.44")
    assert status in (502, 503, 504) and headers["Content-Type"].startswith("application/problem+json"), (status, problem)
    calls = double.calls("/json/192.0.2.44")
    assert near_ip(server, "192.0.2.44")[0] in (502, 503, 504) and double.calls("/json/192.0.2.44") == calls
    # The weather by coordinates is not touched.
    status, _, _ = call(f"{server.url}/api/v1/weather?lat=52.52&lon=13.41")
    assert status == 200


def test_a_first_visit_with_the_location_denied_shows_the_approximate_place_then_the_precise_one(server, browser_factory, double):
    b = browser_factory(server.url)
    b.deny_location()
    b.open()
    b.wait_state("ready")
    assert b.text("place-name") == "Berlin"
    assert b.js("return !document.getElementById('place-approximate').hidden")
    assert b.text("place-approximate") == "Approximate, from your network's address"
    b.wait(lambda: b.js("return document.getElementById('notice').dataset.kind") == "permission-denied", what="why")
    assert b.exists("search")
    b.screenshot("39-approximate-place")
    # The browser's location allowed and asked for: the precise place replaces it.
    b.allow_location(*SYDNEY)
    b.js("document.getElementById('locate').click()")
    b.wait(lambda: b.text("place-name") == "Sydney", what="the precise place")
    assert b.js("return document.getElementById('place-approximate').hidden")


def test_a_first_visit_with_the_location_unavailable_shows_the_approximate_place_in_the_readers_language(server, browser_factory, double):
    b = browser_factory(server.url)
    b.cdp("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "granted", "origin": server.url})
    b.cdp("Emulation.setGeolocationOverride", {})  # no position: unavailable
    b.open("/?lang=de")
    b.wait_state("ready")
    assert b.text("place-approximate") == "Ungefähr, nach der Adresse Ihres Netzes"
    b.wait(lambda: b.js("return document.getElementById('notice').dataset.kind") == "location-unavailable", what="why")
