/**
 * @module `LOG EVENT({outputType;} message {; importance})` (docs/commands/log-event.md): the
 * message goes to the host's log (`entistore serve`: a line on stderr) with its importance,
 * whatever the output type names (4D's debug messages, Windows' log events, its request and
 * diagnostic logs, the standard outputs: the server's one log stands for each). Without a host
 * log (code run alone) the message goes nowhere, as 4D's does with an output it does not have.
 */
import { integerArg, textArg } from '../arguments/arguments.js'
import type { CommandSpec } from './table.js'

// The page's importance levels: Information message 0, Warning message 1, Error message 2; any
// other value is 0.
const IMPORTANCE = ['information', 'warning', 'error'] as const

export const LOG_EVENT_COMMANDS: readonly CommandSpec[] = [
  {
    number: 667,
    name: 'LOG EVENT',
    signature: '(outputType?: any; message?: any; importance?: any)',
    impl: (rt, ...args) => {
      // One argument is the message; with more, a number first is the output type.
      const [, message, importance] =
        args.length === 1 || typeof args[0] !== 'number' ? [0, ...args] : args
      const level = importance === undefined ? 0 : integerArg('LOG EVENT', 'importance', importance)
      rt.log?.(IMPORTANCE[level] ?? 'information', textArg('LOG EVENT', 'message', message))
    },
  },
]
