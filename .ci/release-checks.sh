#!/usr/bin/env bash
# The release checks, after the install and its build: the API reports against the build
# (api-extractor), the packed tarballs linted (publint, arethetypeswrong, require() of every
# entry), no unused file or dependency (knip), and the demo's OpenAPI description linted (Redocly) with its checked-in client types current. Their tools are
# the release kit's (tools/release/run.sh installs it on first use). Runs every check, prints the
# log of each that failed, and exits 1 if any did.
set -uo pipefail
cd "$(dirname "$0")/.."

# The kit is installed once, before the checks.
bash tools/release/run.sh --install || exit 1

failed=0
for check in api:check lint:packages knip openapi:check; do
  if log=$(npm run --silent "$check" 2>&1); then
    echo "== release checks: $check passed"
  else
    echo "== release checks: $check FAILED:"
    echo "$log"
    failed=1
  fi
done
exit "$failed"
