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

/** Options taking a value, as the next argument or after `=`. */
const DROPPED = new Set(['--conditions', '-C', '--input-type', '-e', '--eval', '-p', '--print'])

/**
 * The main thread's Node options, for a worker (which inherits them all by default) less those
 * that would break it: the script of `node -e` (and its `--input-type`, which a file entry
 * refuses), and the `--conditions` (vitest's and tsx's `source`) that would resolve
 * `@entistore/core/kernels` to a TypeScript file the worker cannot load: a worker runs the built
 * code, its entry and the kernels alike. Loaders (`--import`, `--require`) and limits stay.
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!
    const name = arg.split('=', 1)[0]!
    if (!DROPPED.has(name)) kept.push(arg)
    else if (name === arg) i++ // its value is the next argument
  }
  return kept
}
