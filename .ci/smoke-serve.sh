#!/usr/bin/env bash
# Starts `npx entistore serve --port 0` on the demo (or on $ENTISTORE_SMOKE_DIR, from the current
# directory's node_modules), waits for its URL line, reads the catalog.
set -euo pipefail
log=$(mktemp)
dir=${ENTISTORE_SMOKE_DIR:-examples/company}
# In a session of its own: npx runs the server as its child, which a kill of npx alone left
# running after the script (re-parented to init); the whole group is stopped on exit.
setsid npx --no-install entistore serve --model "$dir/model.json" --data "$dir/data.json" --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ /]*' "$log" | head -n 1 || true)
  [ -n "$url" ] && break
  kill -0 $pid 2>/dev/null || { cat "$log"; echo "smoke: the server exited"; exit 1; }
  sleep 0.1
done
[ -n "${url:-}" ] || { cat "$log"; echo "smoke: no URL printed"; exit 1; }
body=$(curl -sf "$url/rest/\$catalog")
echo "$body" | grep -q '"dataClasses"' || { echo "smoke: unexpected catalog: $body"; exit 1; }
echo "smoke: $url/rest/\$catalog answered"
