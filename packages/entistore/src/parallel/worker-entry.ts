/**
 * @module How a pool's worker thread is started: the file it runs and the Node options it keeps.
 */

/**
 * The worker's entry. Built, it is pool-worker.js beside this file (dist/parallel/). Run from its
 * TypeScript source (vitest, tsx), this module is src/parallel/worker-entry.ts, but a worker
 * thread is a plain Node thread that cannot load TypeScript (Node 20): the entry is then the built
 * dist/parallel/pool-worker.js (`npm test` builds first, `pretest`; the pool says so when it is
 * missing), which loads the built core's kernels (see `workerExecArgv`).
 */
export function workerEntry(): URL {
  const here = import.meta.url
  return here.endsWith('.ts')
    ? new URL('../../dist/parallel/pool-worker.js', here)
    : new URL('./pool-worker.js', here)
}

/** The Node options a worker keeps: how warnings and errors are told, nothing that loads code. */
const KEPT = new Set([
  '--enable-source-maps',
  '--no-warnings',
  '--no-deprecation',
  '--trace-warnings',
  '--trace-uncaught',
  '--unhandled-rejections',
])

/**
 * The main thread's Node options a worker is started with (it inherits them all by default): only
 * those of `KEPT`. A worker refuses V8's and the process's options (`--max-old-space-size`, which
 * `entistore serve` is often started with for a large file: "Initiated Worker with invalid
 * execArgv flags"); the script of `node -e` and its `--input-type` break a file entry; the
 * `--conditions` of vitest and tsx (`source`) would resolve `@entistore/core/kernels` to a
 * TypeScript file it cannot load; and it runs built code, which needs no loader (`--import`).
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  return execArgv.filter((arg) => KEPT.has(arg.split('=', 1)[0]!))
}
