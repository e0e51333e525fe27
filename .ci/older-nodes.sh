#!/usr/bin/env bash
# The supported Node lines besides the one the tests run on (24): on each given line, the packages
# as a user installs them (.ci/pack-smoke.sh: the tarballs in a scratch project, the smoke
# program, the CLI; the strict consumer's types, the same on every line, are Node 24's run's),
# `serve` on the demo (.ci/smoke-serve.sh), and the tests of what differs between Node versions
# (worker threads over shared memory, type stripping of a functions module, streamed reads of a
# file, the node:http adapter). One line after the other. With PACK_SMOKE_TARBALLS (CI's), the
# tarballs the Node 24 check packed are the ones installed on every line.
#   bash .ci/older-nodes.sh 22 20
set -euo pipefail
cd "$(dirname "$0")/.."
VERSIONED_TESTS=(
  packages/entistore/src/parallel/worker-pool.test.ts
  packages/entistore/src/load/load-functions.test.ts
  packages/entistore/src/files/data-stream.prop.test.ts
  packages/entistore/src/load/load-heap.test.ts
  packages/rest/src/node/conformance.test.ts
)
# Installed first, in a command substitution: a failed install stops the script here (set -e),
# where a loop reading the installer's output would have run no line and passed.
installed=$(bash .ci/install-node.sh "$@")
[ "$(wc -l <<<"$installed")" -eq $# ] || { echo "older nodes: not every line installed: $installed"; exit 1; }
while read -r major dir; do
  echo "== Node $major ($("$dir/bin/node" --version))"
  (
    export PATH="$dir/bin:$PATH" npm_config_nodedir="$dir"
    PACK_SMOKE_TYPES=skip bash .ci/pack-smoke.sh
    bash .ci/smoke-serve.sh
    npx --no-install vitest run "${VERSIONED_TESTS[@]}"
  )
done <<<"$installed"
