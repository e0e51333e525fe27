/**
 * @module Node's built-in modules for the few commands that need one (a digest, a ZIP archive, a
 * bounded regular expression, the compiler's `vm`), asked of `process.getBuiltinModule` when
 * first needed rather than imported: a bundler follows every `import`, and one of `node:crypto`
 * stops the language's bundle for a page (issue 81), while this call it does not see. On Node
 * (20.16 and later, which the engines field asks) each answers what the import would; in a page
 * there is none, and each caller says what it does without (a 4D error, or a plainer way).
 */
import type * as Crypto from 'node:crypto'
import type * as Vm from 'node:vm'
import type * as Zlib from 'node:zlib'

interface Builtins {
  'node:crypto': typeof Crypto
  'node:vm': typeof Vm
  'node:zlib': typeof Zlib
}

type GetBuiltin = (name: string) => unknown

const getBuiltin: GetBuiltin | undefined = (
  globalThis as { process?: { getBuiltinModule?: GetBuiltin } }
).process?.getBuiltinModule

/** Node's module `name`, or undefined where there is no Node (a page, a service worker). */
export function nodeBuiltin<K extends keyof Builtins>(name: K): Builtins[K] | undefined {
  return getBuiltin?.(name) as Builtins[K] | undefined
}
