"""The page as a phone user meets it: good weather never wiped, what comes first, the history as a
diary, undoing a removal, and a wide dark screen."""

import time
from conftest import BERLIN, SYDNEY, ready_at, axe_violations



def test_good_weather_is_never_wiped_and_saving_is_idempotent(server, browser_factory, double, cli):
    b = ready_at(browser_factory, server, BERLIN)
    assert b.js("return document.getElementById('save-place').textContent") == "☆ Save"
    b.click("save-place")
    b.wait(lambda: b.js("return document.getElementById('save-place').textContent") == "★ Saved", what="★ Saved")
    assert b.js("return document.getElementById('save-place').getAttribute('aria-pressed')") == "true"
    b.click("save-place")  # again: no copy
    b.wait(lambda: "already saved" in (b.js("return document.getElementById('notice').textContent") or ""), what="already saved")
    assert b.js("return JSON.parse(localStorage.getItem('brolly.places.v1')).length") == 1
    # A misspelt search keeps the weather and says so beside it; the type-ahead says "no matches".
    b.js("const i = document.getElementById('search'); i.focus(); i.value = 'Qwxyzzy'; i.dispatchEvent(new Event('input', {bubbles: true}));")
    b.wait(lambda: b.exists("search-none"), what="no matches")
    assert b.text("search-none") == "No matches"
    b.js("document.getElementById('search-form').requestSubmit()")
    b.wait(lambda: b.attr("notice", "data-kind") == "search-failed" if b.exists("notice") else
           b.js("return document.getElementById('notice').dataset.kind") == "search-failed", what="the notice")
    assert b.state() == "ready" and b.text("place-name") == "Berlin"
    # Offline: a saved place or "My location" leaves the weather on screen with a notice.
    b.network(False)
    b.js("document.getElementById('search').value = 'Paris'; document.getElementById('search').dispatchEvent(new Event('input', {bubbles: true}));")
    b.wait(lambda: b.exists("search-none") and "Offline" in b.text("search-none"), what="offline in the type-ahead")
    b.allow_location(*SYDNEY)
    b.js("document.getElementById('locate').click()")
    b.wait(lambda: b.js("return document.getElementById('notice').dataset.kind") == "offline", timeout=30, what="offline notice")
    assert b.state() == "ready" and b.text("place-name") == "Berlin"
    assert "No connection" in b.js("return document.getElementById('notice').textContent")
    # A saved place offline: the same.
    b.js("document.querySelector('[data-testid=place-open]').click()")
    b.wait(lambda: b.state() == "ready" and b.text("place-name") == "Berlin", what="the saved place shown offline")
    b.network(True)
    # Location denied while weather is shown: a notice, not an error panel that cannot work.
    b.deny_location()
    b.js("document.getElementById('locate').click()")
    b.wait(lambda: b.js("return document.getElementById('notice').dataset.kind") == "permission-denied", what="denied notice")
    assert b.state() == "ready" and b.text("place-name") == "Berlin"
    # The API and the CLI answer with the existing place too.
    from test_device_data import Client
    c = Client(server.url)
    s1, _, first = c.post("/api/v1/places", {"latitude": 52.52, "longitude": 13.41, "name": "Berlin"})
    s2, _, second = c.post("/api/v1/places", {"latitude": 52.5203, "longitude": 13.4099, "name": "Berlin"})
    assert (s1, s2) == (201, 200) and first["id"] == second["id"] and len(c.get("/api/v1/places")[2]) == 1
    assert cli.run("places", "add", "--lat", "52.52", "--lon", "13.41").stdout.startswith("Saved #")
    r = cli.run("places", "add", "--lat", "52.5201", "--lon", "13.4101")
    assert r.returncode == 0 and r.stdout.startswith("Already saved #"), r.stdout


def test_phone_order_and_what_users_look_for_first(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN, width=390, height=844)
    top = lambda sel: b.js(f"return document.querySelector('{sel}').getBoundingClientRect().top + window.scrollY")
    # The card and the next hours come first, the map after them; saved places before the news.
    assert top("#hours") < top("#map") and top("#weather") < top("#map")
    assert top("#places") < top("#news")
    # The search suggestions draw above the map.
    assert int(b.js("return getComputedStyle(document.querySelector('.bar')).zIndex")) > 1000
    # Sunrise and sunset; "Now" first; the chance of rain every hour and every day; the range bars.
    assert b.text("sun").startswith("↑ ")
    assert b.js("return document.querySelector('#hours li div').textContent") == "Now"
    # (An hour without a chance keeps its line, empty: never "💧—".)
    assert b.js("return [...document.querySelectorAll('#hours li .chance')].every(c => /^(💧[0-9]+%|\u00a0)$/.test(c.textContent))")
    assert b.js("return document.querySelectorAll('#hours li .chance').length") == b.js("return document.querySelectorAll('#hours li').length")
    assert "—" not in b.js("return document.getElementById('hours').textContent")
    assert b.js("return document.querySelectorAll('#days .dchance').length") >= 5
    bars = b.js("return [...document.querySelectorAll('#days .rangebar .fill')].map(f => [parseFloat(f.style.left), parseFloat(f.style.width)])")
    assert len(bars) >= 5 and all(0 <= l <= 100 and 0 < w <= 100 for l, w in bars)
    # Gusts, and where the wind comes from.
    wind = b.js("return document.getElementById('wind-text').textContent")
    assert "from SW" in wind and "gusts" in wind, wind
    # Keyboard: the unit buttons' focus ring is not clipped; reduced motion is respected.
    assert b.js("return getComputedStyle(document.querySelector('.units')).overflow") == "visible"
    b.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    assert b.js("return getComputedStyle(document.querySelector('.arrow')).transitionDuration") == "0s"
    # Opening a saved place scrolls to its weather.
    b.click("save-place")
    b.wait(lambda: b.exists("place-open"), what="a saved place")
    b.js("window.scrollTo(0, document.body.scrollHeight)")
    b.js("document.querySelector('[data-testid=place-open]').click()")
    # Its top just below the sticky header, whether or not the header was folded when it was clicked.
    below = "return document.getElementById('weather').getBoundingClientRect().top - document.querySelector('.bar').getBoundingClientRect().bottom"
    b.wait(lambda: 0 <= b.js(below) < 40, what="scrolled to the weather, under the header")
    b.screenshot("14-phone-order")


def test_history_reads_like_a_diary(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN)
    b.js("location.reload()")
    b.wait_state("ready")
    b.wait(lambda: b.js("return document.querySelectorAll('[data-testid=history-item]').length") >= 1, what="history")
    text_ = b.js("return document.querySelector('[data-testid=history-open]').innerText")
    assert "Berlin" in text_ and "\n" not in text_.strip(), text_  # one line, the short name
    assert b.js("return document.querySelector('[data-testid=history-open]').title")  # the full address as its title
    b.js("document.querySelector('[data-testid=history-open]').click()")
    b.wait(lambda: "From your history" in b.js("return document.getElementById('history-banner').textContent"), what="the entry")
    # When it was looked up, not "Updated 2 minutes ago · Stale".
    assert b.js("return document.getElementById('updated').textContent") == ""
    assert not b.exists("stale")
    b.click("back-to-live")
    b.wait(lambda: b.js("return document.getElementById('history-banner').hidden"), what="live weather")
    assert b.js("return document.getElementById('updated').textContent").startswith("Updated")


def test_removing_a_place_can_be_undone(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN)
    b.click("save-place")
    b.wait(lambda: b.js("return document.querySelectorAll('[data-testid=place-item]').length") == 1, what="Berlin saved")
    b.js("const i = document.getElementById('search'); i.value = 'Paris'; document.getElementById('search-form').requestSubmit();")
    b.wait(lambda: b.text("place-name") == "Paris", what="Paris")
    b.click("save-place")
    b.wait(lambda: b.js("return document.querySelectorAll('[data-testid=place-item]').length") == 2, what="Paris saved")
    names = lambda: b.js("return [...document.querySelectorAll('[data-testid=place-open]')].map(e => e.firstChild.textContent)")
    assert names() == ["Berlin", "Paris"]
    b.js("document.querySelector('[data-testid=place-remove]').click()")
    b.wait(lambda: names() == ["Paris"] and b.exists("undo-remove"), what="removed, with undo")
    b.click("undo-remove")
    b.wait(lambda: names() == ["Berlin", "Paris"], what="Berlin back in its place")
    assert b.js("return document.getElementById('notice').hidden")


def test_wide_screen_dark_layout(server, browser_factory, double):
    b = browser_factory(server.url, width=1280, height=900)
    b.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    b.wait(lambda: b.attr("map", "data-ready") == "true", what="the map")
    rect = lambda sel: b.js(f"const r = document.querySelector('{sel}').getBoundingClientRect(); return [r.left, r.top, r.width];")
    m, w = rect("#map"), rect("#weather")
    # The map beside the weather, both on screen.
    assert m[0] < w[0] and w[1] < 400 and m[2] > 300 and w[2] > 300, (m, w)
    assert b.js("return getComputedStyle(document.body).backgroundColor") == "rgb(11, 18, 32)"
    b.screenshot("15-wide-dark")
    assert not axe_violations(b)
