#!/usr/bin/env python3
"""A small API server in two versions, for the drift tests (`gramophone verify`): version 1 on
one port, version 2 on another, so a vinyl recorded from v1 can be checked against v2 with
--base-url, as a user checks a recording against a newer deployment.

Usage: drift_server.py PORT_V1 PORT_V2   (binds 127.0.0.1 only; stateless)

Endpoints (JSON unless said), and what v2 changes:
  GET  /users/1     {"id", "name", "nickname", "plan"}    v2: nickname renamed to handle
  GET  /items       {"items": [{"id", "price": number}]}  v2: price is a string ("9.50")
  GET  /settings    {"theme"}                              v2: a field added (language) and
                                                               a Cache-Control header
  GET  /legacy      200 {"ok": true}                       v2: status 410, the same shape
  GET  /health      {"status", "time"}                     unchanged; time differs every call
  GET  /me          401 without `Authorization: Bearer letmein`, else {"user"}; unchanged
  GET  /events      text/event-stream: `message` events, then `done`   v2: `done` is `end`
  GET  /sse?count=N&gap=MS
                    text/event-stream, chunked: N `message` events {"index", "delta"}, then
                    `data: [DONE]`, each chunk flushed on its own MS ms apart (default 4, 20)
                                                           v2: `delta` is renamed `text`
  GET  /deploy      {"build"}                              v2: a field added whose value has an AWS
                                                               key's shape (a secret --update must not write)
  POST /orders      201 {"id", "total": number}            v2: total is a string
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

TOKEN = "letmein"


def handler_for(version):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # quiet: the test output is the tests'
            pass

        def send(self, status, body, content_type="application/json", headers=()):
            data = (json.dumps(body) if content_type == "application/json" else body).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            path = urlparse(self.path).path
            v2 = version == 2
            if path == "/users/1":
                user = {"id": 1, "name": "Ada Lovelace", "plan": {"name": "pro", "seats": 3}}
                user["handle" if v2 else "nickname"] = "ada"
                self.send(200, user)
            elif path == "/items":
                prices = [9.5, 3]
                self.send(200, {"items": [{"id": i + 1, "price": ("%.2f" % p) if v2 else p} for i, p in enumerate(prices)]})
            elif path == "/settings":
                settings = {"theme": "dark"}
                if v2:
                    settings["language"] = "en"
                self.send(200, settings, headers=[("Cache-Control", "max-age=60")] if v2 else [])
            elif path == "/legacy":
                self.send(410 if v2 else 200, {"ok": not v2})
            elif path == "/deploy":
                self.send(200, {"build": "1.2.3", "note": "AKIAIOSFODNN7EXAMPLE"} if v2 else {"build": "1.2.3"})
            elif path == "/health":
                self.send(200, {"status": "ok", "time": time.time()})
            elif path == "/me":
                if self.headers.get("Authorization") != "Bearer " + TOKEN:
                    self.send(401, {"error": "unauthorized"})
                else:
                    self.send(200, {"user": "ada"})
            elif path == "/sse":
                self.stream(v2)
            elif path == "/events":
                events = "".join('event: message\ndata: {"index": %d, "text": "hi"}\n\n' % i for i in range(2))
                events += "event: %s\ndata: {}\n\n" % ("end" if v2 else "done")
                self.send(200, events, content_type="text/event-stream", headers=[("Cache-Control", "no-cache")])
            else:
                self.send(404, {"error": "not found"})

        def stream(self, v2):
            query = {k: v[-1] for k, v in parse_qs(urlparse(self.path).query).items()}
            count, gap = int(query.get("count", "4")), int(query.get("gap", "20")) / 1000.0
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            events = ["event: message\ndata: %s\n\n" % json.dumps({"index": i, "text" if v2 else "delta": "word %d" % i}) for i in range(count)]
            try:
                for event in events + ["data: [DONE]\n\n"]:
                    data = event.encode("utf-8")
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
                    time.sleep(gap)
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading (a stream limit)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            if urlparse(self.path).path == "/orders":
                self.send(201, {"id": 7, "total": "12.00" if version == 2 else 12})
            else:
                self.send(404, {"error": "not found"})

    return Handler


def main():
    servers = [ThreadingHTTPServer(("127.0.0.1", int(port)), handler_for(version)) for version, port in ((1, sys.argv[1]), (2, sys.argv[2]))]
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    servers[0].serve_forever()


if __name__ == "__main__":
    main()
