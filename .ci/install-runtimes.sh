#!/usr/bin/env bash
# Installs Bun and Deno, the two other JavaScript runtimes the fetch adapter's tests run it on,
# from their npm packages (Linux x64 builds), into .runtimes/ beside the repository's
# node_modules. They are 195 MB together, so `npm install` of the repository does not fetch them:
# CI runs this script, and so can anyone who wants those tests (they are skipped, saying so,
# where the runtimes are missing). Nothing is installed that is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "Bun and Deno: only Linux x64 builds are installed here; their tests are skipped elsewhere"
  exit 0
fi
BUN="@oven/bun-linux-x64@1.4.5"
DENO="@deno/linux-x64-glibc@2.9.6"
if [ -x .runtimes/node_modules/@oven/bun-linux-x64/bin/bun ] &&
  [ -x .runtimes/node_modules/@deno/linux-x64-glibc/deno ]; then
  echo "Bun $(.runtimes/node_modules/@oven/bun-linux-x64/bin/bun --version) and $(.runtimes/node_modules/@deno/linux-x64-glibc/deno --version | head -1) are installed"
  exit 0
fi
mkdir -p .runtimes
# A folder of its own, with a package.json of its own: the repository's lock is not touched.
[ -f .runtimes/package.json ] || echo '{ "private": true }' > .runtimes/package.json
npm install --prefix .runtimes --no-audit --no-fund --no-package-lock --loglevel=error "$BUN" "$DENO"
echo "installed: Bun $(.runtimes/node_modules/@oven/bun-linux-x64/bin/bun --version), $(.runtimes/node_modules/@deno/linux-x64-glibc/deno --version | head -1)"
