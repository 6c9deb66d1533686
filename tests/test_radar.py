"""Issue 23, the rain radar: the frame list from a server speaking RainViewer's weather-maps API
(the double), one call for every client every 5 minutes, `GET /api/v1/radar`; on the page a toggle,
a timeline, tiles fetched by the browser from the tile host at a zoom no higher than the host's
maximum; the radar host down never touches the map or the weather."""

import re

from conftest import BERLIN, call, get, wait_quiet


def test_the_frames_come_once_for_everyone(server, double):
    status, headers, d = get(f"{server.url}/api/v1/radar")
    assert status == 200, d
    assert len(d["frames"]) == 13 and d["maxZoom"] == 7 and d["attribution"]
    times = [f["unixTime"] for f in d["frames"]]
    assert times == sorted(times) and times[1] - times[0] == 600
    assert all(f["tiles"].startswith(double.url + "/v2/radar/") and "{z}/{x}/{y}" in f["tiles"] for f in d["frames"])
    for _ in range(5):
        assert get(f"{server.url}/api/v1/radar")[0] == 200
    assert double.calls("/public/weather-maps.json") == 1
    # The page's policy allows the tile host, and only it besides OpenStreetMap.
    _, page_headers, _ = call(server.url + "/")
    policy = page_headers["Content-Security-Policy"]
    assert double.url in policy and "img-src 'self' data: https://*.tile.openstreetmap.org " + double.url in policy


def test_no_radar_is_a_503_and_the_weather_is_untouched(server, double):
    double.fault("500", path="/public/weather-maps.json", times=-1)
    status, headers, problem = get(f"{server.url}/api/v1/radar")
    assert status == 503 and headers["Content-Type"].startswith("application/problem+json") and "Retry-After" in headers
    assert get(f"{server.url}/api/v1/weather?lat={BERLIN[0]}&lon={BERLIN[1]}")[0] == 200


def tile_zooms(double):
    return [int(m.group(1)) for p in double.paths() for m in [re.match(r"/v2/radar/\d+/256/(\d+)/\d+/\d+/2/1_1\.png", p)] if m]


def test_the_page_shows_the_radar_with_a_timeline_and_works_without_it(server, browser_factory, double):
    b = browser_factory(server.url)
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    b.wait(lambda: b.js("return document.getElementById('map').dataset.ready") == "true", what="the map")
    assert b.attr("radar", "data-state") == "off"
    b.click("radar-toggle")
    b.wait(lambda: b.attr("radar", "data-state") == "on", what="the radar on")
    b.wait(lambda: len(tile_zooms(double)) > 0, what="radar tiles from the tile host")
    # The map is at zoom 11; the tiles are asked at the host's maximum (7) and scaled.
    assert int(b.js("return document.getElementById('map').dataset.zoom")) > 7
    assert max(tile_zooms(double)) <= 7, tile_zooms(double)
    assert b.attr("radar-attribution", "href").startswith("https://www.rainviewer.com") or b.text("radar-attribution")
    first = b.attr("radar", "data-frame")
    time_text = b.text("radar-time")
    assert re.search(r"\d{1,2}:\d{2}", time_text), time_text
    b.click("radar-play")
    b.wait(lambda: b.attr("radar", "data-frame") != first, what="the timeline steps through the frames")
    b.click("radar-play")
    b.js("document.getElementById('map').scrollIntoView()")
    assert b.js("return document.documentElement.scrollWidth <= window.innerWidth")
    b.screenshot("23-radar")
    # Remembered: on again after a reload.
    b.open()
    b.wait_state("ready")
    b.wait(lambda: b.attr("radar", "data-state") == "on", what="the radar remembered")


def test_the_page_says_radar_unavailable_when_the_radar_host_is_down(server, browser_factory, double):
    double.fault("500", path="/public/weather-maps.json", times=-1)
    b = browser_factory(server.url)
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    b.click("radar-toggle")
    b.wait(lambda: b.attr("radar", "data-state") == "unavailable", what="radar unavailable")
    assert "unavailable" in b.text("radar-toggle").lower() and b.state() == "ready"
    b.wait(lambda: b.js("return document.getElementById('map').dataset.ready") == "true", what="the map, still")


def test_openweathermap_precipitation_tiles_come_through_the_server_with_its_key(server_factory, browser_factory, double):
    s = server_factory(args=("--timeout", "2"), extra_env={"OPENWEATHERMAP_API_KEY": "tiles-key"})
    status, _, d = get(f"{s.url}/api/v1/radar")
    assert status == 200 and d["precipitation"]["tiles"] == "/api/v1/radar/precipitation/{z}/{x}/{y}.png"
    assert d["precipitation"]["maxZoom"] == 9 and d["precipitation"]["attribution"] == "OpenWeatherMap"
    # A tile: fetched once with the key, then kept for everyone.
    for _ in range(3):
        status, headers, _ = call(f"{s.url}/api/v1/radar/precipitation/5/17/10.png")
        assert status == 200 and headers["Content-Type"] == "image/png"
    asked = [p for p in double.paths() if p.startswith("/map/precipitation_new/")]
    assert asked == ["/map/precipitation_new/5/17/10.png"] and double.calls(asked[0]) == 1, asked
    assert "appid=tiles-key" in double.queries(asked[0])[0]
    # No such tile: a 400 problem, and no call.
    for bad in ("10/1/1.png", "3/8/1.png", "3/1/1.jpg", "a/1/1.png"):
        status, headers, _ = call(f"{s.url}/api/v1/radar/precipitation/{bad}")
        assert status == 400 and headers["Content-Type"].startswith("application/problem+json"), bad
    # The page: a box beside the radar, its tiles asked from this server at zoom 9 at most.
    b = browser_factory(s.url)
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    b.wait(lambda: b.js("return document.getElementById('map').dataset.ready") == "true", what="the map")
    b.click("radar-toggle")
    b.wait(lambda: b.attr("radar", "data-state") == "on", what="the radar on")
    assert b.js("return document.getElementById('precipitation-row').hidden") is False
    b.click("precipitation-layer")
    zooms = lambda: [int(m.group(1)) for p in double.paths() for m in [re.match(r"/map/precipitation_new/(\d+)/", p)] if m]
    b.wait(lambda: len(zooms()) > 1, what="precipitation tiles through the server")
    assert max(zooms()) <= 9
    assert b.js("return performance.getEntriesByType('resource').some(r => r.name.startsWith(location.origin + '/api/v1/radar/precipitation/'))")


def test_without_an_openweathermap_key_there_are_no_precipitation_tiles(server, double):
    status, _, d = get(f"{server.url}/api/v1/radar")
    assert status == 200 and "precipitation" not in d
    status, headers, _ = call(f"{server.url}/api/v1/radar/precipitation/5/17/10.png")
    assert status == 404 and headers["Content-Type"].startswith("application/problem+json")
    assert not [p for p in double.paths() if p.startswith("/map/")]
