/**
 * @module The Sessions theme (docs/commands/session.md): `Session`, the session the code runs for —
 * the object the host gives the running context (`rt.session`: over REST, the request's session
 * with 4D's Session members, src/orda/session-handle.ts) —, Null when it runs for none, as 4D
 * answers outside a web session.
 */
import type { CommandSpec } from './table.js'

export const SESSION_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1714,
    name: 'Session',
    signature: '(): Object',
    impl: (rt) => rt.session ?? null,
  },
]
