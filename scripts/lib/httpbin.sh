# Start and stop the local test servers on free loopback ports. Sourced by scripts.

# A free loopback port.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits until URL answers (PID is the server's process, LOG its output, NAME what to call it).
wait_for_server() {
  local url="$1" pid="$2" log="$3" name="$4"
  for _ in $(seq 1 100); do
    if python3 -c "import urllib.request; urllib.request.urlopen('$url', timeout=1).read()" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$name exited early:" >&2; cat "$log" >&2; return 1
    fi
    sleep 0.2
  done
  echo "$name did not answer on $url" >&2
  cat "$log" >&2
  return 1
}

start_httpbin() {
  local venv="$1"
  HTTPBIN_PORT=$(free_port)
  HTTPBIN_URL="http://127.0.0.1:$HTTPBIN_PORT"
  HTTPBIN_LOG=$(mktemp)
  "$venv/bin/gunicorn" --bind "127.0.0.1:$HTTPBIN_PORT" --workers 4 --threads 4 --log-level warning httpbin:app >"$HTTPBIN_LOG" 2>&1 &
  HTTPBIN_PID=$!
  wait_for_server "$HTTPBIN_URL/get" "$HTTPBIN_PID" "$HTTPBIN_LOG" httpbin
}

# Stops a server started here, if it was (an empty PID: it was not, or is stopped already).
stop_process() {
  if [[ -n "$1" ]]; then
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
  fi
}

stop_httpbin() {
  stop_process "${HTTPBIN_PID:-}"
  HTTPBIN_PID=
}

# The streaming server of our own (scripts/lib/stream_server.py), for what httpbin cannot
# serve: server-sent events with known gaps, never-ending and broken streams.
start_stream_server() {
  STREAMS_PORT=$(free_port)
  STREAMS_URL="http://127.0.0.1:$STREAMS_PORT"
  STREAMS_LOG=$(mktemp)
  python3 "$(dirname "${BASH_SOURCE[0]}")/stream_server.py" "$STREAMS_PORT" >"$STREAMS_LOG" 2>&1 &
  STREAMS_PID=$!
  wait_for_server "$STREAMS_URL/sse?count=1&gap=0" "$STREAMS_PID" "$STREAMS_LOG" "the streaming server"
}

stop_stream_server() {
  stop_process "${STREAMS_PID:-}"
  STREAMS_PID=
}

# The drift server of our own (scripts/lib/drift_server.py): one small API in two versions,
# v1 and v2 on two ports, for `gramophone verify`.
start_drift_server() {
  DRIFT_V1_URL="http://127.0.0.1:$(free_port)"
  DRIFT_V2_URL="http://127.0.0.1:$(free_port)"
  DRIFT_LOG=$(mktemp)
  python3 "$(dirname "${BASH_SOURCE[0]}")/drift_server.py" "${DRIFT_V1_URL##*:}" "${DRIFT_V2_URL##*:}" >"$DRIFT_LOG" 2>&1 &
  DRIFT_PID=$!
  wait_for_server "$DRIFT_V1_URL/health" "$DRIFT_PID" "$DRIFT_LOG" "the drift server (v1)"
  wait_for_server "$DRIFT_V2_URL/health" "$DRIFT_PID" "$DRIFT_LOG" "the drift server (v2)"
}

stop_drift_server() {
  stop_process "${DRIFT_PID:-}"
  DRIFT_PID=
}

# The WebSocket server of our own (scripts/lib/websocket_server.py, Python's `websockets`):
# conversations the WebSocket trait's recording tests record. VENV has `websockets` installed.
start_websocket_server() {
  local venv="$1"
  WEBSOCKETS_PORT=$(free_port)
  WEBSOCKETS_URL="ws://127.0.0.1:$WEBSOCKETS_PORT"
  WEBSOCKETS_LOG=$(mktemp)
  "$venv/bin/python" "$(dirname "${BASH_SOURCE[0]}")/websocket_server.py" "$WEBSOCKETS_PORT" >"$WEBSOCKETS_LOG" 2>&1 &
  WEBSOCKETS_PID=$!
  wait_for_server "http://127.0.0.1:$WEBSOCKETS_PORT/health" "$WEBSOCKETS_PID" "$WEBSOCKETS_LOG" "the WebSocket server"
}

stop_websocket_server() {
  stop_process "${WEBSOCKETS_PID:-}"
  WEBSOCKETS_PID=
}
