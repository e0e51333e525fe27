#!/usr/bin/env bash
# Runs one of the release tools (a binary of tools/release/node_modules/.bin) from the repository's
# root, installing them first when their lockfile changed since the last install. They stay out of
# the root install: together they weigh 180 MB, and `npm install` on a fresh machine is for building,
# testing and starting Entistore (under 200 MB), not for releasing it.
#   bash tools/release/run.sh <tool> [args...]     e.g. changeset, api-extractor, knip, publint
#   bash tools/release/run.sh --install            installs them, runs nothing
set -euo pipefail
kit=$(cd "$(dirname "$0")" && pwd)
stamp="$kit/node_modules/.lock-stamp"
want=$(sha256sum "$kit/package-lock.json" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "release tools: installing them into tools/release/node_modules (once per lockfile change)" >&2
  npm ci --prefix "$kit" --no-audit --no-fund --silent >&2
  echo "$want" >"$stamp"
fi
tool=$1
shift
# `--install` only installs (CI does it once, before its checks run beside each other).
[ "$tool" = --install ] && exit 0
cd "$kit/../.."
if [ -x "$kit/node_modules/.bin/$tool" ]; then
  exec "$kit/node_modules/.bin/$tool" "$@"
fi
# A script of the kit's own (tools/release/<tool>.mjs): it resolves the kit's packages first.
exec node "$kit/$tool.mjs" "$@"
