/**
 * @module `node:http`, taken from `process.getBuiltinModule` rather than an `import`. Importing a
 * built-in from an ES module makes its ES facade, which reads every export: `node:http`'s lazy
 * `WebSocket` and event classes then load undici, 20 ms of every start-up on Node 24 (17 on Node
 * 20) for a server that never uses them. The call answers the same module object without it.
 * Types still come from `import type`, which leaves nothing at run time.
 */
import type * as Http from 'node:http'

export const http: typeof Http = process.getBuiltinModule('node:http')
