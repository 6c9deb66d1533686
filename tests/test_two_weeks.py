"""Issue 23, two weeks ahead: Open-Meteo's 16 days asked in the same call, all of them in the API and
the CLI (`--days 16`), 14 on the page with the second week marked as less certain; the answer stays
under 14 KB gzipped with 16 days and 48 hours."""

import gzip

from conftest import BERLIN, call, get


def test_sixteen_days_in_one_call_through_the_contract_and_the_cli(server, cli, double):
    status, _, d = get(f"{server.url}/api/v1/weather?lat={BERLIN[0]}&lon={BERLIN[1]}")
    assert status == 200 and len(d["days"]) == 16 and d["source"]["days"] == 16 and len(d["hours"]) == 48
    assert [day["date"] for day in d["days"]] == sorted(day["date"] for day in d["days"])
    assert double.calls("/v1/forecast") == 1
    assert any("forecast_days=16" in q for q in double.queries("/v1/forecast"))
    _, _, body = call(f"{server.url}/api/v1/weather?lat={BERLIN[0]}&lon={BERLIN[1]}", headers={"Accept-Encoding": "gzip"})
    size = len(body) if body[:2] == b"\x1f\x8b" else len(gzip.compress(body))
    print(f"weather answer with 16 days and 48 hours: {size} bytes gzipped")
    assert size < 14 * 1024
    r = cli.run("forecast", "--lat", str(BERLIN[0]), "--lon", str(BERLIN[1]), "--days", "16")
    assert r.returncode == 0, r.stderr
    dated = [line for line in r.stdout.splitlines() if any(day["date"] in line for day in d["days"])]
    assert len(dated) == 16, r.stdout


def test_the_page_shows_two_weeks_the_second_less_certain(server, browser_factory, double):
    b = browser_factory(server.url)
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    rows = b.js("return [...document.querySelectorAll('#days li')].map(li => [li.className, li.querySelector('.dname').textContent])")
    assert len(rows) == 14, rows
    assert all("later" not in c for c, _ in rows[:7]) and all("later" in c for c, _ in rows[7:])
    # Past a week the weekday comes again: the second week's names carry the date.
    assert all(any(ch.isdigit() for ch in name) for _, name in rows[7:]) and len({n for _, n in rows}) == 14
    # No part of the page is wider than the phone (the chart scrolls inside itself).
    assert b.js("return document.documentElement.scrollWidth <= window.innerWidth"), b.js("return [document.documentElement.scrollWidth, window.innerWidth]")
    b.js("document.getElementById('days').scrollIntoView()")
    b.screenshot("23-two-weeks")
    # The chart: a point per hour at the hour's temperature, its table for screen readers.
    points = b.js("return document.querySelector('[data-testid=hour-chart] polyline').getAttribute('points').split(' ').length")
    rows = b.js("return document.querySelectorAll('[data-testid=hour-table] tr').length")
    assert points == 48 and rows == 49
    ys = b.js("return document.querySelector('[data-testid=hour-chart] polyline').getAttribute('points').split(' ').map(p => Number(p.split(',')[1]))")
    temps = b.js("return window.brolly && window.brolly.doc ? window.brolly.doc.hours.slice(0, 48).map(h => h.temperature) : null")
    if temps:  # higher temperature, higher on the chart (smaller y)
        pairs = [(t, y) for t, y in zip(temps, ys)]
        assert all((t1 - t2) * (y2 - y1) >= 0 for (t1, y1), (t2, y2) in zip(pairs, pairs[1:]))
    b.js("document.getElementById('chart').scrollIntoView()")
    b.screenshot("23-chart")


def test_the_cli_charts_the_next_48_hours_in_80_columns(cli, double):
    r = cli.run("forecast", "--lat", str(BERLIN[0]), "--lon", str(BERLIN[1]), "--days", "2", "--chart")
    assert r.returncode == 0, r.stderr
    chart = r.stdout.split("The next 48 hours", 1)[1].splitlines()[1:]
    assert all(len(line) <= 80 for line in chart), max(map(len, chart))
    rows = [line[8:] for line in chart[:9]]
    assert all(len(row.rstrip()) <= 48 for row in rows)
    # The temperature rows draw each hour: a column is filled from the bottom up.
    bottom = rows[5]
    assert sum(ch in "▁▂▃▄▅▆▇█" for ch in bottom) >= 40 and "°C" in chart[0] and "°C" in chart[5]
    assert "mm" in chart[6] and any(ch in "▁▂▃▄▅▆▇█" for ch in rows[8])
