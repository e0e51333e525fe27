/**
 * @module How the package's worker threads are started: the file each runs and the Node options
 * it keeps. Used by the pool of parallel reads (pool-worker.js) and by the request log's thread
 * (log-output/logging-thread.js).
 */

/**
 * The built script `file` (a path under dist/, `parallel/pool-worker.js`). Built, this module is
 * dist/parallel/worker-entry.js and the script is found from it. Run from its TypeScript source
 * (vitest, tsx), this module is src/parallel/worker-entry.ts, but a worker thread is a plain Node
 * thread that cannot load TypeScript (Node 20): the script is then the built one all the same
 * (`npm test` builds first, `pretest`; each user says when it is missing), which loads built
 * code (see `workerExecArgv`).
 */
export function threadEntry(file: string): URL {
  const here = import.meta.url
  const dist = here.endsWith('.ts') ? new URL('../../dist/', here) : new URL('../', here)
  return new URL(file, dist)
}

/** The entry of the pool's worker threads. */
export function workerEntry(): URL {
  return threadEntry('parallel/pool-worker.js')
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
