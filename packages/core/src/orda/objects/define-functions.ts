/**
 * @module How an application declares its class functions, the TypeScript form of 4D's ORDA
 * classes: functions of the datastore (`cs.DataStore`), of a dataclass (`cs.Employee`), of its
 * entities (`cs.EmployeeEntity`, `this` is the entity), of its entity selections
 * (`cs.EmployeeSelection`, `this` is the selection), and of shared singletons.
 *
 * Each function is an object: its options (4D's keywords `exposed` and `onHTTPGet`) and `call`, a
 * method whose `this` is what the function applies to. As in 4D, a function is private unless it
 * is `exposed`: only exposed functions are listed in the catalog and callable through REST.
 *
 * This file gives each `this` its type, so it lives beside the objects it names; the shapes that
 * name none of them (one function, its parameters, an event, a singleton) are in
 * functions/define.ts, below, where the registry reads them.
 *
 * ```ts
 * const functions = defineFunctions<CompanyModel>({
 *   dataStore: { appInfo: { exposed: true, onHTTPGet: true, call() { return { name: this.name } } } },
 *   dataClasses: {
 *     Employee: {
 *       dataClass: { highEarners: { exposed: true, params: ['number'], call(min: number) { return this.query('salary >= :1', min) } } },
 *       entity: { raise: { exposed: true, params: ['number'], call(pct: number) { … this.edit({…}).saveOrFail() } } },
 *       entitySelection: { payroll: { exposed: true, call() { return this.sum('salary') } } },
 *     },
 *   },
 * })
 * const ds = createDatastore(model, { data, functions })
 * ```
 */
import type { ComputedAttributeFunctions } from '../../schema/definitions.js'
import type { DataClassName, ModelTypes, UntypedModel } from '../../schema/typed-model.js'
import type { EntityEvent, EventError, FunctionDefs, SingletonDef } from '../../functions/define.js'
import type { DataClass } from './data-class.js'
import type { DatastoreOf } from './datastore.js'
import type { Entity } from './entity.js'
import type { EntityDraft } from './entity-draft.js'
import type { RestrictContext } from '../restrict/restrict.js'
import type { EntitySelection } from './entity-selection.js'

/** The classes of one dataclass: `cs.Employee`, `cs.EmployeeEntity`, `cs.EmployeeSelection`. */
export interface DataClassFunctionDefs<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> {
  /** Functions of the dataclass (`/rest/Employee/fn`): `this` is the DataClass. */
  readonly dataClass?: FunctionDefs<DataClass<M, N>>
  /** Functions of its entities (`/rest/Employee(3)/fn`): `this` is the Entity. */
  readonly entity?: FunctionDefs<Entity<M, N>>
  /**
   * Functions of its entity selections (`/rest/Employee/fn?$filter=…`,
   * `/rest/Employee/$entityset/{id}/fn`): `this` is the EntitySelection.
   */
  readonly entitySelection?: FunctionDefs<EntitySelection<M, N>>
  /**
   * The code of its computed attributes (kind `calculated` in the model): `get`, and optionally
   * `set`, `query` and `orderBy` (see schema/definitions.ts). 4D writes them as `Function get
   * fullName` in the entity class.
   */
  readonly computed?: { readonly [attribute: string]: ComputedAttributeFunctions }
  /**
   * ORDA entity events (4D 20 R10 and 21, `Function event …` in the entity class): for the whole
   * entity. See docs/functions.md#entity-events.
   */
  readonly events?: EntityEventDefs<M, N>
  /** The same events for single attributes (`Function event validateSave price`). */
  readonly attributeEvents?: { readonly [attribute: string]: AttributeEventDefs<M, N> }
  /**
   * The dataclass's `restrict` event (4D 20 R5): the selection the session may see, or null for
   * no restriction. It narrows every read of the dataclass (orda/restrict/restrict.ts).
   */
  readonly restrict?: ((
    this: DataClass<M, N>,
    context: RestrictContext,
  ) => EntitySelection<M, N> | null | undefined) & {
    /**
     * The same as work in steps (a generator that yields between steps and returns what the
     * function would), which a read in slices runs a slice at a time, so that a restrict that
     * runs long holds no other client (what a 4D project's restrict gives); undefined from it:
     * the function is called.
     */
    readonly steps?: (
      this: DataClass<M, N>,
      context: RestrictContext,
    ) => Generator<void, EntitySelection<M, N> | null | undefined, void> | undefined
  }
}

type Refusal = EventError | undefined | null | void

/**
 * The entity-level events. `this` is the entity being edited (an EntityDraft: `get` reads the
 * values as they would be saved, `set` changes them) up to the save, the stored Entity after it
 * and for the drop events.
 */
export interface EntityEventDefs<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> {
  /**
   * A new entity was made in memory (`dc.new()`, `dc.create()`, a REST create); no parameter.
   * (`| Function`: every object inherits a `constructor`, which TypeScript sees in a literal that
   * declares none.)
   */
  constructor?: ((this: EntityDraft<M, N>) => void) | Function
  /** An attribute's value changed (set, or received by REST); cannot refuse. */
  touched?(this: EntityDraft<M, N>, event: EntityEvent): void
  validateSave?(this: EntityDraft<M, N>, event: EntityEvent): Refusal
  saving?(this: EntityDraft<M, N>, event: EntityEvent): Refusal
  /** Once the save has committed; cannot refuse. */
  afterSave?(this: Entity<M, N>, event: EntityEvent): void
  validateDrop?(this: Entity<M, N>, event: EntityEvent): Refusal
  dropping?(this: Entity<M, N>, event: EntityEvent): Refusal
  /** Once the drop has committed; `this` is the entity as it was. */
  afterDrop?(this: Entity<M, N>, event: EntityEvent): void
}

/** The events of one attribute (no constructor): run before the entity's own. */
export type AttributeEventDefs<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> = Omit<EntityEventDefs<M, N>, 'constructor'>

/** Every function of an application, the argument of `createDatastore(model, { functions })`. */
export interface FunctionsDef<M extends ModelTypes = UntypedModel> {
  /** Functions of the datastore (`/rest/$catalog/fn`): `this` is the Datastore. */
  readonly dataStore?: FunctionDefs<DatastoreOf<M>>
  /** By dataclass name. */
  readonly dataClasses?: { readonly [N in DataClassName<M>]?: DataClassFunctionDefs<M, N> }
  /** Shared singletons by name (see `singleton()` for a typed `this`). */
  // `any`: each singleton has its own state type, which `singleton()` keeps.
  readonly singletons?: { readonly [name: string]: SingletonDef<any> }
}

/**
 * Declares an application's functions; the identity at run time, there for the types: `this` in
 * each function is what it applies to, typed by the model `M` when one is given
 * (`defineFunctions<CompanyModel>({…})`, see typed-models).
 */
export function defineFunctions<M extends ModelTypes = UntypedModel>(
  functions: FunctionsDef<M>,
): FunctionsDef<M> {
  return functions
}
