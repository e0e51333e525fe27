/**
 * @module What 4D code learns of the application it runs in
 * (docs/commands/theme/System_Environment.md, 4D_Environment.md and Processes.md): `Is macOS` and `Is Windows` are False (Entistore runs on
 * Node, on any system, and code that branches on them must take its portable branch);
 * `Application version` is the 4D release whose REST behaviour Entistore follows, 21 R4 ("2140",
 * "F0002140" with `*`, build 0); `Application type` is `4D Server` (5): Entistore serves the REST
 * API as 4D Server does, and code that tests for the server (application-type.md's example) must
 * take its server branch; `Is compiled mode` is True: the code is compiled (to JavaScript) before
 * it runs, and code kept for interpreted mode (is-compiled-mode.md's example: debugging code) is
 * skipped as in a compiled application. `Current process name` names the process a call runs in
 * and `Current process` numbers it, one number a running context (a call's, a request's), the
 * same at each read; `DELAY PROCESS` of that process returns at once (below); `Current user` is
 * "Designer", the name 4D gives when no 4D user accounts are set up (a project's REST users are
 * its sessions' `Session.userName`, not 4D users). The choices are in compat.md.
 */
import { integerArg, isStar, numberArg } from '../arguments/arguments.js'
import { outArg } from '../arguments/out-parameter.js'
import type { CommandContext } from '../context/command-context.js'
import type { CommandSpec } from './table.js'

/** 4D 21 R4, as `Application version` encodes it: version 21, R 4, revision 0. */
export const APPLICATION_VERSION = '2140'

/** The name `Current process name` gives: each call runs in a process of its own. */
export const PROCESS_NAME = 'REST Handler'

/** `Application type`: 4D Server (application-type.md's table). */
const FOUR_D_SERVER = 5

// `Current process`: the number of each running context, given at its first read (a counter, so
// that two calls never share one while both run; past MAXLONG it starts again at 1).
const MAXLONG = 2147483647
const processNumbers = new WeakMap<CommandContext, number>()
let lastProcess = 0

function processNumber(rt: CommandContext): number {
  let n = processNumbers.get(rt)
  if (n === undefined) {
    lastProcess = lastProcess >= MAXLONG ? 1 : lastProcess + 1
    processNumbers.set(rt, (n = lastProcess))
  }
  return n
}

export const ENVIRONMENT_COMMANDS: readonly CommandSpec[] = [
  { number: 1572, name: 'Is macOS', signature: '(): Boolean', impl: () => false },
  { number: 1573, name: 'Is Windows', signature: '(): Boolean', impl: () => false },
  {
    number: 493,
    name: 'Application version',
    signature: '(buildNum?: any; star?: any): Text',
    writes: [0],
    impl: (_rt, ...args) => {
      const star = args.length > 0 && isStar(args.at(-1))
      const build = star ? args.slice(0, -1)[0] : args[0]
      if (build !== undefined) outArg('Application version', 'buildNum', build).set(0)
      return star ? `F000${APPLICATION_VERSION}` : APPLICATION_VERSION
    },
  },
  { number: 494, name: 'Application type', signature: '(): Integer', impl: () => FOUR_D_SERVER },
  { number: 492, name: 'Is compiled mode', signature: '(star?: any): Boolean', impl: () => true },
  { number: 182, name: 'Current user', signature: '(): Text', impl: () => 'Designer' },
  {
    number: 1392,
    name: 'Current process name',
    signature: '(): Text',
    impl: (rt) => rt.worker ?? PROCESS_NAME,
  },
  {
    number: 322,
    name: 'Current process',
    signature: '(): Integer',
    impl: (rt) => processNumber(rt),
  },
  {
    // delay-process.md: the process "does not take any processing time" for `duration` ticks.
    // Code never blocks the server's one thread, which serves every other request meanwhile: of
    // the current process, the delay returns at once (the call keeps the budget it has, which a
    // wait would only spend); of another, there is none here, and "If the process does not
    // exist, the command does nothing". Neither raises.
    number: 323,
    name: 'DELAY PROCESS',
    signature: '(process: Integer; duration: Real)',
    impl: (_rt, process, duration) => {
      integerArg('DELAY PROCESS', 'process', process)
      numberArg('DELAY PROCESS', 'duration', duration)
    },
  },
]
