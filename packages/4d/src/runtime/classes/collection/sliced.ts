/**
 * @module A collection function written once as steps (values/work.ts) that does one thing
 * otherwise in a call in slices (`sliced`), such as going into its callbacks' own steps
 * (callbacks.ts `callSteps`). The plain call runs the steps to their end at once, a generator a
 * call: for a function whose plain call may pay that, which one called in loops on small
 * collections may not (blocks.ts `oneBlock`, callbacks.ts `eachNow`).
 */
import type { Runtime } from '../../context/runtime.js'
import type { Collection } from '../../values/collection.js'
import { finish, type Work } from '../../values/work.js'
import type { CollectionFunctionSpec } from './define.js'

/** A function's work as steps, `sliced` in a call in slices. */
export type SlicedWork = (
  rt: Runtime,
  self: Collection,
  args: unknown[],
  sliced: boolean,
) => Work<unknown>

/** The `impl` and `steps` of a function written once as `work`. */
export const bothWays = (work: SlicedWork): Pick<CollectionFunctionSpec, 'impl' | 'steps'> => ({
  impl: (rt, self, args) => finish(work(rt, self, args, false)),
  steps: (rt, self, args) => work(rt, self, args, true),
})
