/**
 * @module A typed builder for people who write models in code instead of a catalog file. It produces
 * the same catalog-shaped JSON (so `toJSON()` can be saved as a model file) plus the functions of
 * calculated attributes, which JSON cannot carry. Each step also records the attribute's type, so
 * the model's types (schema/typed-model.ts) follow from the builder: `createDatastore(model)` is
 * typed with no generated file.
 *
 * @example
 * const model = defineModel('shop')
 *   .dataClass('Company', (c) => c.key('ID', 'long', { autosequence: true }).storage('name', 'string').relatedEntities('staff', 'Employee', 'employer'))
 *   .dataClass('Employee', (e) => e.key('ID', 'long').storage('lastName', 'string').relatedEntity('employer', 'Company'))
 * const ds = createDatastore(model)   // ds.Employee.get(1)?.get('employer') is an Entity of Company, or null
 */
import type {
  CalculatedDefinition,
  CalculatedFn,
  ComputedAttributeFunctions,
} from './definitions.js'
import type { AttributeJson, DataClassJson, ModelJson, ValueType } from './model-json.js'
import type {
  Computed,
  ModelTypes,
  RelatedEntities,
  RelatedEntity,
  ValueTypes,
} from './typed-model.js'

/** The functions of calculated attributes by dataclass and attribute: a getter, or get/set/query/orderBy. */
export type CalculatedFunctions = Readonly<
  Record<string, Readonly<Record<string, CalculatedDefinition>>>
>

/** Computed-attribute functions with a `set`: the attribute is written as well as read. */
type WithSetter = ComputedAttributeFunctions & {
  readonly set: NonNullable<ComputedAttributeFunctions['set']>
}

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
  | 'maxLength'
  | 'never_null'
>

// `A` plus one attribute, flattened so that editors show one object type.
type With<A, K extends string, V> = { [P in keyof A | K]: P extends K ? V : A[P & keyof A] }

// A storage attribute reads as null unless it is not_null (the key is never null: see `key`).
type Stored<T extends ValueType, O> = ValueTypes[T] | (O extends { not_null: true } ? never : null)

/** Builds one dataclass; `A` collects its attributes' types. */
export class DataClassBuilder<A extends object = {}> {
  readonly #json: DataClassJson
  readonly #attributes: AttributeJson[] = []
  readonly #calculated: Record<string, CalculatedDefinition> = {}

  /** @internal */
  constructor(name: string, options: Omit<DataClassJson, 'name' | 'attributes' | 'key'>) {
    this.#json = { ...options, name, attributes: this.#attributes }
  }

  // Every step returns this same builder; only its type grows.
  #add<K extends string, V>(attribute: AttributeJson): DataClassBuilder<With<A, K, V>> {
    this.#attributes.push(attribute)
    return this as DataClassBuilder<With<A, K, V>>
  }

  /** The primary key attribute (a storage attribute marked identifying; never null). */
  key<K extends string, T extends ValueType>(
    name: K,
    type: T,
    options: StorageOptions = {},
  ): DataClassBuilder<With<A, K, ValueTypes[T]>> {
    this.#json.key = [{ name }]
    return this.#add({ name, kind: 'storage', type, ...options, ...{ identifying: true } })
  }

  storage<K extends string, T extends ValueType, const O extends StorageOptions = {}>(
    name: K,
    type: T,
    options?: O,
  ): DataClassBuilder<With<A, K, Stored<T, O>>> {
    return this.#add({ name, kind: 'storage', type, ...options })
  }

  /** An N→1 relation to `target`, its key held in `foreignKey` (see load-model.ts for the default). */
  relatedEntity<K extends string, T extends string>(
    name: K,
    target: T,
    options: { foreignKey?: string; inverseName?: string } = {},
  ): DataClassBuilder<With<A, K, RelatedEntity<T>>> {
    return this.#add({ name, kind: 'relatedEntity', type: target, path: target, ...options })
  }

  /** A 1→N relation: the entities of `target` whose relatedEntity `inverse` points here. */
  relatedEntities<K extends string, T extends string>(
    name: K,
    target: T,
    inverse: string,
  ): DataClassBuilder<With<A, K, RelatedEntities<T>>> {
    return this.#add({
      name,
      kind: 'relatedEntities',
      type: `${target}Selection`,
      path: inverse,
      reversePath: true,
    })
  }

  /**
   * A calculated attribute: its getter, or its functions (`{ get, set, query, orderBy }`, see
   * ComputedAttributeFunctions). With a `set` it is written as well as read, and typed so.
   */
  calculated<K extends string, T extends ValueType>(
    name: K,
    type: T,
    functions: WithSetter,
  ): DataClassBuilder<With<A, K, ValueTypes[T] | null>>
  calculated<K extends string, T extends ValueType>(
    name: K,
    type: T,
    compute: CalculatedFn | ComputedAttributeFunctions,
  ): DataClassBuilder<With<A, K, Computed<ValueTypes[T] | null>>>
  calculated<K extends string, T extends ValueType>(
    name: K,
    type: T,
    compute: CalculatedDefinition,
  ): DataClassBuilder<With<A, K, unknown>> {
    this.#calculated[name] = compute
    const readOnly = typeof compute === 'function' || compute.set === undefined
    return this.#add({ name, kind: 'calculated', type, readOnly })
  }

  /** An alias reads what its path leads to; give `type` to have it typed (else `unknown`). */
  alias<K extends string, T extends ValueType | undefined = undefined>(
    name: K,
    path: string,
    type?: T,
  ): DataClassBuilder<With<A, K, Computed<T extends ValueType ? ValueTypes[T] | null : unknown>>> {
    return this.#add({
      name,
      kind: 'alias',
      path,
      readOnly: true,
      ...(type ? { type } : {}),
    })
  }

  /** @internal */
  build(): { json: DataClassJson; calculated: Readonly<Record<string, CalculatedDefinition>> } {
    return { json: structuredClone(this.#json), calculated: { ...this.#calculated } }
  }
}

/** A model built in code. `M` collects the dataclasses' types so `createDatastore` can type it. */
export class BuiltModel<M extends ModelTypes = {}> {
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
  dataClass<N extends string, A extends object>(
    name: N,
    define: (c: DataClassBuilder) => DataClassBuilder<A>,
    options: Omit<DataClassJson, 'name' | 'attributes' | 'key'> = {},
  ): BuiltModel<With<M, N, A>> {
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
