"""Issue 24, units: wind, pressure and precipitation each chosen on their own, in the API
(`?wind=`, `?pressure=`, `?precipitation=` beside the `units=` preset) and the CLI (`--wind`,
`--pressure`, `--precipitation`, `brolly units`, defaults from LANG's region), with the same tokens
everywhere and exact conversions."""

from conftest import BERLIN, get


def weather(server, query=""):
    return get(f"{server.url}/api/v1/weather?lat={BERLIN[0]}&lon={BERLIN[1]}{query}")


def test_the_api_converts_each_unit_on_its_own(server, double):
    _, _, metric = weather(server)
    c = metric["current"]
    assert metric["units"] == {"temperature": "°C", "windSpeed": "m/s", "pressure": "hPa", "precipitation": "mm"}
    assert c["windForce"] in range(13) and c["windForceName"]
    status, _, d = weather(server, "&wind=kmh&pressure=mmhg&precipitation=in")
    assert status == 200
    assert d["units"] == {"temperature": "°C", "windSpeed": "km/h", "pressure": "mmHg", "precipitation": "in"}
    assert d["current"]["windSpeed"] == round(c["windSpeed"] * 3.6, 1)
    assert abs(d["current"]["pressure"] - c["pressure"] / 1.333224) <= 1
    assert d["current"]["temperature"] == c["temperature"]
    _, _, k = weather(server, "&units=imperial&wind=kn&pressure=inhg")
    assert k["units"] == {"temperature": "°F", "windSpeed": "kn", "pressure": "inHg", "precipitation": "in"}
    assert abs(k["current"]["windSpeed"] - c["windSpeed"] * 3600 / 1852) < 0.06
    assert abs(k["current"]["pressure"] - c["pressure"] / 33.86389) < 0.02  # metric pressure is whole hPa
    _, _, b = weather(server, "&wind=bft&pressure=kpa&lang=ru")
    assert b["units"]["windSpeed"] == "Bft" and b["current"]["windSpeed"] == b["current"]["windForce"]
    assert abs(b["current"]["pressure"] - c["pressure"] / 10) <= 0.05 and b["units"]["pressure"] == "kPa"
    assert any("а" <= ch <= "я" for ch in b["current"]["windForceName"])
    # One forecast call for all of them: units are applied to the cached weather.
    assert double.calls("/v1/forecast") == 1
    for bad in ("&wind=knots", "&pressure=torr", "&precipitation=cm", "&wind=kmh&wind=ms"):
        status, headers, problem = weather(server, bad)
        assert status == 400 and headers["Content-Type"].startswith("application/problem+json"), (bad, problem)


def test_the_cli_takes_each_unit_remembers_it_and_defaults_to_the_region(cli, double):
    where = ("--lat", str(BERLIN[0]), "--lon", str(BERLIN[1]))
    r = cli.run("now", *where, "--wind", "bft", "--pressure", "mmhg")
    assert r.returncode == 0, r.stderr
    assert " Bft, " in r.stdout and " mmHg" in r.stdout, r.stdout
    # Remembered.
    assert " mmHg" in cli.run("now", *where).stdout
    shown = cli.run("units").stdout
    assert "Bft" in shown and "mmHg" in shown and "chosen" in shown
    r = cli.run("units", "--reset")
    assert r.returncode == 0 and "chosen" not in r.stdout
    # Defaults from LANG's region when nothing is chosen.
    us = cli.run("now", *where, env={"LANG": "en_US.UTF-8"}).stdout
    assert "°F" in us and " mph" in us and " inHg" in us, us
    ru = cli.run("now", *where, env={"LANG": "ru_RU.UTF-8"}).stdout
    assert "мм рт. ст." in ru and "м/с" in ru, ru
    ca = cli.run("units", "--json", env={"LANG": "fr_CA.UTF-8"}).stdout
    assert '"wind" : "km\\/h"' in ca or '"wind" : "km/h"' in ca, ca
    # A bad unit: one line on stderr, a non-zero exit.
    r = cli.run("now", *where, "--wind", "knots")
    assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1 and "kn" in r.stderr


def test_the_page_has_a_units_panel_that_converts_without_a_call_and_follows_the_region(server, browser_factory, double):
    from conftest import wait_quiet, wait_page_quiet
    b = browser_factory(server.url)
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    wait_quiet(double)
    # No region (the test browser's "en"): the metric preset.
    assert b.js("return document.getElementById('wind-text').textContent").split(" ")[1] == "m/s"
    assert b.js("return document.getElementById('pressure').textContent").endswith(" hPa")
    # Snow as metric readers count it: centimetres where rain is in millimetres.
    assert b.js("return document.getElementById('snow').textContent").endswith(" cm")
    wait_page_quiet(b)
    fetches, upstream = b.js("return window.brolly.fetchCount"), double.calls()
    b.js("document.querySelector('[data-testid=unit-panel]').open = true")
    for testid, value in (("unit-wind", "bft"), ("unit-pressure", "mmhg"), ("unit-precipitation", "in")):
        b.js(f"const s = document.querySelector('[data-testid={testid}]'); s.value = '{value}'; s.dispatchEvent(new Event('change'))")
    wind = b.js("return document.getElementById('wind-text').textContent")
    assert " Bft (" in wind, wind
    assert b.js("return document.getElementById('pressure').textContent").endswith(" mmHg")
    assert b.js("return window.brolly.fetchCount") == fetches and double.calls() == upstream
    b.screenshot("24-units-panel")
    b.open()
    b.wait_state("ready")
    assert b.js("return document.getElementById('pressure').textContent").endswith(" mmHg")  # remembered
    assert b.attr("unit-wind", "value") in ("bft", None) and b.js("return document.getElementById('unit-wind').value") == "bft"
    # A reader in the United States, nothing chosen: °F, mph, inHg.
    us = browser_factory(server.url)
    us.accept_language("en-US")
    us.allow_location(*BERLIN)
    us.open()
    us.wait_state("ready")
    assert us.text("temperature").endswith("°F")
    assert " mph" in us.js("return document.getElementById('wind-text').textContent")
    assert us.js("return document.getElementById('pressure').textContent").endswith(" inHg")
    assert us.js("return document.getElementById('snow').textContent").endswith(" in")
    # In Russian: the units' own names.
    ru = browser_factory(server.url)
    ru.accept_language("ru-RU")
    ru.allow_location(*BERLIN)
    ru.open()
    ru.wait_state("ready")
    ru.wait(lambda: "мм рт. ст." in ru.js("return document.getElementById('pressure').textContent"), what="pressure in mmHg, in Russian")
    assert "м/с" in ru.js("return document.getElementById('wind-text').textContent")
