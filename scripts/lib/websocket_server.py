#!/usr/bin/env python3
"""A WebSocket server for the recording tests: conversations Python's `websockets` holds on loopback.

    websocket_server.py PORT

Paths (each a conversation the tests record and then replay offline):
  /health                   plain HTTP 200, so scripts can wait for the server
  /echo                     every message back, text as text and binary as binary
  /push?count=N             N text messages "push 1".."push N" at once on open, then echo
  /rpc                      JSON requests {"id", "method", "params"} answered {"id", "result"},
                            the method name upper-cased as the result
  /binary                   every binary frame back reversed; a text frame closes with 1003
  /count                    "ack N" for the Nth message; "bye" makes it close with 1000
  /close?code=C&reason=R    after the first message, closes with code C (4001 by default) and R
  /error                    after the first message, drops the TCP connection without a close frame
  /shut?code=C&reason=R     closes with code C (4401 by default) and R right after the handshake,
                            before any message: sends racing the close fail
  /room?token=T&name=N      a chat room: closes with 4401 without a token; else welcomes with
                            {"welcome": N, "history": earlier visits of N}, then echoes
"""

import asyncio
import json
import sys
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve


def health(connection, request):
    if urlsplit(request.path).path == "/health":
        return connection.respond(HTTPStatus.OK, "ok\n")
    return None


# Visits to /room, by name, for the life of the server.
VISITS = {}


async def handler(websocket):
    parts = urlsplit(websocket.request.path)
    path, query = parts.path, parse_qs(parts.query)
    try:
        if path == "/echo":
            async for message in websocket:
                await websocket.send(message)
        elif path == "/push":
            for n in range(1, int(query.get("count", ["3"])[0]) + 1):
                await websocket.send(f"push {n}")
            async for message in websocket:
                await websocket.send(message)
        elif path == "/rpc":
            async for message in websocket:
                request = json.loads(message)
                await websocket.send(json.dumps({"id": request["id"], "result": str(request.get("method", "")).upper()}, separators=(",", ":")))
        elif path == "/binary":
            async for message in websocket:
                if isinstance(message, str):
                    await websocket.close(1003, "binary only")
                    return
                await websocket.send(bytes(reversed(message)))
        elif path == "/count":
            n = 0
            async for message in websocket:
                if message == "bye":
                    await websocket.close(1000, "done")
                    return
                n += 1
                await websocket.send(f"ack {n}")
        elif path == "/close":
            await websocket.recv()
            await websocket.close(int(query.get("code", ["4001"])[0]), query.get("reason", ["room closed"])[0])
        elif path == "/shut":
            await websocket.close(int(query.get("code", ["4401"])[0]), query.get("reason", ["unauthorized"])[0])
        elif path == "/room":
            # A chat room that needs a token (any) and counts each name's visits, so a reconnect
            # is told from a first visit: {"welcome": NAME, "history": visits before this one}.
            if not query.get("token", [""])[0]:
                await websocket.close(4401, "token required")
                return
            name = query.get("name", ["guest"])[0]
            history = VISITS.get(name, 0)
            VISITS[name] = history + 1
            await websocket.send(json.dumps({"welcome": name, "history": history}, separators=(",", ":")))
            async for message in websocket:
                await websocket.send(message)
        elif path == "/error":
            await websocket.recv()
            websocket.transport.abort()
        else:
            await websocket.close(1008, "unknown path")
    except Exception:  # the client went away: nothing to answer
        pass


async def main(port):
    async with serve(handler, "127.0.0.1", port, process_request=health, compression=None):
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
