#!/usr/bin/env bash
# The packages as a user of another project gets them: `npm pack` each workspace, install the four
# tarballs into a scratch project outside the repository, then compile a smoke program against their
# published types and run it (library, typed models, the node and Express adapters, the fixture,
# serve()), and run the installed `entistore` CLI. Before Express is installed, a strict consumer
# compiles against every public entry without the optional peer dependencies.
#
# PACK_SMOKE_KEEP=<folder>: the scratch project, tarballs and msw installed, is moved there at the
# end (CI's tests then run it in Chromium, installed after this runs: packed-in-page.test.ts).
# PACK_SMOKE_TARBALLS=<folder>: the tarballs are packed there, or, when it holds them already, taken
# from there: CI packs once and checks the same tarballs on every Node line (a pack is some 20 s
# of CPU, and a tarball does not depend on the Node that packed it).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/app"
tarballs=${PACK_SMOKE_TARBALLS:-$scratch/tarballs}
mkdir -p "$tarballs"

if compgen -G "$tarballs/*.tgz" >/dev/null; then
  echo "pack smoke: the tarballs packed before, in $tarballs"
else
  (cd "$repo" && npm pack --workspaces --pack-destination "$tarballs" --silent >/dev/null)
fi
for t in "$tarballs"/*.tgz; do
  # The listing is read whole first, and grep reads it from a here-string: `grep -q` stopping early
  # would fail the writer of a pipe under pipefail.
  listing=$(tar -tzf "$t")
  # The compiled code and its types only: no build cache, no tests, no TypeScript sources and no
  # source maps (they were most of an install's megabytes, for the monorepo's own debugging).
  extra=$(grep -E '\.tsbuildinfo$|\.map$|\.ts$' <<<"$listing" | grep -Ev '\.d\.ts$' || true)
  if [ -n "$extra" ]; then
    echo "pack smoke: $(basename "$t") carries a build cache, a source map or a source file: $extra"; exit 1
  fi
  # The main entry: tsc's file, or the bundle of a library package (tools/bundle.ts).
  main=$(tar -xzOf "$t" package/package.json | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).main.replace(/^\.\//, "")))')
  for f in package/README.md package/LICENSE "package/$main" package/dist/index.d.ts; do
    grep -qx "$f" <<<"$listing" || { echo "pack smoke: $(basename "$t") lacks $f"; exit 1; }
  done
done
echo "pack smoke: $(ls "$tarballs" | tr '\n' ' ')"

cd "$scratch/app"
echo '{ "name": "scratch-app", "private": true, "type": "module" }' >package.json
npm install --no-audit --no-fund --silent "$tarballs"/*.tgz
# A strict consumer (strict, skipLibCheck: false) of every public entry, with the tarballs alone:
# none of the optional peers (pg, ioredis, sharp, …, nor their @types) may be installed, nor be
# needed by the types. Node's types only, linked from the repository into a folder of their own:
# a typeRoots of the repository's whole node_modules/@types would resolve `pg` there and hide a
# leak (it did: writer-lease.d.ts).
# The compiler gives the same answer on every Node line: .ci/older-nodes.sh asks it once, on 24
# (PACK_SMOKE_TYPES=skip on the others), since its runs share CI's two cores with the tests.
if [ "${PACK_SMOKE_TYPES:-}" != skip ]; then
  mkdir strict-types
  ln -s "$repo/node_modules/@types/node" strict-types/node
  node "$repo/.ci/pack-smoke/strict-consumer.mjs" >strict-consumer.ts
  cp "$repo/.ci/pack-smoke/tsconfig.strict.json" .
  node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.strict.json || {
    echo "pack smoke: the public entries' types do not compile without the optional peers"; exit 1
  }
  echo "pack smoke: a strict consumer compiles $(grep -c '^export' strict-consumer.ts) entries without the optional peers"
fi
npm install --no-audit --no-fund --silent express@5 @types/express@5
cp "$repo/.ci/pack-smoke/smoke.ts" "$repo/.ci/pack-smoke/tsconfig.json" .
npx --no-install entistore types --model "$repo/examples/company/model.json" --out model-types.ts
# Node's types come from the repository: the scratch project installs nothing but the tarballs.
node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.json --typeRoots "$repo/node_modules/@types" --types node
node out/smoke.js "$repo/examples/company/model.json" "$repo/examples/company/data.json"
# entistore/msw as a front end installs it: the tarballs and msw, no server process. msw 3 runs on
# Node 22 and later: on an older one (.ci/older-nodes.sh) the script says it skips, and nothing
# is installed for it.
cp "$repo/.ci/pack-smoke/msw-smoke.mjs" "$repo/packages/entistore/src/browser/shop.json" .
if [ "$(node -p 'process.versions.node.split(".")[0] >= 22')" = true ]; then
  npm install --no-audit --no-fund --silent msw@3
fi
# A 4D project as one module, by the installed CLI (msw-smoke.mjs serves it).
npx --no-install entistore bundle --project "$repo/examples/car-rental" --data "$repo/examples/car-rental/csv" --out project.js
node msw-smoke.mjs

# The installed CLI, as `npx entistore` finds it in the scratch project.
npx --no-install entistore --version
# Without pg, --postgres is refused in one line that names the package, exit 1 (the installed
# command itself: npx may add warnings of its own on stderr).
set +e
refused=$(node_modules/.bin/entistore serve --model "$repo/examples/company/model.json" --postgres postgres://127.0.0.1:1/none 2>&1)
code=$?
set -e
expected='entistore: --postgres needs the package pg: npm install pg'
[ "$code" = 1 ] && [ "$refused" = "$expected" ] || {
  echo "pack smoke: serve --postgres without pg exited $code: $refused"; exit 1
}
echo "pack smoke: $refused"
ENTISTORE_SMOKE_DIR="$repo/examples/company" bash "$repo/.ci/smoke-serve.sh"
if [ -n "${PACK_SMOKE_KEEP:-}" ]; then
  rm -rf "$PACK_SMOKE_KEEP"
  mv "$scratch/app" "$PACK_SMOKE_KEEP"
  echo "pack smoke: the scratch project kept in $PACK_SMOKE_KEEP"
fi
