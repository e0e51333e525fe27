/**
 * @module The CLI inside a cluster worker of `serve --workers N` (workers.ts has the primary's
 * side): the worker runs the primary's command line with this io.
 */
import cluster from 'node:cluster'
import { BatchedCounts, ReportedSessions } from '@entistore/rest'
import { stopSignal } from '../serve/signals.js'
import type { PrimaryMessage, WorkerMessage } from '../serve/workers.js'
import type { CliIo } from './cli-io.js'

/**
 * The CLI's io inside a cluster worker: its lines go to the primary (which prints them once, not
 * once per worker), it says when it listens, and it stops on the first SIGTERM or SIGINT, ignoring
 * the later ones: Ctrl-C reaches every process of the group and the primary forwards its own
 * SIGTERM too; the primary, not a second signal, decides when to kill. `release` lets go of the
 * channel to the primary once the command is done, so that the worker's process can end.
 */
export function workerIo(io: CliIo): { io: CliIo; release: () => void } {
  const send = (message: WorkerMessage): void => void process.send?.(message)
  return {
    io: {
      ...io,
      out: (line) => send({ entistore: 'line', stream: 'out', line }),
      err: (line) => send({ entistore: 'line', stream: 'err', line }),
      // The request log, a line a request: written here, in writes of whole lines that a pipe
      // or a file the workers share keeps whole (line-batch.ts), not sent to the primary.
      log: io.log ?? io.out,
      stopSignal: io.stopSignal ?? stopSignal({ ignoreLater: true }),
      onListening: (server) => {
        io.onListening?.(server)
        send({ entistore: 'ready', url: server.url })
      },
    },
    // cluster's own disconnect: it marks the exit as wanted (a bare process.disconnect() would
    // make cluster end the process at once, with code 0) after the lines already sent.
    release: () => {
      // Already gone when the primary died (cluster then ends the worker itself).
      if (process.connected) cluster.worker?.disconnect()
    },
  }
}

/**
 * The web server quotas' counts of this worker shared with the others through the primary
 * (workers.ts): what a turn counted goes out in one message, what the others counted comes back.
 */
export function workerQuotaCounts(now: () => number): BatchedCounts {
  const counts = new BatchedCounts(
    (c) => void process.send?.({ entistore: 'counts', counts: c } satisfies WorkerMessage),
    now,
  )
  process.on('message', (m: PrimaryMessage | null) => {
    if (m?.entistore === 'others' && Array.isArray(m.counts)) counts.heard(m.counts)
  })
  return counts
}

/**
 * The sessions of this worker counted with the others' by `nbSessions` and `nbGuestSessions`,
 * through the primary (workers.ts): its own go out when they change, the others' come back.
 */
export function workerSessionCounts(): ReportedSessions {
  const sessions = new ReportedSessions(
    (mine) => void process.send?.({ entistore: 'sessions', ...mine } satisfies WorkerMessage),
  )
  process.on('message', (m: PrimaryMessage | null) => {
    if (m?.entistore === 'sessions') sessions.heard({ sessions: m.sessions, users: m.users })
  })
  return sessions
}
