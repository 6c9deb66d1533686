"""The JSON API of `brolly serve`, probed over HTTP against the upstream double."""

import concurrent.futures
import json
import signal
import time
import urllib.error
import urllib.request

import pytest
from conftest import wait_until


def get(server, path, headers=None, timeout=30):
    req = urllib.request.Request(server.url + path, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            body = r.read()
            return r.status, dict(r.headers), body
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def get_json(server, path, **kw):
    status, headers, body = get(server, path, **kw)
    return status, headers, (json.loads(body) if body else None)


BAD_REQUESTS = [
    "/api/v1/weather",
    "/api/v1/weather?lat=52.5",
    "/api/v1/weather?lon=13.4",
    "/api/v1/weather?lat=abc&lon=13.4",
    "/api/v1/weather?lat=52.5&lon=",
    "/api/v1/weather?lat=91&lon=0",
    "/api/v1/weather?lat=-90.0001&lon=0",
    "/api/v1/weather?lat=0&lon=180.5",
    "/api/v1/weather?lat=NaN&lon=0",
    "/api/v1/weather?lat=inf&lon=0",
    "/api/v1/weather?lat=1e400&lon=0",
    "/api/v1/weather?lat=52.5&lon=13.4&units=kelvin",
    "/api/v1/weather?lat=52.5&lon=13.4&units=",
    "/api/v1/weather?lat=52.5&lat=53&lon=13.4",
    "/api/v1/weather?lat=52.5&lon=13.4&units=metric&units=imperial",
    "/api/v1/weather?place=",
    "/api/v1/weather?place=%20%20",
    "/api/v1/weather?place=" + "x" * 201,
    "/api/v1/weather?place=Berlin&lat=1&lon=2",
    "/api/v1/weather?lat=52.5&lon=13.4&hours=0",
    "/api/v1/weather?lat=52.5&lon=13.4&hours=385",
    "/api/v1/weather?lat=52.5&lon=13.4&hours=2.5",
    "/api/v1/weather?lat=52.5&lon=13.4&hours=48&hours=96",
    "/api/v1/places/search",
    "/api/v1/places/search?q=",
    "/api/v1/places/search?q=" + "a" * 201,
    "/api/v1/places/search?q=a&q=b",
    "/api/v1/places/search?q=%00abc",
    "/api/v1/places/reverse?lat=1",
    "/api/v1/places/reverse?lat=x&lon=1",
    "/api/v1/places/reverse?lat=100&lon=1",
]


@pytest.mark.parametrize("path", BAD_REQUESTS)
def test_bad_input_is_a_400_problem(shared_server, shared_double, path):
    status, headers, body = get_json(shared_server, path)
    assert status == 400, (path, status, body)
    assert headers["Content-Type"].startswith("application/problem+json")
    assert body["status"] == 400 and body["title"] and body["detail"] and body["type"]
    assert shared_double.calls() == 0  # none of the module's shared cases reaches an upstream


def test_more_hours_and_each_days_sun_from_the_same_answer(server, double):
    status, _, doc = get_json(server, "/api/v1/weather?lat=52.52&lon=13.41")
    assert status == 200 and len(doc["hours"]) == 48
    assert all(d["sunrise"] < d["sunset"] and d["sunrise"].startswith(d["date"]) for d in doc["days"])
    calls = double.calls()
    status, _, more = get_json(server, "/api/v1/weather?lat=52.52&lon=13.41&hours=384")
    assert status == 200 and len(more["hours"]) > 48 and more["hours"][:48] == doc["hours"]
    assert double.calls() == calls  # the same cached forecast


def test_unknown_route_is_a_404_problem(shared_server):
    status, headers, body = get_json(shared_server, "/api/v1/nope")
    assert status == 404 and headers["Content-Type"].startswith("application/problem+json")


def test_weather_by_coordinates_and_by_place(server, double):
    status, headers, doc = get_json(server, "/api/v1/weather?lat=52.52&lon=13.41")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert doc["place"]["name"] == "Berlin"  # named by reverse geocoding
    assert doc["current"]["temperature"] == round(20 - 52.52 / 3, 1)
    # Yesterday at this hour, from past_days=1 in the same call.
    assert isinstance(doc["current"]["temperatureYesterday"], (int, float))
    # The sun's and the moon's day, computed locally: dawn < sunrise < solar noon < sunset < dusk.
    sky = doc["sky"]
    assert sky["dawn"] < sky["sunrise"] < sky["solarNoon"] < sky["sunset"] < sky["dusk"]
    assert sky["solarNoon"][11:13] in ("11", "12", "13") and sky["solarNoon"][-6:] in ("+01:00", "+02:00")
    assert sky["moon"]["phase"] in ("new moon", "waxing crescent", "first quarter", "waxing gibbous", "full moon",
                                    "waning gibbous", "last quarter", "waning crescent")
    assert 0 <= sky["moon"]["illumination"] <= 1 and 0 <= sky["moon"]["age"] < 29.6
    status, _, doc = get_json(server, "/api/v1/weather?place=Kathmandu&units=imperial")
    assert status == 200 and doc["place"]["timezone"] == "Asia/Kathmandu" and doc["units"]["temperature"] == "°F"
    status, _, problem = get_json(server, "/api/v1/weather?place=Atlantis")
    assert status == 404 and problem["code"] == "not-found"


def test_units_and_nearby_points_share_one_upstream_call(server, double):
    for units in ("metric", "imperial", "standard"):
        assert get_json(server, f"/api/v1/weather?lat=40.7143&lon=-74.006&units={units}")[0] == 200
    assert get_json(server, "/api/v1/weather?lat=40.7141&lon=-74.0061")[0] == 200
    assert double.calls("/v1/forecast") == 1


def test_etag_and_if_none_match(server, double):
    status, headers, body = get(server, "/api/v1/weather?lat=48.85&lon=2.35")
    etag = headers["ETag"]
    assert status == 200 and etag and "Cache-Control" in headers
    status, headers2, body2 = get(server, "/api/v1/weather?lat=48.85&lon=2.35", headers={"If-None-Match": etag})
    assert status == 304 and body2 == b"" and headers2["ETag"] == etag
    status, _, _ = get(server, "/api/v1/weather?lat=48.85&lon=2.35", headers={"If-None-Match": '"other"'})
    assert status == 200
    assert double.calls("/v1/forecast") == 1


def test_concurrent_requests_make_one_upstream_call(server, double):
    double.fault("delay", delay=1, path="/v1/forecast", times=1)
    with concurrent.futures.ThreadPoolExecutor(max_workers=12) as pool:
        results = list(pool.map(lambda _: get(server, "/api/v1/weather?lat=-23.55&lon=-46.63")[0], range(12)))
    assert results == [200] * 12
    assert double.calls("/v1/forecast") == 1


def test_provider_failures_with_nothing_cached(server_factory, double):
    # Each failure in turn (the circuit breaker, which would open after five, is tested elsewhere).
    server = server_factory(args=("--timeout", "2"), extra_env={"BROLLY_BREAKER_FAILURES": "1000"})
    double.fault("500")
    status, headers, body = get_json(server, "/api/v1/weather?lat=1&lon=1")
    assert status == 502 and headers["Content-Type"].startswith("application/problem+json") and body["code"] == "provider"
    double.reset()
    double.fault("delay", delay=6)
    status, _, body = get_json(server, "/api/v1/weather?lat=2&lon=2")
    assert status == 504 and body["code"] == "timeout"
    double.reset()
    double.fault("drop")
    status, _, body = get_json(server, "/api/v1/weather?lat=3&lon=3")
    assert status == 502 and body["code"] == "offline"
    double.reset()
    double.fault("malformed")
    status, _, body = get_json(server, "/api/v1/weather?lat=4&lon=4")
    assert status == 502 and body["code"] == "unreadable"
    double.reset()
    double.fault("429", retry_after=120)
    status, headers, body = get_json(server, "/api/v1/weather?lat=5&lon=5")
    assert status == 503 and body["code"] == "rate-limited" and headers.get("Retry-After")


def test_provider_failure_with_cache_serves_it_stale(server_factory, double):
    server = server_factory(args=("--timeout", "2"), extra_env={"BROLLY_FRESH_SECONDS": "1"})
    assert get_json(server, "/api/v1/weather?lat=51.5&lon=-0.12")[0] == 200
    double.fault("500")  # the next call upstream fails; none is made while the answer is fresh
    status, headers, doc = wait_until(
        lambda: (lambda a: a if a[0] == 200 and a[2]["source"]["stale"] else None)(get_json(server, "/api/v1/weather?lat=51.5&lon=-0.12")),
        what="the answer past its fresh second, served stale")
    assert status == 200 and doc["source"]["stale"] is True
    assert "no-cache" in headers["Cache-Control"]
    wait_until(lambda: double.calls("/v1/forecast") >= 2, what="the background refresh")  # it tried


def test_stale_answer_is_refreshed_in_the_background(server_factory, double):
    server = server_factory(extra_env={"BROLLY_FRESH_SECONDS": "1"})
    first = get_json(server, "/api/v1/weather?lat=40.71&lon=-74.0")[2]
    stale = wait_until(lambda: (lambda d: d if d["source"]["stale"] else None)(
        get_json(server, "/api/v1/weather?lat=40.71&lon=-74.0")[2]), what="the answer past its fresh second")
    assert stale["source"]["stale"] is True and stale["source"]["fetchedAt"] == first["source"]["fetchedAt"]
    fresh = wait_until(lambda: (lambda d: d if not d["source"]["stale"] else None)(
        get_json(server, "/api/v1/weather?lat=40.71&lon=-74.0")[2]), what="the refreshed answer")
    assert fresh["source"]["fetchedAt"] != first["source"]["fetchedAt"]


def test_search_and_reverse(server, double):
    status, _, places = get_json(server, "/api/v1/places/search?q=Springfield")
    assert status == 200 and [p["region"] for p in places] == ["Illinois", "Missouri", "Massachusetts"]
    assert set(places[0]) >= {"name", "region", "country", "countryCode", "latitude", "longitude"}
    status, _, places = get_json(server, "/api/v1/places/search?q=Atlantis")
    assert status == 200 and places == []
    status, _, place = get_json(server, "/api/v1/places/reverse?lat=-33.87&lon=151.21")
    assert status == 200 and place["name"] == "Sydney" and place["country"] == "Australia"


def test_openapi_document_matches_the_server(server, double):
    from jsonschema import Draft202012Validator
    from test_device_data import Client
    status, _, spec = get_json(server, "/api/openapi.json")
    assert status == 200 and spec["openapi"].startswith("3.1")
    from openapi_spec_validator import validate
    validate(spec)

    def validator(ref):
        schema = dict(spec)
        schema["$ref"] = ref
        return Draft202012Validator(schema)

    c = Client(server.url)
    _, _, place = c.post("/api/v1/places", {"query": "Berlin"})
    get(server, "/api/v1/weather?lat=52.52&lon=13.41")
    c.get("/api/v1/weather?lat=48.85&lon=2.35")
    entry = wait_until(lambda: c.get("/api/v1/history")[2]["items"], what="the lookup in the history")[0]
    # (method, documented path, real path, body, expected status, schema of a 2xx body)
    calls = [
        ("get", "/api/v1/weather", "/api/v1/weather?lat=52.52&lon=13.41&units=imperial", None, 200, "#/components/schemas/Weather"),
        ("get", "/api/v1/weather/now", "/api/v1/weather/now?lat=52.52&lon=13.41", None, 200, "#/components/schemas/Now"),
        ("get", "/api/v1/places/search", "/api/v1/places/search?q=Spring", None, 200, None),
        ("get", "/api/v1/places/reverse", "/api/v1/places/reverse?lat=52.52&lon=13.41", None, 200, "#/components/schemas/Place"),
        ("get", "/api/v1/places", "/api/v1/places", None, 200, None),
        ("post", "/api/v1/places", "/api/v1/places", {"query": "Paris"}, 201, "#/components/schemas/SavedPlace"),
        ("put", "/api/v1/places/order", "/api/v1/places/order", None, 200, None),
        ("patch", "/api/v1/places/{id}", f"/api/v1/places/{place['id']}", {"customName": "Home"}, 200, "#/components/schemas/SavedPlace"),
        ("get", "/api/v1/history", "/api/v1/history?limit=5", None, 200, None),
        ("get", "/api/v1/history/{id}", f"/api/v1/history/{entry['id']}", None, 200, "#/components/schemas/HistoryEntry"),
        ("delete", "/api/v1/history/{id}", f"/api/v1/history/{entry['id']}", None, 204, None),
        ("delete", "/api/v1/history", "/api/v1/history", None, 204, None),
        ("get", "/api/v1/address", "/api/v1/address?lat=52.52&lon=13.41", None, 200, "#/components/schemas/Address"),
        ("get", "/api/v1/news", "/api/v1/news?lat=52.52&lon=13.41", None, 200, "#/components/schemas/News"),
        ("delete", "/api/v1/places/{id}", f"/api/v1/places/{place['id']}", None, 204, None),
        ("get", "/api/v1/alerts", "/api/v1/alerts?lat=52.52&lon=13.41", None, 200, "#/components/schemas/Alerts"),
        ("get", "/api/v1/accuracy", "/api/v1/accuracy?lat=52.52&lon=13.41&units=imperial", None, 200, "#/components/schemas/Accuracy"),
        ("get", "/api/v1/radar", "/api/v1/radar", None, 200, None),
        # This server has no OpenWeatherMap key: no precipitation tiles.
        ("get", "/api/v1/radar/precipitation/{z}/{x}/{y}", "/api/v1/radar/precipitation/3/4/2.png", None, 404, None),
        ("get", "/api/v1/push/key", "/api/v1/push/key", None, 200, None),
        ("get", "/api/v1/push/subscriptions", "/api/v1/push/subscriptions", None, 200, None),
        # This server has no BROLLY_PUSH_ALLOW_INSECURE: a loopback endpoint is refused.
        ("post", "/api/v1/push/subscriptions", "/api/v1/push/subscriptions",
         {"endpoint": "https://127.0.0.1/push/1", "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}}, 400, None),
        ("patch", "/api/v1/push/subscriptions/{id}", "/api/v1/push/subscriptions/no-such-id", {"rain": {"leadMinutes": 30}}, 404, None),
        ("delete", "/api/v1/push/subscriptions/{id}", "/api/v1/push/subscriptions/no-such-id", None, 404, None),
        ("get", "/healthz", "/healthz", None, 200, None),
        ("get", "/forecast/{key}/{location}", "/forecast/anykey/52.52,13.41", None, 200, None),
        ("get", "/v1/forecast", "/v1/forecast?latitude=52.52&longitude=13.41&hourly=temperature_2m", None, 200, None),
        ("post", "/v1/forecast", "/v1/forecast?latitude=52.52&longitude=13.41&hourly=temperature_2m", None, 200, None),
        ("get", "/data/2.5/weather", "/data/2.5/weather?lat=52.52&lon=13.41", None, 200, None),
        ("get", "/data/2.5/forecast", "/data/2.5/forecast?lat=52.52&lon=13.41&cnt=3", None, 200, None),
        ("get", "/data/3.0/onecall", "/data/3.0/onecall?lat=52.52&lon=13.41&exclude=minutely", None, 200, None),
    ]
    documented = {(m, p) for p, ops in spec["paths"].items() for m in ops if m in ("get", "post", "put", "patch", "delete")}
    assert documented == {(m, p) for m, p, *_ in calls}
    for method, path, real, body, expected, ref in calls:
        if path == "/api/v1/places/order":
            body = {"ids": [p["id"] for p in c.get("/api/v1/places")[2]]}
        status, headers, data = c.request(method.upper(), real, body) if path != "/healthz" else (get(server, real)[0], {}, None)
        op = spec["paths"][path][method]
        assert status == expected and str(status) in op["responses"], (method, path, status, data)
        if ref:
            validator(ref).validate(data)
        # Every documented required query parameter really is required.
        if any(p.get("required") and p.get("in") == "query" for p in op.get("parameters", [])):
            status, _, problem = c.request(method.upper(), path)
            assert status == 400 and ("400" in op["responses"] or "default" in op["responses"]), (method, path)
            if path.startswith("/api/"):  # the compatible APIs answer in their own error shapes
                validator("#/components/schemas/Problem").validate(problem)
    places = json.loads(get(server, "/api/v1/places/search?q=Spring")[2])
    for p in places:
        validator("#/components/schemas/Place").validate(p)


def test_api_keys_stay_on_the_server(server_factory, double):
    secret = "SECRET-OWM-KEY-123"
    server = server_factory(extra_env={"OPENWEATHERMAP_API_KEY": secret})
    for path in ("/api/v1/weather?lat=52.52&lon=13.41", "/api/v1/places/search?q=Berlin", "/",
                 "/js/api.js", "/api/openapi.json", "/api/v1/weather?lat=91&lon=0"):
        status, headers, body = get(server, path)
        assert secret.encode() not in body and secret not in json.dumps(headers)
    double.fault("500", times=1)
    get(server, "/api/v1/weather?lat=10&lon=10")
    logs = server.logs()
    assert "appid=REDACTED" in logs and secret not in logs


def test_graceful_shutdown_on_sigterm(server_factory):
    server = server_factory()
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(timeout=10) == 0


def test_static_app_and_leaflet_are_served(server):
    for path, kind in (("/", "text/html"), ("/js/main.js", "javascript"), ("/js/api.js", "javascript"), ("/sw.js", "javascript"),
                       ("/manifest.webmanifest", "manifest+json"), ("/style.css", "text/css")):
        status, headers, _ = get(server, path)
        assert status == 200 and kind in headers["Content-Type"], path
    status, _, _ = get(server, "/vendor/leaflet/leaflet.js")
    assert status == 200
