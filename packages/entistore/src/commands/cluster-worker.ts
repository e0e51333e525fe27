/**
 * @module Whether this process is a worker of `serve --workers N`, decided in one place for the
 * CLI's entry (cli.ts: a worker's output goes to its primary) and for `serve` (serve-run.ts: the
 * heap advice, the primary's own work, the worker's id in logs and health).
 */
import type { Worker } from 'node:cluster'

/**
 * The cluster worker this process is, or undefined. Every cluster worker has an IPC channel to its
 * primary: without one, node:cluster (2–3 ms of a start, Node's cluster modules loaded and
 * compiled) is not imported to say so.
 */
export async function clusterWorker(): Promise<Worker | undefined> {
  return process.send === undefined ? undefined : (await import('node:cluster')).default.worker
}
