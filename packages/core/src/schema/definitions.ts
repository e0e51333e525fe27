/**
 * @module The normalized model: every dataclass and attribute with its defaults filled, relations
 * resolved to their target dataclass. Built once by `load-model.ts`, frozen, and read everywhere.
 */
import type { KeyValue } from '../values/value-types.js'
import type { AttributeKind, MethodJson, SingletonJson, ValueType } from './model-json.js'

/**
 * An entity as a calculated attribute sees it. The schema owns this shape so that it needs nothing
 * from the layers built on it; the Entity class implements it.
 */
export interface EntityView {
  /** The value of any attribute (storage, relation, calculated, alias) by name. */
  get(attribute: string): unknown
  getKey(): KeyValue
  getStamp(): number
  getTimestamp(): number
}

/**
 * What a calculated attribute computes. It receives the Entity and returns a value of the
 * attribute's type. Declared as a method so that parameters are checked both ways: a function
 * written `(e: Entity) => …` (the class of the layer above, which implements EntityView) is accepted.
 */
export type CalculatedFn = { compute(entity: EntityView): unknown }['compute']

/**
 * The comparison a computed attribute's `query` function is asked to replace, spelled as 4D
 * spells it: `==` equal (`@` is a wildcard), `===` equal (`@` is a character), `!=` and `!==` the
 * same negated, the ranges, `IN` (the value is an array) and `%` (contains the keyword).
 */
export type ComputedQueryOperator =
  '==' | '===' | '!=' | '!==' | '<' | '<=' | '>' | '>=' | 'IN' | '%'

/** What a computed attribute's `set` function receives (4D's `$event` of `Function set`). */
export interface ComputedSetEvent {
  readonly attributeName: string
  readonly dataClassName: string
  readonly kind: 'set'
  /** The value written, converted to the attribute's type (or null). */
  readonly value: unknown
}

/** What a computed attribute's `query` function receives (4D's `$event` of `Function query`). */
export interface ComputedQueryEvent {
  readonly attributeName: string
  readonly dataClassName: string
  readonly kind: 'query'
  /** The value compared with, as written in the query or given for its placeholder. */
  readonly value: unknown
  readonly operator: ComputedQueryOperator
}

/** What a computed attribute's `orderBy` function receives (4D's `$event` of `Function orderBy`). */
export interface ComputedOrderByEvent {
  readonly attributeName: string
  readonly dataClassName: string
  readonly kind: 'orderBy'
  readonly operator: 'asc' | 'desc'
  readonly descending: boolean
}

/**
 * What a `query` function returns: a filter on other attributes of the same dataclass, as text
 * (no placeholders: nothing fills them) or as `{ query, parameters }` (`:1` takes `parameters[0]`);
 * null or undefined for the default, a scan that calls the getter on every entity.
 */
export type ComputedQueryResult =
  string | { readonly query: string; readonly parameters?: readonly unknown[] } | null | undefined

/**
 * The functions of a computed attribute (4D's `Function get / set / query / orderBy` of an entity
 * class). Each one is optional: without `get` the attribute reads null; without `set` it is
 * read-only (AttributeReadOnly, 1516); without `query` or `orderBy` a filter or a sort on it calls
 * `get` on every entity. Methods, so that parameters are checked both ways (see CalculatedFn).
 */
export interface ComputedAttributeFunctions {
  /** The value, from the entity: called as `get.call(entity, entity)`, so `this` is the entity too. */
  get?(this: EntityView, entity: EntityView): unknown
  /**
   * `get` as work in steps (a generator that yields between steps and returns what `get` would),
   * which a filter, an ordering or an aggregate run in slices goes into for one row, so that one
   * call that runs long holds no other client (what a 4D project's getter gives). Asked only there;
   * undefined from it: `get` is called.
   */
  getSteps?(this: EntityView, entity: EntityView): Generator<void, unknown, void> | undefined
  /**
   * Dispatches a written value: returns the assignments to write instead (`{ firstName, lastName }`),
   * checked as any write. `this` is the version being updated, null for a new entity. A value the
   * same write gives explicitly wins over the one returned here.
   */
  set?(
    this: EntityView | null,
    value: unknown,
    event: ComputedSetEvent,
  ): Readonly<Record<string, unknown>> | null | undefined | void
  /**
   * `set` as work in steps (a generator that yields between steps and returns what `set` would),
   * which a write run in slices goes into before it writes (orda/writes/setter-steps.ts), so that
   * a setter that runs long holds no other client (what a 4D project's setter gives). Undefined
   * from it: `set` is called by the write.
   */
  setSteps?(
    this: EntityView | null,
    value: unknown,
    event: ComputedSetEvent,
  ): Generator<void, Readonly<Record<string, unknown>> | null | undefined | void, void> | undefined
  /** Replaces a comparison on the attribute by a filter on others (that indexes can answer). */
  query?(event: ComputedQueryEvent): ComputedQueryResult
  /** Replaces a sort on the attribute by an order-by text (`"lastName desc, firstName desc"`). */
  orderBy?(event: ComputedOrderByEvent): string | null | undefined
}

/** What a calculated attribute is given in code: its getter alone, or its functions. */
export type CalculatedDefinition = CalculatedFn | ComputedAttributeFunctions

interface AttributeCommon {
  readonly name: string
  readonly kind: AttributeKind
  /** The catalog's `type` (a ValueType, a dataclass name, or `<Class>Selection`). */
  readonly type: string
  readonly fieldPos: number | undefined
  readonly scope: string
  readonly exposed: boolean
  readonly uuid: string
  readonly readOnly: boolean
  /** Catalog fields Entistore does not interpret (defaultFormat, multiLine, …), echoed as given. */
  readonly extra: Readonly<Record<string, unknown>>
}

export interface StorageAttributeDef extends AttributeCommon {
  readonly kind: 'storage'
  readonly type: ValueType
  readonly indexed: boolean
  readonly indexKind: 'hash' | 'sorted' | 'auto'
  readonly unique: boolean
  readonly notNull: boolean
  readonly autosequence: boolean
  readonly identifying: boolean
  /** For `date`: true stores the day only (4D's default). */
  readonly dateOnly: boolean
  /** For `string`: the most characters a value may have (the model's `maxLength`). */
  readonly maxLength?: number
  /** The model's `never_null`: null is stored as the type's blank value (see `blankValue`). */
  readonly neverNull?: boolean
  /** True for the slot Entistore adds to hold a relation's key when the model names no foreignKey. */
  readonly implicit: boolean
  /**
   * An object attribute restricted to 4D.Vector (the catalog's `classID`, kept in `extra`): it
   * holds Vector values, compared by similarity in filters.
   */
  readonly vector?: boolean
}

export interface RelatedEntityAttributeDef extends AttributeCommon {
  readonly kind: 'relatedEntity'
  /** The target dataclass. */
  readonly target: string
  /** The name of the stored slot holding the target's key (a storage attribute, or the relation's own name for an implicit slot). */
  readonly foreignKey: string
  /** That slot. */
  readonly foreignKeyAttribute: StorageAttributeDef
  readonly inverseName: string | undefined
}

export interface RelatedEntitiesAttributeDef extends AttributeCommon {
  readonly kind: 'relatedEntities'
  /** The dataclass of the related entities. */
  readonly target: string
  /** The relatedEntity attribute of `target` that points back here. */
  readonly inverse: string
}

export interface CalculatedAttributeDef extends AttributeCommon {
  readonly kind: 'calculated'
  /** `object` for a getter of an entity or a selection (`related`). */
  readonly type: ValueType
  /**
   * A getter of an entity or an entity selection (4D's `Function get boss() : cs.EmployeeEntity`):
   * the dataclass of its value, and whether it is a selection. The catalog types it as that
   * dataclass or its selection; it is served as a relation is, and neither queried nor sorted on.
   */
  readonly related?: { readonly dataClass: string; readonly many: boolean }
  /** The getter (the hot path: reads, scans and sorts call it as `compute(entity)`). */
  readonly compute: CalculatedFn | undefined
  /** Makes the attribute writable: a write of it becomes the assignments this returns. */
  readonly set?: NonNullable<ComputedAttributeFunctions['set']>
  /** `set` as work in steps, for a write run in slices (given with `set` only). */
  readonly setSteps?: NonNullable<ComputedAttributeFunctions['setSteps']>
  /** Replaces a comparison on the attribute by the filter this returns. */
  readonly query?: NonNullable<ComputedAttributeFunctions['query']>
  /** Replaces a sort on the attribute by the order this returns. */
  readonly orderBy?: NonNullable<ComputedAttributeFunctions['orderBy']>
}

export interface AliasAttributeDef extends AttributeCommon {
  readonly kind: 'alias'
  /** The aliased path, split on dots (`employer.name` → ['employer', 'name']). */
  readonly path: readonly string[]
  /**
   * The path goes through a to-many relation (`Alias teachers courses.teacher`): the alias holds
   * an entity selection (of the entities its last relation reaches), or the values of its last
   * attribute over them, as 4D's `selection.attribute` does.
   */
  readonly many: boolean
}

export type AttributeDef =
  | StorageAttributeDef
  | RelatedEntityAttributeDef
  | RelatedEntitiesAttributeDef
  | CalculatedAttributeDef
  | AliasAttributeDef

export interface DataClassDef {
  readonly name: string
  readonly className: string
  readonly collectionName: string
  readonly tableNumber: number
  readonly scope: string
  readonly exposed: boolean
  readonly uuid: string
  readonly defaultTopSize: number
  readonly extraProperties: Readonly<Record<string, unknown>> | undefined
  /** The attributes in model order. */
  readonly attributes: readonly AttributeDef[]
  readonly attributesByName: ReadonlyMap<string, AttributeDef>
  /**
   * Every stored slot: the storage attributes plus the implicit foreign-key slots of relations that
   * name no foreignKey. An implicit slot shares its relation's name and is in no other list.
   */
  readonly storage: readonly StorageAttributeDef[] /** The single primary-key attribute. */
  readonly key: StorageAttributeDef
  /**
   * True when the model declares `__GlobalStamp` (4D's data change tracking, change-tracking.ts):
   * each save writes the global stamp into it, each delete adds a `__DeletedRecords` row.
   */
  readonly tracked: boolean
  /**
   * Functions the model declares on the dataclass (a saved catalog's `methods`, with `applyTo`
   * dataClass, entity or entityCollection): listed by the catalog, and callable once code is given
   * for them (see functions/).
   */
  readonly methods: readonly MethodJson[]
  /** Catalog fields Entistore does not interpret, echoed as given. */
  readonly extra: Readonly<Record<string, unknown>>
}

export interface SchemaDef {
  readonly name: string
  /** Datastore functions the model declares (the catalog's `methods`). */
  readonly methods: readonly MethodJson[]
  /** Shared singletons the model declares (the catalog's `singletons`), with their functions. */
  readonly singletons: readonly SingletonJson[]
  readonly dataClasses: readonly DataClassDef[]
  readonly byName: ReadonlyMap<string, DataClassDef>
}

/** True when the attribute (and its dataclass) may be shown through the REST interface. */
export const isPublic = (x: { readonly exposed: boolean; readonly scope: string }): boolean =>
  x.exposed && x.scope === 'public'

/**
 * The names of `dc`'s attributes its caller may name, in model order: all of them, or with
 * `shownOnly` (a REST client's) those the REST interface shows. An unknown name's error suggests
 * the close ones among these (errors/closest-name.ts): a hidden name is never told.
 */
export function attributeNames(schema: SchemaDef, dc: DataClassDef, shownOnly: boolean): string[] {
  return dc.attributes.filter((a) => !shownOnly || isShownAttribute(schema, a)).map((a) => a.name)
}

/** The dataclass names, in model order: all, or with `publicOnly` those the REST interface shows. */
export function dataClassNames(schema: SchemaDef, publicOnly: boolean): string[] {
  return schema.dataClasses.filter((d) => !publicOnly || isPublic(d)).map((d) => d.name)
}

// Worked out once per attribute: a filter binds it and a write checks it on every request.
const shownCache = new WeakMap<AttributeDef, boolean>()

/**
 * True when the REST interface shows `attr` (and a filter or `$orderby` with `exposedOnly` may name
 * it): it is public; a relation leads to a public dataclass (else it would leak that dataclass); an
 * alias's path crosses only attributes that are shown (else it would read what is hidden).
 */
export function isShownAttribute(schema: SchemaDef, attr: AttributeDef): boolean {
  let shown = shownCache.get(attr)
  if (shown === undefined) {
    shown = shownAt(schema, attr, 0)
    shownCache.set(attr, shown)
  }
  return shown
}

/**
 * How a new entity gets `attr`'s value when none is given: numbered (an autosequence of a number),
 * made a UUID (a uuid key, an autosequence uuid, or a text autosequence: 4D's "Auto UUID" on an
 * Alpha field, as Qodly's model editor writes its text keys), or not at all. A UUID is 4D's form:
 * 32 upper-case hex digits.
 */
export function generatedBy(
  dc: { readonly key: StorageAttributeDef },
  attr: StorageAttributeDef,
): 'sequence' | 'uuid' | undefined {
  if (attr.type === 'uuid') return attr.autosequence || attr === dc.key ? 'uuid' : undefined
  if (!attr.autosequence) return undefined
  return attr.type === 'string' ? 'uuid' : 'sequence'
}

/** Where an alias path leads: its last attribute, the dataclass that holds it, and its `many`. */
export interface AliasTarget {
  readonly attr: AttributeDef
  readonly owner: DataClassDef
  /** A step before the last is a to-many relation. */
  readonly many: boolean
}

/**
 * The end of the alias `path` from `dc`, each step before the last a relation (to one or to
 * many), the dataclasses found by `byName`; undefined when a step does not resolve.
 */
export function aliasTarget(
  byName: (name: string) => DataClassDef | undefined,
  dc: DataClassDef,
  path: readonly string[],
): AliasTarget | undefined {
  let owner: DataClassDef | undefined = dc
  let many = false
  for (let i = 0; owner !== undefined && i < path.length; i++) {
    const attr = owner.attributesByName.get(path[i]!)
    if (attr === undefined) return undefined
    if (i === path.length - 1) return { attr, owner, many }
    if (attr.kind !== 'relatedEntity' && attr.kind !== 'relatedEntities') return undefined
    many ||= attr.kind === 'relatedEntities'
    owner = byName(attr.target)
  }
  return undefined
}

function shownAt(schema: SchemaDef, attr: AttributeDef, depth: number): boolean {
  if (!isPublic(attr)) return false
  if (attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities') {
    const target = schema.byName.get(attr.target)
    return target !== undefined && isPublic(target)
  }
  if (attr.kind !== 'alias') return true
  // An alias of an alias… is followed a few levels; past that it is not shown (nor a loop).
  if (depth > 8) return false
  let dc = schema.dataClasses.find((d) => d.attributesByName.get(attr.name) === attr)
  for (const step of attr.path) {
    const next = dc?.attributesByName.get(step)
    if (!next || !shownAt(schema, next, depth + 1)) return false
    dc =
      next.kind === 'relatedEntity' || next.kind === 'relatedEntities'
        ? schema.byName.get(next.target)
        : undefined
  }
  return true
}
