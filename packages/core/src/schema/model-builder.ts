/**
 * @module A typed builder for people who write models in code instead of a catalog file. It produces
 * the same catalog-shaped JSON (so `toJSON()` can be saved as a model file) plus the functions of
 * calculated attributes, which JSON cannot carry.
 *
 * @example
 * const model = defineModel('shop')
 *   .dataClass('Company', (c) => c.key('ID', 'long', { autosequence: true }).storage('name', 'string').relatedEntities('staff', 'Employee', 'employer'))
 *   .dataClass('Employee', (e) => e.key('ID', 'long').storage('lastName', 'string').relatedEntity('employer', 'Company'))
 * const ds = createDatastore(model)   // ds.Company, ds.Employee are typed
 */
import type { CalculatedFn } from './definitions.js'
import type { AttributeJson, DataClassJson, ModelJson, ValueType } from './model-json.js'

export type CalculatedFunctions = Readonly<Record<string, Readonly<Record<string, CalculatedFn>>>>

/** Options of a storage attribute (the catalog's flags). */
export type StorageOptions = Pick<
  AttributeJson,
  | 'indexed'
  | 'indexKind'
  | 'unique'
  | 'not_null'
  | 'autosequence'
  | 'readOnly'
  | 'exposed'
  | 'scope'
  | 'dateOnly'
>

export class DataClassBuilder {
  readonly #json: DataClassJson
  readonly #calculated: Record<string, CalculatedFn> = {}

  /** @internal */
  constructor(name: string, options: Omit<DataClassJson, 'name' | 'attributes' | 'key'>) {
    this.#json = { ...options, name, attributes: [] }
  }

  /** The primary key attribute (a storage attribute marked identifying). */
  key(name: string, type: ValueType, options: StorageOptions = {}): this {
    this.#json.key = [{ name }]
    return this.storage(name, type, { ...options, ...{ identifying: true } } as StorageOptions)
  }

  storage(name: string, type: ValueType, options: StorageOptions = {}): this {
    this.#json.attributes.push({ name, kind: 'storage', type, ...options })
    return this
  }

  /** An N→1 relation to `target`, its key held in `foreignKey` (see load-model.ts for the default). */
  relatedEntity(
    name: string,
    target: string,
    options: { foreignKey?: string; inverseName?: string } = {},
  ): this {
    this.#json.attributes.push({
      name,
      kind: 'relatedEntity',
      type: target,
      path: target,
      ...options,
    })
    return this
  }

  /** A 1→N relation: the entities of `target` whose relatedEntity `inverse` points here. */
  relatedEntities(name: string, target: string, inverse: string): this {
    this.#json.attributes.push({
      name,
      kind: 'relatedEntities',
      type: `${target}Selection`,
      path: inverse,
      reversePath: true,
    })
    return this
  }

  calculated(name: string, type: ValueType, compute: CalculatedFn): this {
    this.#json.attributes.push({ name, kind: 'calculated', type, readOnly: true })
    this.#calculated[name] = compute
    return this
  }

  alias(name: string, path: string, type?: ValueType): this {
    this.#json.attributes.push({
      name,
      kind: 'alias',
      path,
      readOnly: true,
      ...(type ? { type } : {}),
    })
    return this
  }

  /** @internal */
  build(): { json: DataClassJson; calculated: Readonly<Record<string, CalculatedFn>> } {
    return { json: structuredClone(this.#json), calculated: { ...this.#calculated } }
  }
}

/** A model built in code. `Names` collects the dataclass names so `createDatastore` can type `ds.Employee`. */
export class BuiltModel<Names extends string = never> {
  readonly #name: string
  readonly #classes: DataClassJson[]
  readonly #calculated: CalculatedFunctions

  /** @internal */
  constructor(name: string, classes: DataClassJson[] = [], calculated: CalculatedFunctions = {}) {
    this.#name = name
    this.#classes = classes
    this.#calculated = calculated
  }

  /** Adds a dataclass; returns a new model (the builder is immutable). */
  dataClass<N extends string>(
    name: N,
    define: (c: DataClassBuilder) => DataClassBuilder,
    options: Omit<DataClassJson, 'name' | 'attributes' | 'key'> = {},
  ): BuiltModel<Names | N> {
    const { json, calculated } = define(new DataClassBuilder(name, options)).build()
    return new BuiltModel(this.#name, [...this.#classes, json], {
      ...this.#calculated,
      [name]: calculated,
    })
  }

  /** The model as a catalog-shaped JSON document (what a model file holds). */
  toJSON(): ModelJson {
    return { __NAME: this.#name, dataClasses: structuredClone(this.#classes) }
  }

  /** The calculated attributes' functions, by dataclass and attribute. */
  get calculated(): CalculatedFunctions {
    return this.#calculated
  }
}

/** Starts a model named `name` (the application name of the catalog and of the session cookie). */
export function defineModel(name = 'entistore'): BuiltModel {
  return new BuiltModel(name)
}
