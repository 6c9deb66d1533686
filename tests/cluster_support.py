"""What the cluster tests start and talk to: a real PostgreSQL (Debian's server through
scripts/postgres.sh, one database per test), a cluster of `brolly serve` instances on it, and a
browser (one cookie jar) talking to whichever instance is picked."""

import glob
import http.cookiejar
import json
import os
import subprocess
import tempfile
import urllib.error
import urllib.request
import uuid

from conftest import ROOT, Server, free_port

PG_SCRIPT = ROOT / "scripts" / "postgres.sh"


def pg_available():
    return bool(glob.glob("/usr/lib/postgresql/*/bin/postgres"))


class Postgres:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="brolly-pg-")
        os.chmod(self.dir, 0o777)
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.start()
        self.url = f"postgres://brolly@127.0.0.1:{self.port}/brolly"

    def start(self):
        out = subprocess.run(["bash", str(PG_SCRIPT), "start", self.data, str(self.port)], capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 0, out.stderr

    def stop(self):
        subprocess.run(["bash", str(PG_SCRIPT), "stop", self.data], capture_output=True, timeout=60)

    def psql(self, sql, database="brolly"):
        out = subprocess.run(["psql", "-X", "-qtA", f"postgres://brolly@127.0.0.1:{self.port}/{database}", "-c", sql],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    def fresh_database(self):
        name = "t_" + uuid.uuid4().hex[:12]
        self.psql(f"CREATE DATABASE {name}", database="postgres")
        return f"postgres://brolly@127.0.0.1:{self.port}/{name}", name


class Cluster:
    def __init__(self, postgres, double, tmp_path, n=3, env=None, url_options=""):
        self.pg = postgres
        self.url, self.dbname = postgres.fresh_database()
        self.url += url_options
        self.servers = []
        base = {k: v for k, v in os.environ.items() if not k.startswith("BROLLY_") and k != "OPENWEATHERMAP_API_KEY"}
        base.update(double.env())
        base.update(NO_COLOR="1", BROLLY_DATABASE_URL=self.url)
        base.update(env or {})
        for i in range(n):
            e = dict(base)
            d = tmp_path / f"instance{i + 1}"
            e.update(BROLLY_CACHE_DIR=str(d / "cache"), BROLLY_CONFIG_DIR=str(d / "config"), BROLLY_DATA_DIR=str(d / "data"),
                     HOME=str(d))
            self.servers.append(Server(e, ("--timeout", "3")))

    def psql(self, sql):
        return self.pg.psql(sql, database=self.dbname)

    def stop(self):
        for s in self.servers:
            s.stop()


class Browser:
    """One browser (one cookie jar) talking to whichever instance the load balancer picks."""

    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(self, server, method, path, body=None, headers=None, timeout=30):
        data = json.dumps(body).encode() if body is not None else None
        h = {"Content-Type": "application/json"} if data is not None else {}
        h.update(headers or {})
        req = urllib.request.Request(server.url + path, data=data, method=method, headers=h)
        try:
            with self.opener.open(req, timeout=timeout) as r:
                raw = r.read()
                return r.status, dict(r.headers), (json.loads(raw) if raw else None)
        except urllib.error.HTTPError as e:
            raw = e.read()
            return e.code, dict(e.headers), (json.loads(raw) if raw else None)


def get(server, path, headers=None, timeout=30):
    return Browser().request(server, "GET", path, headers=headers, timeout=timeout)


def place(i):
    return round(40 + (i % 10) * 0.37, 3), round(-3 + (i // 10) * 0.53, 3)
