#!/usr/bin/env python3
"""A small streaming HTTP server for the streaming tests: server-sent events and chunked bodies
with known content and known gaps, which httpbin cannot serve.

Usage: stream_server.py PORT   (binds 127.0.0.1 only; every stream ends by itself)

Endpoints (all HTTP/1.1 chunked; each chunk is written and flushed on its own):
  /sse?count=N&gap=MS      N events `id: i / event: message / data: {"index": i, ...}`, then
                           `data: [DONE]`; MS milliseconds between events (default 5, 20).
  /llm                     an OpenAI-style completion: `data: {"choices":[{"delta":...}]}`
                           events, a `data: [DONE]`, and one event split across two chunks.
  /split                   three events, each cut in the middle across two chunks.
  /forever?gap=MS&for=S    an event every MS ms (default 30) until the client goes away or
                           S seconds (default 30) have passed (a server of ours always stops
                           by itself), then the end.
  /anthropic               `event: message_start` ... `event: message_stop`, then more events
                           the recorder must not wait for (it stops at message_stop).
  /broken?count=N          N events, then the connection is closed without the final chunk.
  /binary                  four chunks of bytes that are not UTF-8.
  /secret                  events carrying an access token in their JSON and in a URL.
  /gate?key=K              one event, then nothing until /open?key=K is requested (or 20
                           seconds pass), then a second event and the end: a test sees the
                           first event arrive while the stream is still open, without a clock.
  /open?key=K              opens the gate K (a plain 200 answer).

POST /rpc                  a JSON-RPC 2.0 server: each request `{"jsonrpc":"2.0","id":…,
                           "method":M,"params":P}` is answered `{"jsonrpc":"2.0","id":…,
                           "result":{"method":M,"params":P}}`; a batch (an array) gets an array
                           of answers, notifications (no `id`) none. With `Accept:
                           text/event-stream` the answer is a stream, as MCP's Streamable HTTP
                           sends it: a server notification event (`notifications/progress`,
                           no `id`), then one event per answer.
"""
import json
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

TOKEN = "sk-stream-9f8e7d6c5b4a39281706f5e4"

# The gates of /gate streams, by key; /open sets one.
GATES = {}
GATES_LOCK = threading.Lock()


def gate(key):
    with GATES_LOCK:
        return GATES.setdefault(key, threading.Event())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet: the test output is the tests'
        pass

    def start(self, content_type="text/event-stream"):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def chunk(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def end(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        gap = int(query.get("gap", "20")) / 1000.0
        try:
            if url.path == "/sse":
                count = int(query.get("count", "5"))
                self.start()
                for i in range(count):
                    self.chunk("id: %d\nevent: message\ndata: %s\n\n" % (i, json.dumps({"index": i, "text": "event %d" % i})))
                    time.sleep(gap)
                self.chunk("data: [DONE]\n\n")
                self.end()
            elif url.path == "/llm":
                self.start()
                words = ["Hel", "lo", ", ", "wor", "ld", "!"]
                for i, word in enumerate(words):
                    event = "data: %s\n\n" % json.dumps({"id": "chatcmpl-1", "choices": [{"index": 0, "delta": {"content": word}}]})
                    if i == 3:  # half an event in one chunk, the rest in the next
                        self.chunk(event[:17])
                        time.sleep(gap)
                        self.chunk(event[17:])
                    else:
                        self.chunk(event)
                    time.sleep(gap)
                self.chunk("data: [DONE]\n\n")
                self.end()
            elif url.path == "/split":
                self.start()
                for i in range(3):
                    event = "data: %s\n\n" % json.dumps({"part": i, "text": "split across two chunks"})
                    self.chunk(event[: len(event) // 2])
                    time.sleep(gap)
                    self.chunk(event[len(event) // 2 :])
                    time.sleep(gap)
                self.end()
            elif url.path == "/forever":
                self.start()
                started = time.monotonic()
                i = 0
                while time.monotonic() - started < float(query.get("for", "30")):
                    self.chunk("data: %s\n\n" % json.dumps({"tick": i}))
                    i += 1
                    time.sleep(int(query.get("gap", "30")) / 1000.0)
                self.end()
            elif url.path == "/anthropic":
                self.start()
                events = [("message_start", {"type": "message_start"}),
                          ("content_block_delta", {"type": "content_block_delta", "delta": {"text": "Hi"}}),
                          ("content_block_delta", {"type": "content_block_delta", "delta": {"text": " there"}}),
                          ("message_stop", {"type": "message_stop"}),
                          ("ping", {"type": "ping"})]
                for name, payload in events:
                    self.chunk("event: %s\ndata: %s\n\n" % (name, json.dumps(payload)))
                    time.sleep(gap)
                time.sleep(5)  # a recorder that waits past message_stop is caught by the test's clock
                self.end()
            elif url.path == "/tokens":
                # A model streaming its tokens under the name `token`, with OpenAI-style logprobs:
                # text, not credentials, which the default redaction must leave alone.
                self.start()
                for piece in ["Hel", "lo", "!"]:
                    self.chunk("data: %s\n\n" % json.dumps({"token": piece}))
                    time.sleep(gap)
                self.chunk("data: %s\n\n" % json.dumps({"choices": [{"delta": {"content": "!"}, "logprobs": {"content": [{"token": "!", "logprob": -0.01, "top_logprobs": [{"token": "!", "logprob": -0.01}]}]}}]}))
                self.chunk("data: [DONE]\n\n")
                self.end()
            elif url.path == "/broken":
                count = int(query.get("count", "3"))
                self.start()
                for i in range(count):
                    self.chunk("data: %s\n\n" % json.dumps({"index": i}))
                    time.sleep(gap)
                self.close_connection = True
                self.connection.shutdown(2)
                return
            elif url.path == "/gate":
                waiting = gate(query.get("key", ""))
                self.start()
                self.chunk("data: %s\n\n" % json.dumps({"gate": "before"}))
                waiting.wait(20)
                self.chunk("data: %s\n\n" % json.dumps({"gate": "after"}))
                self.end()
            elif url.path == "/open":
                gate(query.get("key", "")).set()
                body = b"opened\n"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif url.path == "/binary":
                self.start("application/octet-stream")
                for i in range(4):
                    self.chunk(bytes([0xFF, 0xFE, i, 0x80, 0x00, 0xC3]))
                    time.sleep(gap)
                self.end()
            elif url.path == "/secret":
                self.start()
                self.chunk("data: %s\n\n" % json.dumps({"access_token": TOKEN, "note": "first"}))
                time.sleep(gap)
                self.chunk("data: %s\n\n" % json.dumps({"echo": "token was " + TOKEN}))
                self.chunk("data: [DONE]\n\n")
                self.end()
            else:
                body = b"not found\n"
                self.send_response(404)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away: the recorder stopped, or the test cancelled


    def do_POST(self):
        url = urlparse(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if url.path != "/rpc":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        try:
            message = json.loads(body)
        except ValueError:
            message = None
        batch = isinstance(message, list)
        answers = []
        for request in message if batch else [message]:
            if isinstance(request, dict) and "id" in request:
                result = {"method": request.get("method"), "params": request.get("params")}
                answers.append({"jsonrpc": "2.0", "id": request["id"], "result": result})
        try:
            if "text/event-stream" in (self.headers.get("Accept") or ""):
                self.start()
                note = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1, "total": 2}}
                self.chunk("event: message\ndata: %s\n\n" % json.dumps(note))
                for answer in answers:
                    self.chunk("event: message\ndata: %s\n\n" % json.dumps(answer))
                self.end()
                return
            if not answers:
                self.send_response(202)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = json.dumps(answers if batch else answers[0]).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True


if __name__ == "__main__":
    Server(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
