"""Issue 27 end to end: rain alerts before the rain starts and a morning summary, pushed for saved
places by the real binary to the push-service double, which checks VAPID and decrypts every
message with independent code. The upstream double's 15-minute slots are scripted per place
(POST /__nowcast) so that the rain's start moves between the watcher's rounds."""

import re
import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from cluster_support import Browser
from conftest import call, wait_until, deliver_push
from push_double import PushService
from test_cluster import cluster_factory, postgres  # noqa: F401 - fixtures
from test_alerts import alert_env, save
from test_device_data import Client

SYDNEY = (-33.8679, 151.2073)  # far from the server's time zone
TOKYO = (35.6895, 139.6917)
AUCKLAND = (-36.8485, 174.7633)
NEW_YORK = (40.7143, -74.006)


@pytest.fixture
def push_service():
    p = PushService()
    yield p
    p.stop()


def watch_env(double, **more):
    return alert_env(double, **{"BROLLY_WATCH_SECONDS": "1", **more})


def watch_rounds(server):
    return server.logs().count("watcher: round done")


def wait_watch_rounds(server, more):
    target = watch_rounds(server) + more
    wait_until(lambda: watch_rounds(server) >= target, timeout=30, what=f"{more} more watcher rounds")


def quarter():
    return int(time.time() // 900 * 900)


def rain_pushes(push_service, name):
    return [m["payload"] for m in push_service.delivered(name) if m["payload"].get("type") == "rain"]


def subscribe(client, push_service, name, **settings):
    status, _, created = client.post("/api/v1/push/subscriptions", dict(push_service.subscription(name), **settings))
    assert status == 201, created
    return created


def test_rain_is_pushed_once_an_update_when_it_moves_and_a_cancel_when_it_dries_up(server_factory, double, push_service):
    start = quarter() + 1800  # 15 to 30 minutes from now
    double.nowcast(*SYDNEY, start=start, end=start + 2700)
    s = server_factory(args=("--timeout", "3"), extra_env=watch_env(double))
    c = Client(s.url)
    home = save(c, *SYDNEY)
    sub = subscribe(c, push_service, "phone", rain={"leadMinutes": 60, "quietHours": None})
    assert sub["rain"] == {"enabled": True, "leadMinutes": 60, "minimum": "light", "quietHours": None}
    assert sub["morning"] == {"enabled": False, "at": "07:00"}
    assert wait_until(lambda: rain_pushes(push_service, "phone"), timeout=20, what="a rain push")
    first = rain_pushes(push_service, "phone")[0]
    assert first["status"] == "starting" and first["kind"] == "rain" and first["url"] == f"/?place={home['id']}"
    assert re.fullmatch(r"Rain starting in about (15|20|25|30) min at .+ — moderate, for about 45 min", first["body"]), first["body"]
    local = datetime.fromtimestamp(start, ZoneInfo("Australia/Sydney"))
    assert first["start"] == local.isoformat(), first["start"]  # the place's time, with its offset
    assert first["precipitation"] == 1.8 and first["precipitationUnit"] == "mm"
    assert first["place"]["id"] == home["id"]

    # Moved by 15 minutes: the same event, no new push.
    double.nowcast(*SYDNEY, start=start + 900, end=start + 3600)
    wait_watch_rounds(s, 3)
    assert len(rain_pushes(push_service, "phone")) == 1
    # Moved by 30 minutes from what was pushed: an update.
    double.nowcast(*SYDNEY, start=start + 1800, end=start + 4500)
    assert wait_until(lambda: len(rain_pushes(push_service, "phone")) == 2, timeout=20, what="the moved push")
    moved = rain_pushes(push_service, "phone")[1]
    assert moved["status"] == "moved" and moved["body"].startswith("Rain now expected in about")
    # Dried up before it began: "no longer expected", once.
    double.nowcast(*SYDNEY, start=None)
    assert wait_until(lambda: len(rain_pushes(push_service, "phone")) == 3, timeout=20, what="the cancel")
    gone = rain_pushes(push_service, "phone")[2]
    assert gone["status"] == "cancelled" and gone["body"] == f"Rain no longer expected at {home['displayName']}"
    wait_watch_rounds(s, 3)
    assert len(rain_pushes(push_service, "phone")) == 3
    assert all(not m["problems"] for m in push_service.messages), [m["problems"] for m in push_service.messages]
    topics = {m["headers"]["topic"] for m in push_service.delivered("phone") if m["payload"]["type"] == "rain"}
    assert topics == {f"rain-{home['id']}"}  # a later push replaces an undelivered earlier one
    text = call(s.url + "/metrics")[2].decode()
    assert 'brolly_watch_pushes_total{type="rain"} 3' in text and 'brolly_watch_places{state="watched"} 1' in text


def test_quiet_hours_are_the_places_local_time_not_the_servers(server_factory, double, push_service):
    start = quarter() + 1800
    double.nowcast(*SYDNEY, start=start, end=start + 2700)
    s = server_factory(args=("--timeout", "3"), extra_env=watch_env(double, TZ="UTC"))
    c = Client(s.url)
    save(c, *SYDNEY)
    there = datetime.now(ZoneInfo("Australia/Sydney"))
    quiet_there = {"from": (there - timedelta(hours=1)).strftime("%H:%M"), "to": (there + timedelta(hours=1)).strftime("%H:%M")}
    sub = subscribe(c, push_service, "sleeper", rain={"leadMinutes": 60, "quietHours": quiet_there})
    wait_watch_rounds(s, 4)
    assert rain_pushes(push_service, "sleeper") == []  # night (or quiet) in Sydney: held
    # Quiet hours around the server's own time (UTC, 11 hours from Sydney's): the push comes.
    here = datetime.now(timezone.utc)
    quiet_here = {"from": (here - timedelta(hours=1)).strftime("%H:%M"), "to": (here + timedelta(hours=1)).strftime("%H:%M")}
    status, _, changed = c.request("PATCH", f"/api/v1/push/subscriptions/{sub['id']}", {"rain": {"quietHours": quiet_here}})
    assert status == 200 and changed["rain"]["quietHours"] == quiet_here and changed["rain"]["leadMinutes"] == 60
    assert wait_until(lambda: rain_pushes(push_service, "sleeper"), timeout=20, what="the push after the quiet hours moved")


def test_the_morning_summary_comes_once_at_the_places_time_in_the_readers_language(server_factory, double, push_service):
    s = server_factory(args=("--timeout", "3"), extra_env=watch_env(double))
    c = Client(s.url)
    home = save(c, *SYDNEY)
    at = (datetime.now(ZoneInfo("Australia/Sydney")) - timedelta(minutes=1)).strftime("%H:%M")
    subscribe(c, push_service, "en", rain={"enabled": False}, morning={"enabled": True, "at": at})
    subscribe(c, push_service, "ru", rain={"enabled": False}, morning={"enabled": True, "at": at}, language="ru", units="imperial")
    morning = lambda name: [m for m in push_service.delivered(name) if m["payload"]["type"] == "morning"]
    assert wait_until(lambda: morning("en") and morning("ru"), timeout=20, what="morning pushes")
    wait_watch_rounds(s, 3)
    en, ru = morning("en"), morning("ru")
    assert len(en) == 1 and len(ru) == 1  # once a day
    name = home["displayName"]
    assert en[0]["payload"]["type"] == "morning" and en[0]["payload"]["title"] == f"{name} today"
    assert re.fullmatch(rf"{re.escape(name)} today: -?\d+° / -?\d+°, (dry|(rain|snow) from \d\d:\d\d( \(\d+%\))?), wind up to \d+ km/h"
                        r", warning: Severe Thunderstorm Warning", en[0]["payload"]["body"]), en[0]["payload"]["body"]
    # The official warning in force there (the CAP feed's) is named.
    assert en[0]["payload"]["alerts"] == ["Severe Thunderstorm Warning"]
    assert re.fullmatch(rf"{re.escape(name)} сегодня: -?\d+° / -?\d+°, .+, ветер до \d+ миль/ч, предупреждение: .+", ru[0]["payload"]["body"]), ru[0]["payload"]["body"]
    assert en[0]["payload"]["url"] == f"/?place={home['id']}"
    # Not due at another time of day.
    other = (datetime.now(ZoneInfo("Australia/Sydney")) + timedelta(hours=3)).strftime("%H:%M")
    subscribe(c, push_service, "later", rain={"enabled": False}, morning={"enabled": True, "at": other})
    wait_watch_rounds(s, 3)
    assert morning("later") == []


def test_when_the_watch_budget_is_spent_the_most_watched_place_comes_first(server_factory, double, push_service):
    start = quarter() + 1800
    for p in (SYDNEY, TOKYO, AUCKLAND):
        double.nowcast(*p, start=start, end=start + 2700)
    s = server_factory(args=("--timeout", "3"), extra_env=watch_env(double, BROLLY_WATCH_BUDGET="1/h"))
    a, b, d = Client(s.url), Client(s.url), Client(s.url)
    save(a, *SYDNEY)
    save(b, *SYDNEY)
    save(b, *TOKYO)
    save(d, *AUCKLAND)
    rain = {"rain": {"leadMinutes": 60, "quietHours": None}}
    subscribe(a, push_service, "a", **rain)
    subscribe(b, push_service, "b", **rain)
    subscribe(d, push_service, "d", **rain)
    assert wait_until(lambda: rain_pushes(push_service, "a"), timeout=20, what="Sydney's rain push")
    wait_watch_rounds(s, 3)
    # Sydney has two subscribers: watched with the one call the budget allows; Tokyo and Auckland not.
    assert [p["place"]["latitude"] for p in rain_pushes(push_service, "b")] == [SYDNEY[0]]
    assert rain_pushes(push_service, "d") == []
    text = call(s.url + "/metrics")[2].decode()
    assert re.search(r'brolly_watch_places\{state="unwatched"\} [23]\b', text), text
    assert "brolly_watch_budget_remaining 0." in text


def test_two_places_under_one_warning_are_pushed_once(server_factory, double, push_service):
    s = server_factory(args=("--timeout", "3"), extra_env=alert_env(double))
    c = Client(s.url)
    save(c, *NEW_YORK)
    save(c, 40.75, -73.95)  # Manhattan: the same warnings
    subscribe(c, push_service, "phone")
    assert wait_until(lambda: len(push_service.delivered("phone")) >= 2, timeout=20)
    wait_until(lambda: s.logs().count("alert poller: round done") >= 4, timeout=30)
    events = sorted(m["payload"]["alert"]["event"] for m in push_service.delivered("phone") if m["payload"]["type"] == "alert")
    assert events == ["Flood Warning", "Wind Advisory"]


def test_settings_are_checked_and_changed_by_patch(server_factory, double, push_service):
    s = server_factory(args=("--timeout", "3"), extra_env=watch_env(double))
    c = Client(s.url)
    sub = subscribe(c, push_service, "x")
    assert sub["rain"] == {"enabled": True, "leadMinutes": 20, "minimum": "light", "quietHours": {"from": "22:00", "to": "07:00"}}
    assert sub["language"] == "en" and sub["units"] == "metric" and "places" not in sub
    for bad in ({"rain": {"leadMinutes": 5}}, {"rain": {"leadMinutes": 61}}, {"rain": {"minimum": "drizzle"}},
                {"rain": {"quietHours": {"from": "25:00", "to": "07:00"}}}, {"morning": {"at": "7am"}},
                {"language": "xx"}, {"units": "furlongs"}, {"minimumSeverity": "apocalyptic"}, {"rain": {"enabled": "yes"}}):
        status, headers, problem = c.request("PATCH", f"/api/v1/push/subscriptions/{sub['id']}", bad)
        assert status == 400 and headers["Content-Type"].startswith("application/problem+json"), (bad, status, problem)
    status, _, changed = c.request("PATCH", f"/api/v1/push/subscriptions/{sub['id']}",
                                   {"rain": {"minimum": "moderate"}, "morning": {"enabled": True, "at": "06:30"},
                                    "places": [1, 2], "minimumSeverity": "severe"})
    assert status == 200, changed
    assert changed["rain"]["minimum"] == "moderate" and changed["rain"]["leadMinutes"] == 20
    assert changed["morning"] == {"enabled": True, "at": "06:30"} and changed["places"] == [1, 2]
    assert changed["minimumSeverity"] == "severe"
    assert c.get("/api/v1/push/subscriptions")[2]["items"][0] == changed
    # As the OpenAPI document describes it.
    from jsonschema import Draft202012Validator
    spec = c.get("/api/openapi.json")[2]
    for doc in (sub, changed):
        Draft202012Validator(dict(spec, **{"$ref": "#/components/schemas/PushSubscription"})).validate(doc)
    # Another device cannot change it.
    assert Client(s.url).request("PATCH", f"/api/v1/push/subscriptions/{sub['id']}", {"rain": {"enabled": False}})[0] == 404


def test_two_instances_on_postgresql_push_each_rain_event_once(cluster_factory, double, push_service):
    start = quarter() + 1800
    double.nowcast(*TOKYO, start=start, end=start + 1800)
    c = cluster_factory(n=2, env={"BROLLY_PUSH_ALLOW_INSECURE": "1", "BROLLY_WATCH_SECONDS": "1", "BROLLY_ALERT_POLL_SECONDS": "1"})
    # One instance watches (the alert poller's lease); the subscription is made through the other,
    # after the watcher has listed the place saved through its own instance: the watcher's list is
    # read again for a change made anywhere in the cluster, not only for one made through itself.
    watching = wait_until(lambda: [s for s in c.servers if "alert poller: this instance" in s.logs()], timeout=30,
                          what="an instance holding the lease")
    assert len(watching) == 1
    one = watching[0]
    two = next(s for s in c.servers if s is not one)
    phone = Browser()
    assert phone.request(one, "POST", "/api/v1/places", {"latitude": TOKYO[0], "longitude": TOKYO[1]})[0] == 201
    wait_watch_rounds(one, 2)
    status, _, sub = phone.request(two, "POST", "/api/v1/push/subscriptions",
                                   dict(push_service.subscription("phone"), rain={"leadMinutes": 60, "quietHours": None}))
    assert status == 201, sub
    assert wait_until(lambda: rain_pushes(push_service, "phone"), timeout=30, what="the rain push")
    # Both instances run; one watches, and the push is sent once.
    wait_watch_rounds(one, 5)
    assert [p["status"] for p in rain_pushes(push_service, "phone")] == ["starting"]
    assert "watcher: round done" not in two.logs()
    # Changed through the other instance: read by the one that watches.
    status, _, changed = phone.request(two, "PATCH", f"/api/v1/push/subscriptions/{sub['id']}", {"rain": {"minimum": "moderate"}})
    assert status == 200 and changed["rain"]["minimum"] == "moderate"
    status, _, changed = phone.request(two, "PATCH", f"/api/v1/push/subscriptions/{sub['id']}", {"rain": {"enabled": False}})
    assert status == 200 and changed["rain"]["enabled"] is False
    wait_until(lambda: "watcher: round done (0 places watched" in one.logs(), timeout=30, what="the place no longer watched")


def test_the_page_sends_the_rain_settings_and_the_service_worker_shows_a_rain_push(server_factory, double, push_service,
                                                                                    browser_factory):
    from conftest import axe_violations
    s = server_factory(args=("--timeout", "3"), extra_env=watch_env(double))
    b = browser_factory(s.url, fresh=True)  # it delivers a push (deliver_push)
    b.allow_location(*SYDNEY)
    b.cdp("Browser.setPermission", {"permission": {"name": "notifications"}, "setting": "granted", "origin": s.url})
    b.open()
    b.wait_state("ready")
    # The rain settings are for saved places: shown once one is saved.
    assert b.js("return document.getElementById('notify-row').hidden") is True
    b.click("save-place")
    b.wait(lambda: b.js("return document.getElementById('notify-row').hidden") is False, what="the settings shown")
    b.js("document.querySelector('#push-settings summary').click()")
    assert b.js("return document.getElementById('push-settings').open") is True
    b.js("document.getElementById('push-settings').scrollIntoView({block: 'center'})")
    b.screenshot("27-rain-settings")
    assert axe_violations(b) == []
    # Changed in the panel: remembered in this browser.
    b.js("const l = document.getElementById('rain-lead'); l.value = '45'; l.dispatchEvent(new Event('change', {bubbles: true}));")
    b.js("document.getElementById('morning-enabled').click()")
    kept = b.js("return JSON.parse(localStorage.getItem('brolly.push.settings.v1'))")
    assert kept["rain"]["leadMinutes"] == 45 and kept["morning"] == {"enabled": True, "at": "07:00"}
    # A subscription this browser has (headless Chromium has no push service: made through its own
    # cookie, as the page would): a change in the panel is sent to it.
    sub = push_service.subscription("page")
    made = b.driver.execute_async_script(
        "const done = arguments[1]; fetch('/api/v1/push/subscriptions', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify(arguments[0])}).then(r => r.json()).then(done);", dict(sub, rain=kept["rain"], morning=kept["morning"]))
    b.js(f"localStorage.setItem('brolly.push.v1', JSON.stringify({{id: '{made['id']}', severity: 'moderate'}}))")
    b.js("const m = document.getElementById('rain-minimum'); m.value = 'moderate'; m.dispatchEvent(new Event('change', {bubbles: true}));")
    b.wait(lambda: b.text("push-settings-status") == "Saved.", what="the settings sent")
    items = b.driver.execute_async_script(
        "const done = arguments[0]; fetch('/api/v1/push/subscriptions').then(r => r.json()).then(j => done(j.items));")
    assert items[0]["rain"]["minimum"] == "moderate" and items[0]["rain"]["leadMinutes"] == 45
    assert items[0]["morning"]["enabled"] is True and items[0]["language"] == "en" and items[0]["units"] == "metric"
    # °F chosen on the page: the subscription's texts follow.
    b.js("document.querySelector('.units button[data-unit=F]').click()")
    units = lambda: b.driver.execute_async_script(
        "const done = arguments[0]; fetch('/api/v1/push/subscriptions').then(r => r.json()).then(j => done(j.items[0].units));")
    b.wait(lambda: units() == "imperial", what="the units sent")

    # A rain push delivered to the service worker: its title and body as the server wrote them.
    b.driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
    b.cdp("ServiceWorker.enable", {})
    payload = {"type": "rain", "status": "starting", "kind": "rain", "title": "Rain at Home",
               "body": "Rain starting in about 20 min at Home — moderate, for about 45 min",
               "place": {"id": 7, "name": "Home", "latitude": SYDNEY[0], "longitude": SYDNEY[1]}, "url": "/?place=7"}

    shown = deliver_push(b, s.url, payload)
    assert shown == [{"title": "Rain at Home", "body": payload["body"], "tag": "rain-7", "url": "/?place=7"}]


def test_twenty_subscribers_on_one_place_cost_one_forecast_call_a_round(server_factory, double, push_service):
    s = server_factory(args=("--timeout", "3"), extra_env=watch_env(double, BROLLY_WATCH_SECONDS="2"))
    for i in range(20):
        c = Client(s.url)
        save(c, *SYDNEY)
        subscribe(c, push_service, f"s{i}")
    wait_watch_rounds(s, 1)
    calls, rounds = double.calls("/v1/forecast"), watch_rounds(s)
    wait_watch_rounds(s, 4)
    made, done = double.calls("/v1/forecast") - calls, watch_rounds(s) - rounds
    assert made <= done, f"{made} forecast calls in {done} rounds"
    assert "watcher: round done (1 places watched, 0 not, 1 calls" in s.logs()
