"""Saved places, history, addresses and news over the API; each browser's data kept apart; writes
that survive SIGKILL."""

import http.cookiejar
import json
import signal
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import wait_until


class Client:
    """A browser-like client with its own cookie jar."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(self, method, path, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        h = {"Content-Type": "application/json"} if data is not None else {}
        h.update(headers or {})
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        try:
            with self.opener.open(req, timeout=30) as r:
                raw = r.read()
                return r.status, dict(r.headers), (json.loads(raw) if raw else None)
        except urllib.error.HTTPError as e:
            raw = e.read()
            return e.code, dict(e.headers), (json.loads(raw) if raw else None)

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body, **kw):
        return self.request("POST", path, body, **kw)

    def token(self):
        return next((c.value for c in self.jar if c.name == "brolly_device"), None)


def weather(client, lat, lon):
    status, _, doc = client.get(f"/api/v1/weather?lat={lat}&lon={lon}")
    assert status == 200
    return doc


def wait_history(client, count, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, _, body = client.get("/api/v1/history")
        if status == 200 and len(body["items"]) >= count:
            return body["items"]
        time.sleep(0.1)
    raise AssertionError(f"history never reached {count}: {body}")


def test_device_cookie_is_httponly_strict_and_stored_hashed(server, home):
    a = Client(server.url)
    status, headers, _ = a.get("/api/v1/places")
    assert status == 200
    cookie = headers["Set-Cookie"]
    assert cookie.startswith("brolly_device=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    token = a.token()
    assert token and len(token) == 43
    a.post("/api/v1/places", {"query": "Berlin"})
    db = sqlite3.connect(Path(home["BROLLY_DATA_DIR"]) / "brolly.sqlite")
    devices = [r[0] for r in db.execute("SELECT id FROM device")]
    assert token not in devices and len([d for d in devices if len(d) == 64]) == 1
    # The cookie is not sent again once the browser has it.
    status, headers, _ = a.get("/api/v1/places")
    assert "Set-Cookie" not in headers


def test_places_crud_and_order(server):
    a = Client(server.url)
    s, _, paris = a.post("/api/v1/places", {"query": "Paris", "customName": "Work"})
    assert s == 201 and paris["displayName"] == "Work" and paris["name"] == "Paris" and paris["position"] == 0
    s, _, home = a.post("/api/v1/places", {"latitude": 52.52, "longitude": 13.41})
    assert s == 201 and home["name"] == "Berlin"  # named by reverse geocoding
    s, _, ktm = a.post("/api/v1/places", {"latitude": 27.7, "longitude": 85.32, "name": "Kathmandu", "country": "Nepal"})
    assert s == 201
    s, _, home = a.request("PATCH", f"/api/v1/places/{home['id']}", {"customName": "Home"})
    assert s == 200 and home["displayName"] == "Home"
    s, _, moved = a.request("PATCH", f"/api/v1/places/{ktm['id']}", {"position": 0})
    assert s == 200 and moved["position"] == 0
    s, _, order = a.request("PUT", "/api/v1/places/order", {"ids": [home["id"], paris["id"], ktm["id"]]})
    assert s == 200 and [p["displayName"] for p in order] == ["Home", "Work", "Kathmandu"]
    s, _, cleared = a.request("PATCH", f"/api/v1/places/{paris['id']}", {"customName": None})
    assert cleared["displayName"] == "Paris"
    s, _, _ = a.request("DELETE", f"/api/v1/places/{paris['id']}")
    assert s == 204
    s, _, listed = a.get("/api/v1/places")
    assert [p["displayName"] for p in listed] == ["Home", "Kathmandu"] and [p["position"] for p in listed] == [0, 1]


@pytest.mark.parametrize("method,path,body", [
    ("POST", "/api/v1/places", {}),
    ("POST", "/api/v1/places", {"latitude": 91, "longitude": 0}),
    ("POST", "/api/v1/places", {"latitude": "x", "longitude": 0}),
    ("POST", "/api/v1/places", {"query": ""}),
    ("POST", "/api/v1/places", {"query": "Paris", "customName": "x" * 101}),
    ("POST", "/api/v1/places", "not an object"),
    ("PUT", "/api/v1/places/order", {"ids": [1, 2, 3]}),
    ("PUT", "/api/v1/places/order", {"order": []}),
    ("PATCH", "/api/v1/places/abc", {"customName": "x"}),
    ("PATCH", "/api/v1/places/1", {}),
    ("GET", "/api/v1/history?limit=0", None),
    ("GET", "/api/v1/history/-3", None),
    ("GET", "/api/v1/address?lat=1", None),
    ("GET", "/api/v1/news?lat=1&lon=999", None),
])
def test_bad_input_is_a_400_problem(server, method, path, body):
    a = Client(server.url)
    status, headers, problem = a.request(method, path, body)
    assert status == 400, (method, path, status, problem)
    assert headers["Content-Type"].startswith("application/problem+json")


def test_one_browser_cannot_reach_anothers_data(server):
    a, b = Client(server.url), Client(server.url)
    _, _, place = a.post("/api/v1/places", {"query": "Berlin", "customName": "A's home"})
    weather(a, 48.85, 2.35)
    item = wait_history(a, 1)[0]
    # B sees nothing of A's.
    assert b.get("/api/v1/places")[2] == []
    assert b.get("/api/v1/history")[2]["items"] == []
    # Guessing ids gets 404, and changes nothing.
    for method, path, body in (("PATCH", f"/api/v1/places/{place['id']}", {"customName": "pwned"}),
                               ("DELETE", f"/api/v1/places/{place['id']}", None),
                               ("GET", f"/api/v1/history/{item['id']}", None),
                               ("DELETE", f"/api/v1/history/{item['id']}", None)):
        assert b.request(method, path, body)[0] == 404
    assert b.request("PUT", "/api/v1/places/order", {"ids": [place["id"]]})[0] == 400
    b.request("DELETE", "/api/v1/history")
    assert a.get("/api/v1/places")[2][0]["displayName"] == "A's home"
    assert len(a.get("/api/v1/history")[2]["items"]) == 1
    # A forged cookie is just a new, empty device.
    forged = Client(server.url)
    forged.jar.set_cookie(http.cookiejar.Cookie(0, "brolly_device", "A" * 43, None, False, "127.0.0.1", False, False, "/", True,
                                                False, None, False, None, None, {}))
    assert forged.get("/api/v1/places")[2] == []


def test_clients_without_cookies_leave_no_history(server, home):
    for _ in range(5):
        status, _, _ = Client(server.url).get("/api/v1/weather?lat=52.52&lon=13.41")
        assert status == 200
    # Then a browser with its cookie looks up the same place: once its lookup is in the history, the
    # writes queued before it are too (a barrier, not a sleep: issue 53).
    browser = Client(server.url)
    browser.get("/api/v1/places")
    assert browser.get("/api/v1/weather?lat=52.52&lon=13.41")[0] == 200
    db = sqlite3.connect(Path(home["BROLLY_DATA_DIR"]) / "brolly.sqlite")
    wait_until(lambda: db.execute("SELECT COUNT(*) FROM history").fetchone()[0] >= 1, what="the browser's lookup written")
    assert db.execute("SELECT COUNT(*) FROM history").fetchone()[0] == 1  # the browser's only
    assert db.execute("SELECT COUNT(*) FROM device").fetchone()[0] == 2  # the CLI's local profile and the browser


def test_state_changes_from_another_origin_are_refused(server):
    a = Client(server.url)
    for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": "http://127.0.0.1:1"}):
        status, h, problem = a.post("/api/v1/places", {"query": "Berlin"}, headers=headers)
        assert status == 403 and problem["code"] == "cross-origin" and h["Content-Type"].startswith("application/problem+json")
    assert a.get("/api/v1/places")[2] == []
    status, _, _ = a.post("/api/v1/places", {"query": "Berlin"}, headers={"Origin": server.url, "Sec-Fetch-Site": "same-origin"})
    assert status == 201


def test_history_is_recorded_listed_opened_and_deleted(server):
    a = Client(server.url)
    a.get("/api/v1/places")  # the browser gets its device cookie
    weather(a, 52.52, 13.41)
    weather(a, 52.5201, 13.4101)  # the same place again within minutes: one entry
    weather(a, -33.87, 151.21)
    wait_history(a, 2)
    items = wait_until(lambda: (lambda items: items if len(items) == 2 and items[1].get("address") else None)(
        a.get("/api/v1/history")[2]["items"]), what="the Berlin entry's address")
    assert [i["placeName"] for i in items] == ["Sydney", "Berlin"]
    assert items[1]["address"]["street"] == "Hauptstraße" and items[1]["address"]["city"] == "Berlin"
    s, _, full = a.get(f"/api/v1/history/{items[1]['id']}")
    assert s == 200 and full["weather"]["place"]["name"] == "Berlin" and len(full["weather"]["days"]) >= 5
    assert a.request("DELETE", f"/api/v1/history/{items[0]['id']}")[0] == 204
    assert [i["placeName"] for i in a.get("/api/v1/history")[2]["items"]] == ["Berlin"]
    assert a.request("DELETE", "/api/v1/history")[0] == 204
    assert a.get("/api/v1/history")[2]["items"] == []


def test_address_and_news(server, double):
    a = Client(server.url)
    s, _, addr = a.get("/api/v1/address?lat=52.52&lon=13.41")
    assert s == 200 and addr["street"] == "Hauptstraße" and addr["houseNumber"] == "12" and addr["city"] == "Berlin"
    assert addr["country"] == "Germany" and addr["countryCode"] == "DE" and addr["display"]
    s, _, news = a.get("/api/v1/news?lat=52.52&lon=13.41")
    assert s == 200 and 1 <= len(news["items"]) <= 10
    titles = [i["title"] for i in news["items"]]
    assert titles[0].startswith("Snow closes schools in Berlin")  # mentions the city: first
    assert "Yesterday's news" not in titles                        # not today: never shown
    assert all(set(i) == {"title", "summary", "publishedAt", "url", "source"} for i in news["items"])
    assert double.calls("/news/world/europe/rss.xml") == 1          # the feed that covers Germany


def test_news_from_newsapi_with_a_key(server_factory, double):
    server = server_factory(extra_env={"NEWSAPI_API_KEY": "k"})
    a = Client(server.url)
    s, _, news = a.get("/api/v1/news?lat=52.52&lon=13.41")
    assert s == 200 and [i["title"] for i in news["items"]] == ["Berlin council meets"]
    assert "k" not in json.dumps(news)


def test_address_from_google_with_a_key(server_factory, double):
    server = server_factory(extra_env={"GOOGLE_MAPS_API_KEY": "gkey"})
    s, _, addr = Client(server.url).get("/api/v1/address?lat=-33.87&lon=151.21")
    assert s == 200 and addr["street"] == "Example Street" and addr["city"] == "Sydney"
    assert "gkey" not in server.logs()


def test_acknowledged_writes_survive_sigkill(server_factory, home):
    server = server_factory()
    a = Client(server.url)
    a.get("/api/v1/places")
    acknowledged = []
    stop = threading.Event()

    def writer():
        i = 0
        while not stop.is_set():
            try:
                s, _, p = a.post("/api/v1/places", {"latitude": (i % 170) - 85, "longitude": (i % 350) - 175, "name": f"P{i}"})
            except Exception:
                return
            if s == 201:
                acknowledged.append(p["id"])
            i += 1
            if i >= 99:  # the per-device limit is 100
                return

    threads = [threading.Thread(target=writer) for _ in range(1)]
    for t in threads:
        t.start()
    while len(acknowledged) < 30 and any(t.is_alive() for t in threads):
        time.sleep(0.01)
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(timeout=10)
    stop.set()
    for t in threads:
        t.join(timeout=10)
    assert len(acknowledged) >= 30
    restarted = server_factory()
    b = Client(restarted.url)
    b.jar = a.jar
    b.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(a.jar))
    s, _, places = b.get("/api/v1/places")
    assert s == 200
    ids = {p["id"] for p in places}
    assert set(acknowledged) <= ids, set(acknowledged) - ids
    db = sqlite3.connect(Path(home["BROLLY_DATA_DIR"]) / "brolly.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
