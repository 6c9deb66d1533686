"""History that is not lost and a bounded shutdown: SIGTERM with work queued, kill -9, the batched
history writer, and the durability the README promises."""

import concurrent.futures
import json
import signal
import time
from conftest import ROOT, call, place, cookie_of, wait_until


def returning_browser(s):
    status, headers, _ = call(s.url + "/api/v1/places")
    return {"Cookie": cookie_of(headers)}

def history_count(s, browser):
    status, _, body = call(s.url + "/api/v1/history?limit=500", headers=browser)
    assert status == 200
    return len(json.loads(body)["items"])


def test_sigterm_with_queued_address_lookups_ends_within_10_s_and_loses_no_lookup(server_factory, double):
    s = server_factory(args=("--timeout", "5"), extra_env={"BROLLY_CLIENT_CALLS_PER_MINUTE": "200"})
    browser = returning_browser(s)
    double.fault("delay", delay=30, times=-1, path="/reverse")
    def one(i):
        lat, lon = place(i)
        return call(s.url + f"/api/v1/weather?lat={lat}&lon={lon}", headers=browser, timeout=30)[0]
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        statuses = list(pool.map(one, range(18)))
    assert statuses == [200] * 18
    started = time.time()
    s.proc.send_signal(signal.SIGTERM)
    s.proc.wait(timeout=15)
    assert time.time() - started < 10
    double.ok()
    again = server_factory(extra_env={})
    # Same data directory: the device and its 18 lookups are there.
    assert history_count(again, browser) == 18


def test_kill_9_loses_at_most_the_last_second_of_lookups(server_factory, double):
    s = server_factory()
    browser = returning_browser(s)
    for i in range(10):
        lat, lon = place(i)
        assert call(s.url + f"/api/v1/weather?lat={lat}&lon={lon}", headers=browser)[0] == 200
    # Written within the writer's second (1.6 s at most), then killed.
    wait_until(lambda: history_count(s, browser) == 10, timeout=1.6, interval=0.05, what="the lookups written")
    s.proc.kill()
    s.proc.wait(timeout=5)
    again = server_factory()
    assert history_count(again, browser) == 10


def test_lookups_are_recorded_at_once_with_the_place_name_and_the_address_follows(server_factory, double):
    s = server_factory()
    browser = returning_browser(s)
    double.fault("delay", delay=2.5, times=1, path="/reverse")
    started = time.time()
    assert call(s.url + "/api/v1/weather?lat=52.52&lon=13.41", headers=browser)[0] == 200
    items = json.loads(call(s.url + "/api/v1/history", headers=browser)[2])["items"]
    assert len(items) == 1
    items = wait_until(lambda: [i for i in json.loads(call(s.url + "/api/v1/history", headers=browser)[2])["items"]
                                if i.get("address")], timeout=10, what="the address added to the entry")
    assert len(items) == 1 and time.time() - started < 10, items


def test_the_readme_and_the_code_agree_on_synchronous():
    readme = (ROOT / "README.md").read_text()
    code = (ROOT / "Sources" / "BrollyStore" / "SQLite" / "AppDatabase.swift").read_text()
    assert "PRAGMA synchronous = NORMAL" in code and "synchronous = NORMAL" in readme and "synchronous = FULL" not in readme
