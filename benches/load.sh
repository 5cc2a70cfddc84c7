#!/usr/bin/env bash
# HTTP load benchmark of the real server on loopback with wrk (Debian package), bounded in time.
# Usage: benches/load.sh [seconds-per-run] [connection counts] [route names]
#   defaults: 5 seconds, "1 8 32 64", every route; route names: static healthz ask asknew
#   askpos check search. Example: benches/load.sh 5 "32" "healthz asknew". Prints a Markdown table.
#   NO_BUILD=1 skips the release build and CARGO_TARGET_DIR picks the binary
#   ("$CARGO_TARGET_DIR/release/arbiter"): an earlier build measured by the same script.
set -euo pipefail
cd "$(dirname "$0")/.."
DUR="${1:-5}"
CONNS="${2:-1 8 32 64}"
ROUTES="${3:-static healthz ask asknew askpos check search}"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
[ -n "${NO_BUILD:-}" ] || cargo build --release --quiet
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
START=$(date +%s%N)
"${CARGO_TARGET_DIR:-target}/release/arbiter" serve --addr 127.0.0.1:$PORT 2>/tmp/arbiter-load.log &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
until curl -sf http://127.0.0.1:$PORT/healthz >/dev/null; do sleep 0.01; done
READY_MS=$(( ($(date +%s%N) - START) / 1000000 ))
TMP=$(mktemp -d)
post() { # name body
  cat > "$TMP/$1.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[$2]]
LUA
}
# Rulebook questions cycle through the 304 questions of the retrieval evaluation set:
# "repeated" sends them as they are (after the first round every answer comes from the
# server's answer cache, as for a help widget hearing the same questions); "all new" makes
# each request a question never seen before (a counter word appended), so every one is
# answered from scratch.
python3 - "$TMP" <<'PY'
import json, sys, tomllib
with open("tests/search_eval.toml", "rb") as f:
    questions = [json.dumps(q["text"])[1:-1] for q in tomllib.load(f)["query"]]
head = 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nquestions = {\n'
# Each wrk thread runs its own copy of the script: a thread number (set by setup) keeps the
# threads' counters apart, so that "all new" never sends the same question twice.
table = "".join("  %s,\n" % json.dumps(q) for q in questions) + "}\ni = 0\ntid = 0\n"
table += 'threads = 0\nfunction setup(thread)\n  thread:set("tid", threads)\n  threads = threads + 1\nend\n'

for name, suffix in (("ask", ""), ("asknew", ' (q" .. tid .. "-" .. i .. ")')):
    with open(f"{sys.argv[1]}/{name}.lua", "w") as out:
        out.write(head + table)
        out.write('request = function()\n  i = i + 1\n  local q = questions[i % #questions + 1]\n')
        out.write('  return wrk.format(nil, nil, nil, \'{"question": "\' .. q .. "%s" .. \'"}\')\nend\n' % suffix)
PY
post askpos '{"question": "Can I castle short?", "fen": "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"}'
post check '{"fen": "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"}'
echo "start-up to first /healthz: ${READY_MS} ms"
echo
echo "| route | connections | requests/s | p50 | p99 |"
echo "|---|---|---|---|---|"
run() { # label url script conns
  local out
  if [ -n "$3" ]; then out=$(wrk -t"$(( $4 < 2 ? 1 : 2 ))" -c"$4" -d"${DUR}s" --latency -s "$TMP/$3.lua" "$1" 2>&1); else out=$(wrk -t"$(( $4 < 2 ? 1 : 2 ))" -c"$4" -d"${DUR}s" --latency "$1" 2>&1); fi
  local rps p50 p99
  # A benchmark of error responses measures nothing: stop at the first non-2xx.
  if echo "$out" | grep -q 'Non-2xx'; then echo "$2: non-2xx responses" >&2; echo "$out" >&2; exit 1; fi
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1=="50%" {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  echo "| $2 | $4 | $rps | $p50 | $p99 |"
}
route() { # name conns
  local B=http://127.0.0.1:$PORT
  case "$1" in
    static) run "$B/static/style.css" "static file (ceiling)" "" "$2" ;;
    healthz) run "$B/healthz" "GET /healthz" "" "$2" ;;
    ask) run "$B/api/ask" "POST /api/ask (no position, 304 questions repeated)" ask "$2" ;;
    asknew) run "$B/api/ask" "POST /api/ask (no position, every question new)" asknew "$2" ;;
    askpos) run "$B/api/ask" "POST /api/ask (with position)" askpos "$2" ;;
    check) run "$B/api/check" "POST /api/check" check "$2" ;;
    search) run "$B/api/search?q=castle+thru+check" "GET /api/search" "" "$2" ;;
    *) echo "unknown route '$1' (static healthz ask asknew askpos check search)" >&2; exit 2 ;;
  esac
}
for c in $CONNS; do
  for r in $ROUTES; do route "$r" "$c"; done
done
echo
echo "peak RSS: $(awk '/VmHWM/ {print $2, $3}' /proc/$PID/status)"
