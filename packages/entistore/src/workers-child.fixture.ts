/**
 * @module For the real node:cluster test: the primary of `--workers 2` (superviseWorkers with
 * cluster's fork) and its workers (the CLI's main, in a cluster worker), run from the sources.
 * The CLI itself refuses two workers without --postgres; this runs the same two halves without
 * that check, so that the processes are tested where no PostgreSQL is. Test-only.
 */
import cluster from 'node:cluster'
import { main } from './cli.js'
import { stopSignal } from './signals.js'
import { clusterFork, superviseWorkers } from './workers.js'

process.exitCode = cluster.isPrimary
  ? await superviseWorkers({
      count: 2,
      fork: clusterFork,
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      stopSignal: stopSignal(),
      stopTimeoutMs: 10_000,
      restart: { firstDelayMs: 10 },
    })
  : await main(process.argv.slice(2))
