/**
 * @module What `createDatastore` builds a datastore from (`ModelSource`), made into the model's
 * definition: the code of calculated attributes merged from the model builder, the `calculated`
 * option and the class functions' `computed` ones, later ones winning.
 */
import type { CalculatedDefinition, SchemaDef } from '../../schema/definitions.js'
import { BuiltModel, type CalculatedFunctions } from '../../schema/model-builder.js'
import { loadModel, type LoadModelOptions } from '../../schema/load-model.js'
import type { ModelJson, ModelJsonDocument } from '../../schema/model-json.js'
import type { ModelTypes } from '../../schema/typed-model.js'

/**
 * What the model is made with of `createDatastore`'s options (DatastoreOptions, with the objects
 * above, whose class functions name them): the loader's, and the class functions' dataclasses,
 * whose `computed` ones are read.
 */
export interface ModelOptions extends LoadModelOptions {
  readonly functions?: { readonly dataClasses?: object } | undefined
}

/** What `createDatastore` builds a datastore from. */
export type ModelSource = ModelJson | ModelJsonDocument | SchemaDef | BuiltModel<ModelTypes>

/** The model's definition: `model` itself when it is one, else loaded from it. */
export function toSchema(model: ModelSource, options: ModelOptions): SchemaDef {
  if (isSchema(model)) return model
  // The code of calculated attributes: the builder's, the `calculated` option's, and the
  // `computed` functions of the class functions, later ones winning.
  let calculated = mergeCalculated(computedOf(options.functions), options.calculated)
  if (model instanceof BuiltModel) {
    calculated = mergeCalculated(model.calculated, calculated)
    return loadModel(model.toJSON(), { ...options, calculated })
  }
  return loadModel(model, { ...options, calculated })
}

/** The `computed` functions of each dataclass in class-function definitions. */
function computedOf(functions: ModelOptions['functions']): CalculatedFunctions {
  const out: Record<string, Readonly<Record<string, CalculatedDefinition>>> = {}
  const classes = (functions?.dataClasses ?? {}) as Record<
    string,
    { computed?: unknown } | undefined
  >
  for (const [dc, defs] of Object.entries(classes)) {
    const computed = defs?.computed
    if (computed !== undefined) out[dc] = computed as Readonly<Record<string, CalculatedDefinition>>
  }
  return out
}

function mergeCalculated(
  a: CalculatedFunctions,
  b: CalculatedFunctions | undefined,
): CalculatedFunctions {
  if (!b) return a
  const out: Record<string, Readonly<Record<string, CalculatedDefinition>>> = { ...a }
  for (const [dc, fns] of Object.entries(b)) out[dc] = { ...out[dc], ...fns }
  return out
}

function isSchema(x: unknown): x is SchemaDef {
  return typeof x === 'object' && x !== null && (x as SchemaDef).byName instanceof Map
}
