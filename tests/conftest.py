"""Shared fixtures: the upstream double, the built `brolly` binary, `brolly serve`, and headless
Chromium driven by Selenium with DevTools-protocol control of geolocation and the network."""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"

# pytest-xdist's workers are given the controller's terminal width in COLUMNS, which the CLI reads:
# its text would be cut at that width in the parallel run and not in a plain one.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)


def pytest_configure(config):
    config.addinivalue_line("markers", "alone: measures speed or memory, or waits on a slow cold answer; "
                            "scripts/test.sh runs these by themselves, after the parallel run (-m alone)")
    config.addinivalue_line("markers", "xdist_group(name): run on one pytest-xdist worker, in order (--dist loadgroup)")


# The other cases of 40 s or more in CI's runs: started first too.
LONGEST = {"test_schemathesis_finds_no_failures", "test_no_accessibility_violations_in_any_state",
           "test_the_alert_poller_runs_on_one_instance_and_is_taken_over_within_a_minute",
           "test_open_meteo_client_reads_brolly_as_open_meteo"}


def pytest_collection_modifyitems(config, items):
    """The longest cases first, so that none of them starts last: the README's scripts (the run
    command, the cluster script and the bench scripts, each on a worker of its own: scripts/test.sh
    has built the release binary they run, so they need not wait on one another: issue 53), then
    the README's other cases (one worker: they share a prepared home)."""
    def first(item):
        groups = {m.kwargs.get("name", m.args[0] if m.args else None) for m in item.iter_markers("xdist_group")}
        if any(g.startswith(("readme-", "bench-")) for g in groups if g) or item.originalname in LONGEST:
            return 0
        return 1 if "readme" in groups else 2
    items.sort(key=first)


def brolly_binary():
    explicit = os.environ.get("BROLLY_BIN")
    if explicit:
        return explicit
    # The newer of the two builds (scripts/test.sh sets BROLLY_BIN to the release binary).
    built = [c for c in (ROOT / ".build" / "release" / "brolly", ROOT / ".build" / "debug" / "brolly") if c.exists()]
    if built:
        return str(max(built, key=lambda c: c.stat().st_mtime))
    pytest.exit("brolly is not built: run `swift build` first (or set BROLLY_BIN)", returncode=2)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_json(url, data=None, method=None, timeout=10):
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, method=method or ("POST" if body else "GET"),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read() or b"null")


class Double:
    """The upstream double: a subprocess serving provider formats, with fault injection."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "upstream_double.py"), "--port", "0"],
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("PORT "), line
        self.port = int(line.split()[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def fault(self, mode, **kw):
        http_json(self.url + "/__control", dict(mode=mode, **kw))

    def ok(self):
        http_json(self.url + "/__control", {"mode": "ok"})

    def reset(self):
        http_json(self.url + "/__reset", {})

    def nowcast(self, lat, lon, start=None, end=None, mm=0.6, snow=False):
        """Scripts the 15-minute slots at (lat, lon): wet from `start` to `end` (seconds since 1970,
        quarter hours), else dry."""
        http_json(self.url + "/__nowcast", dict(latitude=lat, longitude=lon, start=start, end=end, mm=mm, snow=snow))

    def ensemble(self, disagree=None):
        """The ensemble's members disagree by 3 °C more on the day `disagree` days ahead (None: no day)."""
        http_json(self.url + "/__ensemble", {"disagree": disagree})

    def accuracy(self, bias=None, silent=None, warm=None, archive_days=None):
        body = {"bias": bias or {}, "warm": warm or {}}
        if silent is not None:
            body["silent"] = silent
        if archive_days is not None:
            body["archive_days"] = archive_days
        http_json(self.url + "/__accuracy", body)

    def queries(self, path):
        """The query strings of the calls to `path`, oldest first."""
        return http_json(self.url + "/__calls")["queries"].get(path, [])

    def paths(self):
        """Every path the double was asked for (each once)."""
        return list(http_json(self.url + "/__calls")["paths"])

    def calls(self, path=None):
        c = http_json(self.url + "/__calls")
        return c["total"] if path is None else c["paths"].get(path, 0)

    def env(self):
        return {
            "BROLLY_OPEN_METEO_URL": self.url,
            "BROLLY_OPEN_METEO_GEOCODING_URL": self.url,
            "BROLLY_OPEN_METEO_AIR_QUALITY_URL": self.url,
            "BROLLY_NWS_URL": self.url,
            "BROLLY_METEOALARM_URL": self.url,
            "BROLLY_OPENWEATHERMAP_URL": self.url,
            "BROLLY_NOMINATIM_URL": self.url,
            "BROLLY_IP_LOCATION_URL": self.url + "/json",
            "BROLLY_BBC_FEEDS_URL": self.url,
            "BROLLY_NEWSAPI_URL": self.url,
            "BROLLY_GOOGLE_GEOCODING_URL": self.url,
            "BROLLY_OPEN_METEO_PREVIOUS_RUNS_URL": self.url + "/previous-runs",
            "BROLLY_OPEN_METEO_ARCHIVE_URL": self.url + "/archive-api",
            "BROLLY_OPEN_METEO_ENSEMBLE_URL": self.url,
            "BROLLY_AVIATIONWEATHER_URL": self.url,
            "BROLLY_RADAR_URL": self.url,
            "BROLLY_OPENWEATHERMAP_TILES_URL": self.url,
        }

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=5)


@pytest.fixture
def double():
    d = Double()
    yield d
    d.stop()


def home_env(tmp_path):
    """Fresh cache, config and data directories under `tmp_path`, and an environment pointing at them."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("BROLLY_") and k not in ("OPENWEATHERMAP_API_KEY", "COLUMNS") and not k.startswith("LC_")}
    # A locale without a region, whatever the machine's: units and language follow LANG's region
    # only where a test sets it.
    env["LANG"] = "C.UTF-8"
    env.update(BROLLY_CACHE_DIR=str(tmp_path / "cache"), BROLLY_CONFIG_DIR=str(tmp_path / "config"),
               BROLLY_DATA_DIR=str(tmp_path / "data"), NO_COLOR="1", HOME=str(tmp_path))
    return env


@pytest.fixture
def home(tmp_path):
    """Fresh cache, config and data directories, and an environment pointing at them."""
    return home_env(tmp_path)


class CLI:
    def __init__(self, env):
        self.env = env
        self.bin = brolly_binary()

    def run(self, *args, env=None, timeout=60):
        e = dict(self.env)
        e.update(env or {})
        return subprocess.run([self.bin, *args], capture_output=True, text=True, env=e, timeout=timeout)


@pytest.fixture
def cli(double, home):
    env = dict(home)
    env.update(double.env())
    return CLI(env)


def listens(pid, port):
    """Whether process `pid` itself holds a listening TCP socket on `port` (from /proc)."""
    try:
        inodes = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    except OSError:
        return False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port and f"socket:[{fields[9]}]" in inodes:
                return True
    return False


class Server:
    def __init__(self, env, args=()):
        # A free port can be taken by another worker's server between free_port() and the bind:
        # then this server exits and the other one would answer /healthz — and vanish when its test
        # ends (a case saw ERR_CONNECTION_REFUSED mid-test). The server counts as started only
        # when this process itself listens; one that could not bind is started again elsewhere.
        for _ in range(3):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            self.log = tempfile.NamedTemporaryFile(prefix="brolly-serve-", suffix=".log", delete=False)
            self.proc = subprocess.Popen([brolly_binary(), "serve", "--port", str(self.port), *args],
                                         env=env, stdout=self.log, stderr=subprocess.STDOUT)
            deadline = time.time() + 30
            while time.time() < deadline and self.proc.poll() is None:
                if listens(self.proc.pid, self.port):
                    try:
                        with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                            if r.status == 200:
                                return
                    except OSError:
                        pass
                time.sleep(0.1)
            if self.proc.poll() is None:
                break
        raise RuntimeError("brolly serve did not start: " + Path(self.log.name).read_text())

    def logs(self):
        return Path(self.log.name).read_text()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def server_factory(double, home):
    started = []

    def start(args=(), extra_env=None):
        env = dict(home)
        env.update(double.env())
        env.update(extra_env or {})
        s = Server(env, args)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


@pytest.fixture
def server(server_factory):
    return server_factory(args=("--timeout", "2"))


@pytest.fixture(scope="module")
def shared_double():
    d = Double()
    yield d
    d.stop()


@pytest.fixture(scope="module")
def shared_server(shared_double, tmp_path_factory):
    """One server and double for a module's cases that only read what a request gets (status codes,
    problem documents, headers, query rules): a process started once proves nothing less for them
    (issue 53). Cases that count upstream calls, change saved state or need their own settings take
    `server` or `server_factory`."""
    env = home_env(tmp_path_factory.mktemp("shared-home"))
    env.update(shared_double.env())
    s = Server(env, ("--timeout", "2"))
    yield s
    s.stop()


# ---------- browser ----------

def chromium_paths():
    binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    return binary, driver


class Browser:
    """Headless Chromium with helpers for the DevTools protocol."""

    def __init__(self, base_url, width=390, height=844, args=()):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        binary, driver_path = chromium_paths()
        options = webdriver.ChromeOptions()
        if binary:
            options.binary_location = binary
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    f"--window-size={width},{height}", "--lang=en", *args):
            options.add_argument(arg)
        # A language without a region (navigator.language "en"): units follow a region only where a
        # test sets one (accept_language).
        options.add_experimental_option("prefs", {"intl.accept_languages": "en"})
        # DevTools events (service worker registrations) are read from the performance log.
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        self.profile = tempfile.mkdtemp(prefix="brolly-chrome-")
        options.add_argument(f"--user-data-dir={self.profile}")
        self.driver = webdriver.Chrome(service=Service(driver_path) if driver_path else None, options=options)
        self.driver.set_page_load_timeout(30)
        self.base = base_url
        self.width, self.height = width, height
        self.visited = set()
        self.cdp("Network.enable", {})
        self.agent = self.js("return navigator.userAgent")
        if width < 500:
            self.emulate_phone()

    def emulate_phone(self):
        """Headless Chromium keeps a window at least 500 px wide: a phone's viewport is emulated
        (it holds for every page this tab opens)."""
        self.cdp("Emulation.setDeviceMetricsOverride",
                 {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": True})

    def cdp(self, cmd, params=None):
        if cmd == "Browser.setPermission":
            self.visited.add((params or {}).get("origin", self.base))
        return self.driver.execute_cdp_cmd(cmd, params or {})

    def reset(self):
        """Back to a new browser's state, for the pool (see `BrowserPool`)."""
        d = self.driver
        handles = d.window_handles
        for h in handles[1:]:
            d.switch_to.window(h)
            d.close()
        d.switch_to.window(handles[0])
        self.visited.add(self.base)
        d.get("about:blank")
        for origin in self.visited:
            self.cdp("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.visited = set()
        for cmd, params in (("Network.clearBrowserCookies", {}), ("Network.clearBrowserCache", {}),
                            ("Network.setCacheDisabled", {"cacheDisabled": False}), ("Browser.resetPermissions", {}),
                            ("Emulation.clearGeolocationOverride", {}), ("Emulation.setEmulatedMedia", {"media": "", "features": []}),
                            ("Emulation.setScriptExecutionDisabled", {"value": False}),
                            ("Emulation.setUserAgentOverride", {"userAgent": self.agent, "acceptLanguage": "en"}),
                            ("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                                  "uploadThroughput": -1}),
                            ("ServiceWorker.disable", {})):
            self.cdp(cmd, params)
        d.get_log("performance")

    def reuse(self, base_url):
        self.base = base_url
        self.visited = set()
        self.driver.get("about:blank")

    def accept_language(self, tag):
        """The browser's language (navigator.language, Accept-Language) from now on, e.g. en-US."""
        self.cdp("Emulation.setUserAgentOverride", {"userAgent": self.agent, "acceptLanguage": tag})

    def allow_location(self, lat, lon):
        self.cdp("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "granted", "origin": self.base})
        self.cdp("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": 20})

    def deny_location(self):
        self.cdp("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "denied", "origin": self.base})
        self.cdp("Emulation.clearGeolocationOverride", {})

    def network(self, online):
        self.cdp("Network.emulateNetworkConditions", {"offline": not online, "latency": 0,
                                                       "downloadThroughput": -1, "uploadThroughput": -1})

    def open(self, path="/"):
        self.driver.get(self.base + path)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def attr(self, testid, name):
        return self.js(f"const e = document.querySelector('[data-testid=\"{testid}\"]'); return e ? e.getAttribute({json.dumps(name)}) : null;")

    def text(self, testid):
        return self.js(f"const e = document.querySelector('[data-testid=\"{testid}\"]'); return e ? e.textContent : null;")

    def exists(self, testid):
        return bool(self.js(f"return !!document.querySelector('[data-testid=\"{testid}\"]');"))

    def click(self, testid):
        self.js(f"document.querySelector('[data-testid=\"{testid}\"]').click();")

    def state(self):
        return self.attr("weather", "data-state")

    def wait(self, predicate, timeout=20, what="condition"):
        """`wait_until` (a page reloading counts as not yet), saying the page's state on failure."""
        try:
            return wait_until(predicate, timeout, what)
        except AssertionError as e:
            raise AssertionError(f"{e}; state={self.state()!r} error={self.attr('weather', 'data-error')!r}") from None

    def wait_state(self, state, timeout=20):
        return self.wait(lambda: self.state() == state, timeout, f"data-state={state}")

    def map_view(self):
        return self.js("const m = document.querySelector('[data-testid=\"map\"]'); return {view: m.dataset.view, lat: parseFloat(m.dataset.lat), lon: parseFloat(m.dataset.lon), zoom: parseInt(m.dataset.zoom), marker: m.dataset.marker};")

    def screenshot(self, name):
        ARTIFACTS.mkdir(exist_ok=True)
        self.driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))

    def full_screenshot(self, name, width=None, height=None):
        """The whole page, not only the viewport (DevTools' captureBeyondViewport); at `width` ×
        `height` when given (a desktop), the phone's emulated viewport restored afterwards."""
        import base64
        ARTIFACTS.mkdir(exist_ok=True)
        if width:
            self.cdp("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
            self.js("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        try:
            shot = self.cdp("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
            (ARTIFACTS / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))
        finally:
            if width and self.width < 500:
                self.emulate_phone()
            elif width:
                self.cdp("Emulation.clearDeviceMetricsOverride")

    def quit(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


class BrowserPool:
    """Each pytest-xdist worker's idle browsers, by window size and arguments: a Chromium start
    costs 1.3 CPU-seconds, more than the page it then loads (1.0), and the browser cases started
    ~130 of them on a 2-core machine whose pytest phase is CPU-bound (issue 53). A browser comes
    back as new: one blank tab; no cookie, storage, service worker or cached file for any origin it
    visited; no permission, location, network condition, language, media or cache setting left from
    its last case; its log drained. One that cannot be put back so is quit."""

    def __init__(self):
        self.idle = {}

    def take(self, base_url, width=390, height=844, args=(), fresh=False):
        """An idle browser put back as new, or a new one; `fresh`: always a new one (a case that
        delivers a push needs a profile whose service worker registrations start from the first
        ids, see `deliver_push`)."""
        key = (width, height, tuple(args))
        while self.idle.get(key) and not fresh:
            b = self.idle[key].pop()
            try:
                b.reuse(base_url)
                return b
            except Exception:
                b.quit()
        b = Browser(base_url, width=width, height=height, args=args)
        b.key = key
        return b

    def give_back(self, b):
        try:
            b.reset()
        except Exception:
            b.quit()
            return
        self.idle.setdefault(b.key, []).append(b)

    def close(self):
        for browsers in self.idle.values():
            for b in browsers:
                b.quit()
        self.idle = {}


@pytest.fixture(scope="session")
def browser_pool():
    pool = BrowserPool()
    yield pool
    pool.close()


@pytest.fixture
def browser_factory(browser_pool):
    binary, driver = chromium_paths()
    if not binary or not driver:
        pytest.fail("chromium and chromedriver are required for the browser tests (apt-get install chromium chromium-driver)")
    opened = []

    def make(base_url, **kw):
        b = browser_pool.take(base_url, **kw)
        opened.append(b)
        return b

    yield make
    for b in opened:
        browser_pool.give_back(b)


# ---------- shared by the end-to-end files ----------

BERLIN = (52.52, 13.41)
LONDON = (51.5085, -0.1257)
SYDNEY = (-33.8679, 151.2073)


def still_open(socks):
    """How many of `socks` the server has not closed (a read that is not end-of-file)."""
    n = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            if sock.recv(1) != b"":
                n += 1
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


def wait_until(predicate, timeout=20, what="condition", interval=0.1):
    """Polls `predicate` until it returns something true (and returns that), instead of a fixed
    sleep: background work (a flush, a poll, a refresh) is waited for exactly as long as it takes,
    and a test fails with `what` when it does not happen within `timeout` seconds."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except Exception as e:  # noqa: BLE001 - not ready yet
            last = e
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}; last: {last!r}")


def wait_still(read, quiet, timeout, step, what):
    """Waits until the count `read()` returns has not moved for `quiet` seconds, and returns it."""
    deadline = time.time() + timeout
    count, since = read(), time.time()
    while time.time() < deadline:
        time.sleep(step)
        now = read()
        if now != count:
            count, since = now, time.time()
        elif time.time() - since >= quiet:
            return count
    raise AssertionError(f"{what} after {timeout} s")


def wait_quiet(double, quiet=0.5, timeout=15):
    """Waits until the upstream double has had no call for `quiet` seconds: the background work a
    request started (air quality, warnings, names, refreshes) is over, however long it took."""
    return wait_still(double.calls, quiet, timeout, 0.05, "the upstream double was still being called")


def wait_page_quiet(browser, quiet=2.0, timeout=20):
    """Waits until the page has made no API call for `quiet` seconds: what it does after the weather
    arrives (the history again 1.2 s later and the entries it keeps whole, the accuracy, the news)
    is over, so that a count taken now moves only by what the test does next."""
    return wait_still(lambda: browser.js("return window.brolly.fetchCount"), quiet, timeout, 0.1,
                      "the page was still making calls")


def call(url, method="GET", headers=None, body=None, timeout=30):
    data = json.dumps(body).encode() if body is not None else None
    h = dict(headers or {})
    if data is not None:
        h.setdefault("Content-Type", "application/json")
    req = urllib.request.Request(url, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0


def place(i):
    """The i-th of many distinct places (about 2 km apart), all valid coordinates."""
    return 30 + (i // 200) * 0.02, -20 + (i % 200) * 0.02


def cookie_of(headers):
    for value in headers.get_all("Set-Cookie") or []:
        if value.startswith("brolly_device="):
            return value.split(";")[0]
    return None


def ready_at(browser_factory, server, where, **size):
    """A browser allowed to be at `where`, on the page with the weather shown."""
    b = browser_factory(server.url, **size)
    b.allow_location(*where)
    b.open()
    b.wait_state("ready")
    return b


def throttled_visit(browser_factory, server, conditions, cache_disabled=True):
    """A browser allowed to be in Berlin opening the page on an emulated slow network
    (`Network.emulateNetworkConditions`), the server's cache warm for Berlin first."""
    urllib.request.urlopen(f"{server.url}/api/v1/weather?lat={BERLIN[0]}&lon={BERLIN[1]}", timeout=15).read()
    b = browser_factory(server.url)
    b.allow_location(*BERLIN)
    b.cdp("Network.setCacheDisabled", {"cacheDisabled": cache_disabled})
    b.cdp("Network.emulateNetworkConditions", conditions)
    b.open()
    return b


def axe_violations(b):
    from axe_selenium_python import Axe
    axe = Axe(b.driver)
    axe.inject()
    result = axe.run()
    return [(v["id"], v["impact"], [(n["target"], n.get("failureSummary", "")[:300]) for n in v["nodes"]][:3]) for v in result["violations"]]


def get(url, timeout=15):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read() or b"null")


def weather(server, lat, lon, extra=""):
    return get(f"{server.url}/api/v1/weather?lat={lat}&lon={lon}{extra}")


BERLIN_C = round(20 - 52.52 / 3, 1)  # the double's current temperature there, as the API rounds it


def js_round(x):
    """The page rounds as the CLI does: halves away from zero (-21.5 -> -22, 2.5 -> 3)."""
    import math
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def assert_zoomed_to(view, lat, lon):
    assert view["view"] == "place" and view["zoom"] >= 10, view
    assert abs(view["lat"] - lat) < 0.05 and abs(view["lon"] - lon) < 0.05, view


def deliver_push(b, origin, payload, timeout=40):
    """Delivers `payload` to the page's service worker as a push message until it shows a
    notification, and returns the notifications shown (title, body, tag, url). The registration's
    id is not shown to pages, and chromedriver's log does not carry the ServiceWorker domain's
    events: a fresh profile's first registration has one of the first ids, and the notification's
    tag makes repeats replace each other; a worker still starting may miss the first delivery.
    So the case's browser must be a new one (`browser_factory(url, fresh=True)`), not one from the
    pool, whose registrations have gone on counting."""
    def deliver_and_look():
        for registration in [str(i) for i in range(12)]:
            b.cdp("ServiceWorker.deliverPushMessage", {"origin": origin, "registrationId": registration, "data": json.dumps(payload)})
        # The notifications shown, as soon as there are any (none after 3 s: delivered again).
        deadline = time.time() + 3
        while True:
            shown = b.driver.execute_async_script(
                "const done = arguments[0]; navigator.serviceWorker.ready.then(r => r.getNotifications())"
                ".then(ns => done(ns.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))));")
            if shown or time.time() > deadline:
                return shown or None
            time.sleep(0.1)
    return b.wait(deliver_and_look, timeout=timeout, what="a notification")


def wait_for_service_worker(b):
    """Waits until the service worker controls the page (it claims clients on activation)."""
    b.wait(lambda: b.js("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"),
           timeout=20, what="the service worker to take control")


def first_good_visit(b):
    b.allow_location(*BERLIN)
    b.open()
    b.wait_state("ready")
    wait_for_service_worker(b)
    b.wait_state("ready")
