/**
 * @module How a collection function is declared: its name, its signature in the command table's
 * short form (`(index: Integer; element: any): Collection`), and its code, which receives the
 * running context, the collection and the parameters. The table built from the declarations
 * checks the number of parameters at each call (4D's compiler would refuse the call; here it
 * fails when reached, as a command with a wrong count does).
 */
import { raise } from '../../errors/fourd-error.js'
import { parseSignature, type Signature } from '../../arguments/signature.js'
import type { CollectionFunction, CollectionSteps } from '../../context/runtime-parts.js'
import type { Runtime } from '../../context/runtime.js'
import type { Collection } from '../../values/collection.js'
import { plainOf, type Work } from '../../values/work.js'

// The context owns the types: it calls them (runtime-parts.ts).
export type { CollectionFunction, CollectionSteps }

export interface CollectionFunctionSpec {
  readonly name: string
  /** Parameters and result as docs/API/CollectionClass.md gives them. */
  readonly signature: string
  readonly impl?: CollectionFunction
  /**
   * The same work as steps (values/work.ts), for a function that may run long on a large
   * collection: a call in slices goes into them. With no `impl`, the plain call runs them to their
   * end at once.
   */
  readonly steps?: SpecSteps
}

/**
 * A function's steps, told whether a call in slices runs them (`inSlices`): then they go into the
 * own steps of the callbacks that have them (callbacks.ts `callSteps`). The plain call, which runs
 * them to their end at once, leaves it out, and they call each callback at once: a generator a
 * callback's call would cost it for nothing.
 */
export type SpecSteps = (
  rt: Runtime,
  self: Collection,
  args: unknown[],
  inSlices?: boolean,
) => Work<unknown>

export interface CollectionFunctionEntry extends CollectionFunctionSpec {
  readonly parsed: Signature
}

const count = (n: number): string => `${n} parameter${n === 1 ? '' : 's'}`

function arity({ min, max }: Signature): string {
  if (min === max) return count(min)
  return max === Infinity ? `at least ${count(min)}` : `${min} to ${max} parameters`
}

/** The functions by name, each checking its number of parameters before it runs. */
export function buildCollectionFunctions(groups: readonly (readonly CollectionFunctionSpec[])[]): {
  readonly functions: ReadonlyMap<string, CollectionFunction>
  readonly steps: ReadonlyMap<string, CollectionSteps>
  readonly entries: readonly CollectionFunctionEntry[]
} {
  const functions = new Map<string, CollectionFunction>()
  const steps = new Map<string, CollectionSteps>()
  const entries: CollectionFunctionEntry[] = []
  for (const spec of groups.flat()) {
    if (functions.has(spec.name)) throw new Error(`collection function ${spec.name} listed twice`)
    const parsed = parseSignature(spec.signature)
    const { min, max } = parsed
    const name = `.${spec.name}()`
    const counted = (args: unknown[]): void => {
      if (args.length < min || args.length > max)
        raise('WrongParameterCount', {
          command: name,
          expected: arity(parsed),
          actual: args.length,
        })
    }
    const stepsOf = spec.steps
    const impl: CollectionFunction =
      spec.impl ?? (stepsOf !== undefined ? plainOf(stepsOf) : failDefinition(spec.name))
    functions.set(spec.name, (rt, self, args) => {
      if (args.length < min || args.length > max) counted(args)
      return impl(rt, self, args)
    })
    if (stepsOf !== undefined)
      steps.set(spec.name, (rt, self, args) => {
        counted(args)
        return stepsOf(rt, self, args, true)
      })
    entries.push(Object.freeze({ ...spec, parsed }))
  }
  return { functions, steps, entries: Object.freeze(entries) }
}

function failDefinition(name: string): never {
  throw new Error(`collection function ${name} has neither impl nor steps`)
}
