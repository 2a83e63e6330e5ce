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
