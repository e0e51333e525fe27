/**
 * @module What the running context takes from the rooms above it: the commands' code by number
 * (`rt.k`), the collection's functions (`$c.map()`), and the classes the built-in store `4D`
 * always holds (`4D.Blob`, `4D.File`…). Each of them runs on the context (a command receives it,
 * a class function is a function object invoked with it), so the context cannot import them
 * without importing itself back: the runtime's main entry (runtime/index.ts) gives them here once,
 * when it loads, before any code can run.
 */
import type { Collection } from '../values/collection.js'
import type { CommandImpl, CommandSteps } from './command-context.js'
import type { Runtime } from './runtime.js'

/** A function of collections: the context, the collection, the arguments. */
export type CollectionFunction = (rt: Runtime, self: Collection, args: unknown[]) => unknown

/** A function of collections as steps (values/work.ts), for a call in slices. */
export type CollectionSteps = (
  rt: Runtime,
  self: Collection,
  args: unknown[],
) => Generator<void, unknown, void>

export interface RuntimeParts {
  /** The implementations of the commands, by number. */
  readonly commands: readonly (CommandImpl | undefined)[]
  /** The steps of the commands that have them, by number. */
  readonly commandSteps: readonly (CommandSteps | undefined)[]
  /** Why the command (or constant) of that name cannot run here ('processes', 'UI'…), if it cannot. */
  readonly notRunnable: (name: string) => string | undefined
  /** The collection's functions, by name. */
  readonly collectionFunctions: ReadonlyMap<string, CollectionFunction>
  /** The steps of the collection's functions that have them, by name. */
  readonly collectionSteps: ReadonlyMap<string, CollectionSteps>
  /** The classes of the built-in store `4D` that it always holds, by name, in their order. */
  readonly builtinClasses: readonly (readonly [string, unknown])[]
}

let given: RuntimeParts | undefined

/** Gives the parts (runtime/index.ts, once). */
export function provideRuntimeParts(parts: RuntimeParts): void {
  given = parts
}

/** The parts; an error of the host when the runtime's main entry was not loaded. */
export function runtimeParts(): RuntimeParts {
  if (given === undefined)
    throw new Error('the 4D runtime is not assembled: import it through runtime/index.ts')
  return given
}
