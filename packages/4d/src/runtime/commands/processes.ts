/**
 * @module Commands about processes, workers and signals. 4D code runs in its call's own process;
 * `CALL WORKER` queues a job on a worker the host keeps (project/workers.ts: run after the
 * calling code's turn, in order, as the caller, with the worker's process variables kept),
 * `KILL WORKER` drops one, `New signal` makes the object a caller waits on (classes/signal.ts).
 * `IDLE` has nothing to give way to and returns; `Process aborted` is False. The rest start or
 * inspect other processes and do not run here: each is named by `entistore check` and raises
 * 9422 ("no other process") when reached. `Current process name`, `Current process` and
 * `DELAY PROCESS` are environment.ts's.
 */
import { textArg } from '../arguments/arguments.js'
import { FourDSignal } from '../classes/signal.js'
import type { CommandContext, WorkerHost } from '../context/command-context.js'
import { FourDFunction } from '../context/function-object.js'
import { raise } from '../errors/fourd-error.js'
import type { CommandSpec } from './table.js'

const notRunnable = (number: number, name: string): CommandSpec => ({
  number,
  name,
  notRunnable: 'processes',
})

function workers(rt: CommandContext, command: string): WorkerHost {
  return rt.workers ?? raise('NoOtherProcess', { name: command })
}

/** A worker's name: a text, or the number 4D gives a process (kept as its text here). */
function workerName(command: string, v: unknown): string {
  if (typeof v === 'number') return String(v)
  const name = textArg(command, 'process', v)
  return name === ''
    ? raise('InvalidArgument', { parameter: 'process', command, detail: 'a worker needs a name' })
    : name
}

export const PROCESS_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1389,
    name: 'CALL WORKER',
    signature: '(process: any; formula: any; ...params: any)',
    impl: (rt, process, formula, ...params) => {
      const name = workerName('CALL WORKER', process)
      const job =
        formula instanceof FourDFunction
          ? formula
          : typeof formula === 'string' && formula !== ''
            ? formula
            : raise('InvalidArgument', {
                parameter: 'formula',
                command: 'CALL WORKER',
                detail: 'give a formula or the name of a project method',
              })
      workers(rt, 'CALL WORKER').call(name, job, params)
    },
  },
  {
    number: 1390,
    name: 'KILL WORKER',
    signature: '(process?: any)',
    impl: (rt, process) => {
      const name = process === undefined ? rt.worker : workerName('KILL WORKER', process)
      // Called outside a worker without a name, KILL WORKER does nothing (kill-worker.md).
      if (name !== undefined) workers(rt, 'KILL WORKER').kill(name)
    },
  },
  {
    number: 1641,
    name: 'New signal',
    signature: '(description?: Text): Object',
    impl: (_rt, description) =>
      new FourDSignal(
        description === undefined ? '' : textArg('New signal', 'description', description),
      ),
  },
  // Nothing else runs meanwhile in this process: there is nothing to give way to.
  { number: 311, name: 'IDLE', signature: '()', impl: () => undefined },
  // No process is aborted from outside here: a call that runs too long ends with its budget.
  { number: 672, name: 'Process aborted', signature: '(): Boolean', impl: () => false },
  notRunnable(317, 'New process'),
  notRunnable(336, 'PROCESS PROPERTIES'),
  notRunnable(330, 'Process state'),
  notRunnable(372, 'Process number'),
  notRunnable(373, 'Execute on server'),
  notRunnable(143, 'Semaphore'),
  notRunnable(144, 'CLEAR SEMAPHORE'),
  notRunnable(652, 'Test semaphore'),
  notRunnable(156, 'ABORT'),
  notRunnable(1495, 'Process activity'),
  notRunnable(371, 'GET PROCESS VARIABLE'),
  notRunnable(370, 'SET PROCESS VARIABLE'),
]
