/**
 * @module Commands about processes, workers, semaphores and the interpreter, which do not run
 * here: 4D code runs in the request's own process and nothing else is started or waited for. Each
 * is named by `entistore check` and raises 9422 ("no other process") when reached.
 * `Current process name`, `Current process` and `DELAY PROCESS` (of the call's own process) are
 * environment.ts's.
 */
import type { CommandSpec } from './table.js'

const notRunnable = (number: number, name: string): CommandSpec => ({
  number,
  name,
  notRunnable: 'processes',
})

export const PROCESS_COMMANDS: readonly CommandSpec[] = [
  notRunnable(317, 'New process'),
  notRunnable(336, 'PROCESS PROPERTIES'),
  notRunnable(330, 'Process state'),
  notRunnable(372, 'Process number'),
  notRunnable(373, 'Execute on server'),
  notRunnable(1389, 'CALL WORKER'),
  notRunnable(1390, 'KILL WORKER'),
  notRunnable(1641, 'New signal'),
  notRunnable(143, 'Semaphore'),
  notRunnable(144, 'CLEAR SEMAPHORE'),
  notRunnable(652, 'Test semaphore'),
  notRunnable(672, 'Process aborted'),
  notRunnable(311, 'IDLE'),
  notRunnable(156, 'ABORT'),
  notRunnable(1495, 'Process activity'),
  notRunnable(371, 'GET PROCESS VARIABLE'),
  notRunnable(370, 'SET PROCESS VARIABLE'),
]
