#!/usr/bin/env bash
# Installs what the tests start for themselves from Debian's packages, no containers: the servers
# of the cluster tests (a throwaway PostgreSQL cluster and a Redis server per test file, on free
# ports, in temporary folders) and the Chromium that drives the explorer page's browser tests.
# Nothing is started here, and nothing is installed that is already there.
set -euo pipefail
need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -eq 0 ]; then
  echo "PostgreSQL $(ls /usr/lib/postgresql | sort -n | tail -1), $(redis-server --version | cut -d' ' -f1-3) and $(/usr/bin/chromium --version 2>/dev/null | cut -d' ' -f1-2) are installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# Debian starts the packaged services; the tests do not use them, so they are stopped again.
$sudo service redis-server stop >/dev/null 2>&1 || true
$sudo service postgresql stop >/dev/null 2>&1 || true
echo "installed: PostgreSQL $(ls /usr/lib/postgresql | sort -n | tail -1), $(redis-server --version | cut -d' ' -f1-3), $(/usr/bin/chromium --version 2>/dev/null | cut -d' ' -f1-2)"
