"""A Web Push service double on 127.0.0.1 (RFC 8030 delivery), checked with independent code.

It plays the browser too: `subscription(name)` makes a P-256 key pair and an auth secret, as a
browser's PushManager does, and returns `PushSubscription.toJSON()`. Each POST to
`/push/<name>` is checked the way a real push service and browser would:
  - `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292): the JWT's ES256 signature verifies with
    `k` (cryptography), `aud` is this service's origin, `exp` is in the future and within 24 h,
    `sub` is a mailto: or https: contact;
  - `Content-Encoding: aes128gcm`, `TTL`, optional `Urgency` and `Topic` (RFC 8030);
  - the body decrypts (RFC 8291) with the browser's private key and auth secret (http_ece).
Answers 201, or what `set_status(name, status)` says (410, 429, 500 …).
"""

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    def __init__(self):
        self.lock = threading.Lock()
        self.keys = {}  # name -> (private key, auth secret)
        self.status = {}  # name -> status to answer
        self.messages = []  # every accepted or refused delivery, checked
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                name = self.path.rsplit("/", 1)[-1]
                status, record = service.check(name, dict(self.headers), body)
                with service.lock:
                    service.messages.append(record)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                if status == 201:
                    self.send_header("Location", f"/messages/{len(service.messages)}")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()

    def subscription(self, name):
        """A browser's `PushSubscription.toJSON()` for a new subscription called `name`."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        with self.lock:
            self.keys[name] = (key, auth)
        public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"{self.origin}/push/{name}", "expirationTime": None,
                "keys": {"p256dh": b64u(public), "auth": b64u(auth)}}

    def set_status(self, name, status):
        with self.lock:
            self.status[name] = status

    def delivered(self, name=None):
        with self.lock:
            return [m for m in self.messages if m["ok"] and (name is None or m["name"] == name)]

    def check(self, name, headers, body):
        h = {k.lower(): v for k, v in headers.items()}
        record = {"name": name, "headers": h, "ok": False, "problems": []}
        problems = record["problems"]
        auth = h.get("authorization", "")
        try:
            assert auth.startswith("vapid "), "no vapid authorization"
            parts = dict(p.strip().split("=", 1) for p in auth[len("vapid "):].split(","))
            token, k = parts["t"], parts["k"]
            head, claims, sig = token.split(".")
            header = json.loads(unb64u(head))
            assert header == {"typ": "JWT", "alg": "ES256"}, f"header {header}"
            claims_json = json.loads(unb64u(claims))
            record["claims"] = claims_json
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(k))
            raw = unb64u(sig)
            assert len(raw) == 64, "signature is not r||s"
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
            assert claims_json["aud"] == self.origin, f"aud {claims_json['aud']}"
            assert time.time() < claims_json["exp"] <= time.time() + 24 * 3600, f"exp {claims_json['exp']}"
            assert claims_json["sub"].startswith(("mailto:", "https://")), f"sub {claims_json['sub']}"
            record["vapidKey"] = k
        except (AssertionError, KeyError, ValueError, InvalidSignature) as e:
            problems.append(f"vapid: {e!r}")
        if h.get("content-encoding") != "aes128gcm":
            problems.append(f"content-encoding {h.get('content-encoding')}")
        try:
            ttl = int(h["ttl"])
            assert 0 <= ttl <= 86400
        except (KeyError, ValueError, AssertionError):
            problems.append(f"ttl {h.get('ttl')}")
        topic = h.get("topic")
        if topic is not None and (len(topic) > 32 or not all(c.isalnum() or c in "-_" for c in topic)):
            problems.append(f"topic {topic}")
        with self.lock:
            keypair = self.keys.get(name)
            status = self.status.get(name, 201)
        if keypair is None:
            problems.append("unknown subscription")
        else:
            try:
                plain = http_ece.decrypt(body, private_key=keypair[0], auth_secret=keypair[1], version="aes128gcm")
                record["payload"] = json.loads(plain)
            except Exception as e:  # noqa: BLE001 - any failure to decrypt is the finding
                problems.append(f"decrypt: {e!r}")
        record["ok"] = not problems and status == 201
        record["status"] = status if not problems else 400
        return record["status"], record
