"""Accessibility: axe finds no violations in any of the page's states."""

import json
from conftest import axe_violations



def test_no_accessibility_violations_in_any_state(server, browser_factory, double):
    from test_device_data import Client
    NEW_YORK = (40.7143, -74.006)
    found = {}
    b = browser_factory(server.url)
    # Ready, with warnings (one opened), a saved place with its badge, history and news.
    b.allow_location(*NEW_YORK)
    b.open()
    b.wait_state("ready")
    b.wait(lambda: b.exists("alert"), what="warnings")
    b.click("save-place")
    b.wait(lambda: b.exists("place-item"), what="a saved place")
    b.wait(lambda: b.exists("place-alert"), what="the badge")
    b.js("document.querySelector('[data-testid=alert] summary').click()")
    b.wait(lambda: b.js("return document.querySelectorAll('#history-list li').length") > 0, what="history")
    b.wait(lambda: not b.js("return document.getElementById('news').hidden"), what="news")
    b.wait(lambda: b.attr("map", "data-ready") == "true", what="the map")
    found["ready, warnings, places, history, news"] = axe_violations(b)
    # Search results.
    b.js("const i = document.getElementById('search'); i.focus(); i.value = 'Spring'; i.dispatchEvent(new Event('input', {bubbles: true}));")
    b.wait(lambda: b.js("return !document.getElementById('search-results').hidden && document.querySelectorAll('#search-results li').length > 0"),
           what="search results")
    found["search results"] = axe_violations(b)
    # A place nobody knows.
    b.js("const i = document.getElementById('search'); i.value = 'Qwxyzzy'; document.getElementById('search-form').requestSubmit();")
    b.wait(lambda: b.attr("weather", "data-error") == "not-found" or "No place" in (b.js("return document.body.innerText") or ""),
           what="not found")
    found["not found"] = axe_violations(b)
    # Empty: location denied on a first visit.
    b2 = browser_factory(server.url)
    b2.deny_location()
    double.fault("500", path="/json", times=-1)  # and no IP location either
    b2.open()
    b2.wait_state("empty")
    double.ok()
    found["empty (permission denied)"] = axe_violations(b2)
    # Each error: offline, time-out, unreadable.
    for mode, kw in [("drop", {}), ("delay", {"delay": 10}), ("malformed", {})]:
        double.fault(mode, path="/v1/forecast", times=-1, **kw)
        b3 = browser_factory(server.url)
        b3.allow_location(10.0 + len(found), 20.0)  # an uncached place
        b3.open()
        b3.wait_state("error", timeout=30)
        found[f"error {b3.attr('weather', 'data-error')}"] = axe_violations(b3)
        double.ok()
    # Dark mode, ready.
    b4 = browser_factory(server.url)
    b4.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    b4.allow_location(*NEW_YORK)
    b4.open()
    b4.wait_state("ready")
    b4.wait(lambda: b4.exists("alert"), what="warnings")
    found["ready, dark"] = axe_violations(b4)
    print("\naxe:", json.dumps({k: len(v) for k, v in found.items()}))
    assert all(not v for v in found.values()), {k: v for k, v in found.items() if v}
