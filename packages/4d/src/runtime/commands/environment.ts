/**
 * @module What 4D code learns of the application it runs in (docs/commands/theme/System_Environment.md
 * and Processes.md): `Is macOS` and `Is Windows` are False (Entistore runs on Node, on any system,
 * and code that branches on them must take its portable branch); `Application version` is the 4D
 * release whose REST behaviour Entistore follows, 21 R4 ("2140", "F0002140" with `*`, build 0);
 * `Current process name` names the process a call runs in; `Current user` is "Designer", the
 * name 4D gives when no 4D user accounts are set up (a project's REST users are its sessions'
 * `Session.userName`, not 4D users). The choices are in compat.md.
 */
import { isStar } from '../arguments/arguments.js'
import { outArg } from '../arguments/out-parameter.js'
import type { CommandSpec } from './table.js'

/** 4D 21 R4, as `Application version` encodes it: version 21, R 4, revision 0. */
export const APPLICATION_VERSION = '2140'

/** The name `Current process name` gives: each call runs in a process of its own. */
export const PROCESS_NAME = 'REST Handler'

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
  { number: 182, name: 'Current user', signature: '(): Text', impl: () => 'Designer' },
  {
    number: 1392,
    name: 'Current process name',
    signature: '(): Text',
    impl: () => PROCESS_NAME,
  },
]
