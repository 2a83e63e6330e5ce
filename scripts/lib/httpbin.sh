# Start and stop httpbin under gunicorn on a free loopback port. Sourced by scripts.

start_httpbin() {
  local venv="$1"
  HTTPBIN_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  HTTPBIN_URL="http://127.0.0.1:$HTTPBIN_PORT"
  HTTPBIN_LOG=$(mktemp)
  "$venv/bin/gunicorn" --bind "127.0.0.1:$HTTPBIN_PORT" --workers 4 --threads 4 --log-level warning httpbin:app >"$HTTPBIN_LOG" 2>&1 &
  HTTPBIN_PID=$!
  for _ in $(seq 1 100); do
    if python3 -c "import urllib.request,sys; urllib.request.urlopen('$HTTPBIN_URL/get', timeout=1)" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$HTTPBIN_PID" 2>/dev/null; then
      echo "httpbin exited early:" >&2; cat "$HTTPBIN_LOG" >&2; return 1
    fi
    sleep 0.2
  done
  echo "httpbin did not answer on $HTTPBIN_URL" >&2
  cat "$HTTPBIN_LOG" >&2
  return 1
}

stop_httpbin() {
  if [[ -n "${HTTPBIN_PID:-}" ]]; then
    kill "$HTTPBIN_PID" 2>/dev/null || true
    wait "$HTTPBIN_PID" 2>/dev/null || true
    HTTPBIN_PID=
  fi
}

# The streaming server of our own (scripts/lib/stream_server.py), for what httpbin cannot
# serve: server-sent events with known gaps, never-ending and broken streams.
start_stream_server() {
  STREAMS_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  STREAMS_URL="http://127.0.0.1:$STREAMS_PORT"
  STREAMS_LOG=$(mktemp)
  python3 "$(dirname "${BASH_SOURCE[0]}")/stream_server.py" "$STREAMS_PORT" >"$STREAMS_LOG" 2>&1 &
  STREAMS_PID=$!
  for _ in $(seq 1 50); do
    if python3 -c "import urllib.request; urllib.request.urlopen('$STREAMS_URL/sse?count=1&gap=0', timeout=1).read()" 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  echo "the streaming server did not answer on $STREAMS_URL" >&2
  cat "$STREAMS_LOG" >&2
  return 1
}

stop_stream_server() {
  if [[ -n "${STREAMS_PID:-}" ]]; then
    kill "$STREAMS_PID" 2>/dev/null || true
    wait "$STREAMS_PID" 2>/dev/null || true
    STREAMS_PID=
  fi
}
