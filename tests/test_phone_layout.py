"""The page at a real phone's size (390 × 844 emulated, not a 500-px headless window): the forecast
first, a compact details grid, days readable at 360 px with the range bars on one scale, saved
places with their weather, renamed in the page; desktop in two columns; screenshots of each."""

from conftest import BERLIN, axe_violations, ready_at

RECT = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height};"


def rect(b, selector):
    return b.js(RECT, selector)


def test_the_forecast_comes_first_on_a_real_phone(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN, width=390, height=844)
    assert b.js("return window.innerWidth") == 390 and b.js("return window.innerHeight") == 844
    b.js("window.scrollTo(0, 0)")
    b.wait(lambda: b.js("return !document.getElementById('chart').hidden"), what="the chart")
    # The current conditions and the next hours on the first screen, the chart starting on it.
    assert rect(b, "#temperature")["bottom"] < 844
    hours = rect(b, "#hours")
    assert hours["bottom"] <= 844, hours
    assert rect(b, "#chart")["top"] < 844
    # Each hour: its wind and its amount's line.
    assert b.js("return [...document.querySelectorAll('#hours li')].every(li => li.querySelector('.wind') && li.querySelector('.amount'))")
    # The strip says it scrolls (a fade at its end).
    assert b.attr("details", "class") == "details"
    assert b.js("return document.getElementById('hours').dataset.moreEnd") == "true"
    # The details: a compact grid of four, expanded on demand (and remembered).
    visible = "return [...document.querySelectorAll('#facts li')].filter(li => li.offsetParent !== null).length"
    assert b.js(visible) == 4
    assert b.js("return document.getElementById('air').offsetParent") is None
    b.screenshot("40-phone-light")
    b.click("details-toggle")
    # Nine the double gives values for and the dew point (issue 49); snow is left out (none falls).
    assert b.attr("details-toggle", "aria-expanded") == "true" and b.js(visible) == 10
    assert b.js("return document.getElementById('air').offsetParent !== null")
    # UV: the double's day is whole, so today's highest is shown and never below now.
    air = b.text("air-quality")
    assert "UV index" in air and "UV today, highest" in air, air
    # The days after the details; each row readable: the condition never cut, the bars aligned.
    assert rect(b, "#details")["bottom"] <= rect(b, "#days")["top"]
    rows = b.js("""return [...document.querySelectorAll('#days li')].map(li => {
        const d = li.querySelector('.ddesc'), bar = li.querySelector('.rangebar').getBoundingClientRect();
        return {desc: d.textContent, w: d.getBoundingClientRect().width, cut: d.scrollWidth > d.clientWidth + 1,
                barLeft: bar.left, barWidth: bar.width, chance: li.querySelector('.dchance').textContent};
    })""")
    assert len(rows) == 14
    for r in rows:
        assert not r["cut"] and r["w"] >= 100, r
        assert "💧" in r["chance"], r
    assert len({round(r["barLeft"], 1) for r in rows}) == 1 and len({round(r["barWidth"], 1) for r in rows}) == 1, rows
    # Saved places before the map and the news.
    assert rect(b, "#places")["top"] < rect(b, "#map")["top"] < rect(b, "#news")["top"]
    b.js("window.scrollTo(0, 0)")
    b.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    b.screenshot("41-phone-dark")
    assert not axe_violations(b)


def test_days_are_readable_at_360_px_in_russian(server, browser_factory, double):
    b = browser_factory(server.url, width=360, height=740)
    b.allow_location(*BERLIN)
    b.open("/?lang=ru")
    b.wait_state("ready")
    assert b.js("return window.innerWidth") == 360
    b.wait(lambda: b.js("return document.documentElement.lang") == "ru", what="Russian")
    b.wait(lambda: b.js("return document.querySelector('#days .dname').textContent") == "Сегодня", what="Сегодня")
    rows = b.js("""return [...document.querySelectorAll('#days li')].map(li => {
        const n = li.querySelector('.dname'), d = li.querySelector('.ddesc');
        return {name: n.textContent, nameCut: n.scrollWidth > n.clientWidth + 1, cut: d.scrollWidth > d.clientWidth + 1,
                w: d.getBoundingClientRect().width, right: li.getBoundingClientRect().right};
    })""")
    for r in rows:
        assert not r["cut"] and not r["nameCut"] and r["w"] >= 90 and r["right"] <= 360, r
    b.js("window.scrollTo(0, 0)")
    b.screenshot("42-phone-russian")


def test_saved_places_show_their_weather_from_the_cache_and_are_renamed_in_the_page(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN)
    # No place saved: no alert or rain controls yet.
    b.wait(lambda: b.js("return document.getElementById('places-empty').hidden === false"), what="no places")
    assert b.js("return document.getElementById('notify-row').hidden") is True
    b.js("window.prompt = () => { throw new Error('prompt() used'); }")
    calls = double.calls("/v1/forecast")
    b.click("save-place")
    b.wait(lambda: b.exists("place-now"), what="the saved place's weather")
    # From the cache: no upstream call for it.
    assert double.calls("/v1/forecast") == calls
    glance = b.text("place-now")
    assert "°" in glance and b.js("return !!document.querySelector('[data-testid=place-now] svg')"), glance
    assert b.js("return document.getElementById('notify-row').hidden") is False
    # One place: nothing to reorder.
    assert not b.exists("place-up") and not b.exists("place-down")
    # Renamed in the row, not through prompt().
    b.click("place-rename")
    b.wait(lambda: b.exists("place-rename-input"), what="the name field")
    assert b.js("return document.activeElement.dataset.testid") == "place-rename-input"
    b.js("const i = document.querySelector('[data-testid=place-rename-input]'); i.value = 'Home';"
         "document.querySelector('[data-testid=place-rename-form]').requestSubmit();")
    b.wait(lambda: b.js("return (document.querySelector('[data-testid=place-open]') || {}).firstChild?.textContent") == "Home",
           what="renamed Home")
    # Escape leaves the name as it was.
    b.click("place-rename")
    b.js("const i = document.querySelector('[data-testid=place-rename-input]'); i.value = 'Work';"
         "i.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));")
    assert b.js("return document.querySelector('[data-testid=place-open]').firstChild.textContent") == "Home"
    # A second place: now they can be reordered.
    b.js("const i = document.getElementById('search'); i.value = 'Paris'; document.getElementById('search-form').requestSubmit();")
    b.wait(lambda: b.text("place-name") == "Paris", what="Paris")
    b.click("save-place")
    b.wait(lambda: b.js("return document.querySelectorAll('[data-testid=place-item]').length") == 2, what="two places")
    assert b.js("return document.querySelectorAll('[data-testid=place-up]').length") == 2
    assert b.js("return document.querySelectorAll('[data-testid=place-now]').length") == 2
    # Issue 50: each row's actions on one line; the first row's ↑ looks disabled; the list before
    # its warning and rain settings.
    lines = b.js("return [...document.querySelectorAll('[data-testid=place-item]')].map(li => "
                 "new Set([...li.querySelectorAll('.place-actions button')].map(x => Math.round(x.getBoundingClientRect().top))).size)")
    assert lines == [1, 1], lines
    assert float(b.js("return getComputedStyle(document.querySelector('[data-testid=place-up]')).opacity")) < 0.5
    assert rect(b, "#places-list")["top"] < rect(b, "#notify-row")["top"]
    b.js("document.getElementById('places').scrollIntoView()")
    b.screenshot("43-phone-places")
    assert not axe_violations(b)


def test_news_says_where_it_comes_from(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN)
    b.wait(lambda: "BBC News" in (b.js("return document.getElementById('news-place').textContent") or ""), what="the news label")
    assert b.js("return document.getElementById('news-place').textContent") == "· BBC News, Europe"


def test_desktop_uses_both_columns(server, browser_factory, double):
    for scheme in ("light", "dark"):
        b = browser_factory(server.url, width=1280, height=900)
        b.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        b.allow_location(*BERLIN)
        b.open()
        b.wait_state("ready")
        b.wait(lambda: b.attr("map", "data-ready") == "true", what="the map")
        m, w, p = rect(b, "#map"), rect(b, "#weather"), rect(b, "#places")
        # The map and saved places in the left column, the forecast on the right; all details shown.
        assert m["right"] <= w["left"] and p["right"] <= w["left"] and p["top"] > m["top"], (m, w, p)
        assert b.js("return [...document.querySelectorAll('#facts li')].every(li => li.offsetParent !== null)")
        b.screenshot(f"44-desktop-{scheme}")
        # Scrolled down to the days and the news, the map is still there beside them.
        b.js("document.getElementById('days').scrollIntoView()")
        m2 = rect(b, "#map")
        assert 0 <= m2["top"] < 200 and m2["bottom"] > 300, m2
        b.screenshot(f"45-desktop-{scheme}-scrolled")
