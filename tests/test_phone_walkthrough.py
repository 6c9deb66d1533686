"""Issue 39, item 4: the walk-through's defects, as a person meets them at 390 x 844 (and 1280 x 900,
1920 x 1080): a one-line summary over the hour strip, the days as buttons opening their hours, the
second week labelled, honest push controls, the header folding as the page scrolls, the news
shorter, a desktop layout that uses the width. Screenshots go to artifacts/."""

from conftest import BERLIN, axe_violations, ready_at


def rect(b, selector):
    return b.js(f"const r = document.querySelector({selector!r}).getBoundingClientRect(); return {{top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width}};")


def test_a_summary_line_and_days_that_open_their_hours(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN)
    summary = b.text("summary")
    # The next 24 hours in a line: rain or snow starting or stopping (or dry), and a high or a low.
    assert summary and ("near" in summary) and any(w in summary for w in ("Rain", "Snow", "Dry")), summary
    assert rect(b, "#summary")["bottom"] <= rect(b, "#hours")["top"]
    # The second week is labelled over its first day.
    assert b.js("return document.querySelector('#days li.first-later .week-label').textContent") == "Less certain this far ahead"
    assert b.js("return document.querySelectorAll('#days li.first-later').length") == 1
    # A day is a button; it opens that day's hours beneath it, and closes again.
    button = "#days li:nth-child(2) button.dname"
    assert b.js(f"return document.querySelector('{button}').getAttribute('aria-expanded')") == "false"
    b.js(f"document.querySelector('{button}').click()")
    date = b.js(f"return document.querySelector('{button}').title")
    hours = b.js("return [...document.querySelectorAll('#days li:nth-child(2) .day-hours [role=listitem] .dh-time')].map(e => e.textContent)")
    assert b.js(f"return document.querySelector('{button}').getAttribute('aria-expanded')") == "true"
    assert len(hours) >= 8 and hours[0] < hours[-1], hours
    expected = b.js(f"return JSON.parse(localStorage.getItem('brolly.last.v1')).doc.hours.filter(h => h.time.startsWith('{date}')).length")
    assert len(hours) == expected
    assert not b.js("return document.querySelector('#days li:nth-child(2) .day-hours').hidden")
    b.js("document.querySelector('#days li:nth-child(2) .day-hours').scrollIntoView({block: 'center'})")
    b.screenshot("39-day-opened")
    assert axe_violations(b) == []
    # A later day than the answer's 48 hours: its hours asked for once (hours=384, the same cached
    # forecast, no call upstream), with the day's sunrise and sunset.
    calls = double.calls()
    b.js("document.querySelector('#days li:nth-child(6) button.dname').click()")
    b.wait(lambda: b.js("return document.querySelectorAll('#days li:nth-child(6) .day-hour').length") == 24, what="day 6's hours")
    assert b.js("return document.querySelector('#days li:nth-child(6) .dh-sun').textContent").startswith("↑ ")
    assert double.calls() == calls
    # The whole row opens and closes it to a pointer too.
    b.js("document.querySelector('#days li:nth-child(2) .ddesc').click()")
    assert b.js("return document.querySelector('#days li:nth-child(2) .day-hours').hidden") is True


def test_the_summary_is_in_the_readers_language(server, browser_factory, double):
    b = browser_factory(server.url)
    b.allow_location(*BERLIN)
    b.open("/?lang=ru")
    b.wait_state("ready")
    b.wait(lambda: "около" in (b.text("summary") or "") or "до" in (b.text("summary") or ""), what="a Russian summary")
    assert not any(w in b.text("summary") for w in ("Rain", "Snow", "Dry", "near"))


def test_push_controls_tick_nothing_that_cannot_arrive(server, browser_factory, double):
    b = ready_at(browser_factory, server, BERLIN)
    b.cdp("Browser.setPermission", {"permission": {"name": "notifications"}, "setting": "denied", "origin": server.url})
    b.click("save-place")
    b.wait(lambda: b.js("return document.getElementById('notify-row').hidden") is False, what="the push controls")
    b.js("document.querySelector('#push-settings summary').click()")
    # Notifications are off: nothing is ticked, and the panel says what the boxes need.
    assert b.js("return document.getElementById('rain-enabled').checked") is False
    assert b.js("return document.getElementById('morning-enabled').checked") is False
    assert not b.js("return document.getElementById('push-needs').hidden") and "notifications" in b.text("push-needs")
    # Ticking one asks for notifications (here refused): it is unticked again and the reason said.
    b.js("document.getElementById('morning-enabled').click()")
    b.wait(lambda: "could not" in (b.text("notify-status") or "").lower() or "blocked" in (b.text("notify-status") or "").lower()
           or b.text("notify-status"), what="the refusal said")
    b.wait(lambda: b.js("return document.getElementById('morning-enabled').checked") is False, what="unticked again")
    assert b.js("return document.getElementById('notify').checked") is False
    # What was asked for is remembered for when notifications are on.
    assert b.js("return JSON.parse(localStorage.getItem('brolly.push.settings.v1')).morning.enabled") is True
    b.js("document.getElementById('push-settings').scrollIntoView({block: 'center'})")
    b.screenshot("39-push-controls")


def test_the_header_folds_as_the_page_scrolls_and_the_news_is_short(server, browser_factory, double):
    from conftest import http_json
    http_json(double.url + "/__news", {"extra": 6})  # a busy day: nine of today's items
    b = ready_at(browser_factory, server, BERLIN)
    tall = rect(b, ".bar")["bottom"]
    b.js("window.scrollTo(0, 600)")
    b.wait(lambda: b.js("return document.querySelector('.bar').classList.contains('folded')"), what="the header folded")
    folded = b.js("return document.querySelector('.bar').getBoundingClientRect().height")
    assert folded < tall and folded <= 0.08 * 844, (tall, folded)
    b.js("window.scrollTo(0, 0)")
    b.wait(lambda: not b.js("return document.querySelector('.bar').classList.contains('folded')"), what="unfolded at the top")
    # News: four items, the rest behind one button.
    b.wait(lambda: b.js("return document.querySelectorAll('[data-testid=news-item]').length") >= 5, timeout=20, what="news")
    shown = b.js("return [...document.querySelectorAll('[data-testid=news-item]')].filter(li => !li.hidden).length")
    assert shown == 4
    b.js("document.querySelector('.news-more button').click()")
    assert b.js("return [...document.querySelectorAll('[data-testid=news-item]')].filter(li => li.hidden).length") == 0


def test_a_desktop_layout_uses_the_width(server, browser_factory, double):
    for width, height in ((1280, 900), (1920, 1080)):
        b = ready_at(browser_factory, server, BERLIN, width=width, height=height)
        page = rect(b, ".layout")
        # The page is no narrow column in the middle of a wide screen.
        assert page["width"] >= 0.9 * b.js("return document.documentElement.clientWidth"), page
        # The days beside the conditions, at the top of the first screen; their range bars not tiny.
        days, now, card = rect(b, "#days"), rect(b, ".now"), rect(b, "#card")
        assert days["left"] > now["right"] - 1 and days["top"] < 500, (days, now)
        # Issue 50: the hours and the chart across the card's width under both, with no scrollbar
        # showing, and no blank half-screen under the days.
        hours, chart = rect(b, "#hours"), rect(b, "#chart")
        assert hours["width"] >= 0.9 * card["width"] and chart["width"] >= 0.9 * card["width"], (hours, chart, card)
        # (The details and air quality beside the days are taller at 1280: 355 px under the days
        # there, against ~720 before.)
        assert hours["top"] >= days["bottom"] - 1 and hours["top"] - days["bottom"] < 400, (hours, days)
        assert b.js("return getComputedStyle(document.getElementById('hours')).scrollbarWidth") == "none"
        bar = rect(b, "#days li .rangebar")
        assert bar["width"] >= 80, bar
        # The header aligned: the unit switch and its panel together at its end (the switch floated
        # mid-header, 130 px from either neighbour).
        header, units, panel = rect(b, ".bar"), rect(b, ".units"), rect(b, ".unit-panel")
        assert header["right"] - panel["right"] <= 24 and 0 <= panel["left"] - units["right"] <= 16, (header, units, panel)
        b.screenshot(f"39-desktop-{width}")
        assert axe_violations(b) == []
