/**
 * @module Commands about processes, workers and signals. 4D code runs in its call's own process;
 * `CALL WORKER` queues a job on a worker the host keeps (project/workers.ts: run after the
 * calling code's turn, in order, as the caller, with the worker's process variables kept);
 * `New process` runs a method once so, as a process of its own whose number it answers;
 * `KILL WORKER` drops one, `New signal` makes the object a caller waits on (classes/signal.ts).
 * `IDLE` has nothing to give way to and returns; `Process aborted` is False. The rest start or
 * inspect other processes and do not run here: each is named by `entistore check` and raises
 * 9422 ("no other process") when reached. `Current process name`, `Current process` and
 * `DELAY PROCESS` are environment.ts's.
 */
import { isStar, textArg } from '../arguments/arguments.js'
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

/** What a worker or a process runs: a formula, or a project method's name. */
function jobOf(command: string, v: unknown): FourDFunction | string {
  if (v instanceof FourDFunction) return v
  if (typeof v === 'string' && v !== '') return v
  return raise('InvalidArgument', {
    parameter: 'method',
    command,
    detail: 'give a formula or the name of a project method',
  })
}

export const PROCESS_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1389,
    name: 'CALL WORKER',
    signature: '(process: any; formula: any; ...params: any)',
    impl: (rt, process, formula, ...params) => {
      const name = workerName('CALL WORKER', process)
      workers(rt, 'CALL WORKER').call(name, jobOf('CALL WORKER', formula), params)
    },
  },
  {
    number: 317,
    name: 'New process',
    signature: '(method: any; stack: any; name?: any; ...params: any)',
    impl: (rt, method, _stack, name, ...rest) => {
      const unique = rest.length > 0 && isStar(rest.at(-1))
      const params = unique ? rest.slice(0, -1) : rest
      const job = jobOf('New process', method)
      const title = name === undefined ? '' : textArg('New process', 'name', name)
      return workers(rt, 'New process').spawn(title, job, params, unique)
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
