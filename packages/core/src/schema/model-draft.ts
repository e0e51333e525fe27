/**
 * @module The first pass over a model file: each dataclass and its attributes drafted and checked
 * alone (kinds, types, defaults, computed functions, the key), relations left pending until every
 * dataclass is drafted (resolve-relations.ts).
 */
import type {
  AttributeDef,
  CalculatedAttributeDef,
  CalculatedDefinition,
  ComputedAttributeFunctions,
  StorageAttributeDef,
} from './definitions.js'
import {
  ATTRIBUTE_KINDS,
  VALUE_TYPES,
  type AttributeJson,
  type AttributeKind,
  type DataClassJson,
} from './model-json.js'
import { stableId } from './stable-id.js'
import { computedGetter } from './getter-calls.js'
import { GLOBAL_STAMP, trackingAttributeProblem } from './change-tracking.js'
import {
  KEY_TYPES,
  NUMERIC_TYPES,
  ATTRIBUTE_FIELDS,
  invalid,
  isRecord,
  checkName,
  optional,
  isVectorClass,
  extras,
  own,
  valueType,
  describe,
} from './model-checks.js'

export interface LoadModelOptions {
  /** The application name, used when the model has no `__NAME`. @default 'entistore' */
  readonly name?: string
  /**
   * Functions of calculated attributes: `{ Employee: { fullName: (e) => … } }`, the getter alone, or
   * its functions, `{ fullName: { get, set, query, orderBy } }` (ComputedAttributeFunctions).
   */
  readonly calculated?: Readonly<Record<string, Readonly<Record<string, CalculatedDefinition>>>>
}

export interface RawClass {
  readonly json: DataClassJson
  readonly where: string
  readonly index: number
}

export interface Draft {
  readonly name: string
  readonly where: string
  readonly json: DataClassJson
  readonly attributes: (AttributeDef | PendingRelation)[]
  key: StorageAttributeDef | undefined
  readonly calculated: Readonly<Record<string, CalculatedDefinition>> | undefined
  readonly index: number
  /** Hidden foreign-key slots (see RelatedEntityAttributeDef.foreignKeyAttribute). */
  readonly implicit: StorageAttributeDef[]
}

export interface PendingRelation {
  readonly pending: true
  readonly json: AttributeJson
  readonly common: Common
  readonly where: string
  /** A calculated attribute whose type names a dataclass or its selection: all but `related`. */
  readonly calculated?: CalculatedAttributeDef
}

type Common = Omit<
  StorageAttributeDef,
  | 'kind'
  | 'type'
  | 'indexed'
  | 'indexKind'
  | 'unique'
  | 'notNull'
  | 'autosequence'
  | 'identifying'
  | 'dateOnly'
  | 'implicit'
>

export function draftDataClass(raw: RawClass, options: LoadModelOptions): Draft {
  const { json, where } = raw
  const j = json as unknown as Record<string, unknown>
  for (const f of ['className', 'collectionName', 'scope', 'dataURI', 'uuid'] as const)
    optional<string>(where, j, f, 'string')
  optional<boolean>(where, j, 'exposed', 'boolean')
  optional<number>(where, j, 'tableNumber', 'number')
  const top = optional<number>(where, j, 'defaultTopSize', 'number')
  if (top !== undefined && top < 0) invalid(where, '"defaultTopSize" must not be negative')
  if (j.extraProperties !== undefined && !isRecord(j.extraProperties))
    invalid(where, '"extraProperties" must be an object')
  if (!Array.isArray(j.attributes) || j.attributes.length === 0)
    invalid(where, 'expected a non-empty "attributes" array')

  const calculated = own(options.calculated, json.name)
  const draft: Draft = {
    name: json.name,
    where,
    json,
    attributes: [],
    key: undefined,
    calculated,
    index: raw.index,
    implicit: [],
  }
  const names = new Set<string>()
  let position = 0
  for (const [i, a] of (j.attributes as unknown[]).entries()) {
    const aWhere = `${where} attributes[${i}]`
    if (!isRecord(a)) invalid(aWhere, 'expected an object')
    const attr = a as AttributeJson
    const aName = checkName(aWhere, attr.name, json.name)
    const at = `${where} attribute "${aName}"`
    if (names.has(aName)) invalid(at, 'the attribute is defined twice')
    const tracking = trackingAttributeProblem(json.name, attr)
    if (tracking !== undefined) invalid(at, tracking)
    names.add(aName)
    const kind = (attr.kind ?? 'storage') as AttributeKind
    if (!ATTRIBUTE_KINDS.includes(kind))
      invalid(
        at,
        `unknown kind ${JSON.stringify(attr.kind)} (expected one of ${ATTRIBUTE_KINDS.join(', ')})`,
      )
    for (const f of ['type', 'scope', 'uuid', 'path', 'foreignKey', 'inverseName'] as const)
      optional<string>(at, a, f, 'string')
    for (const f of [
      'exposed',
      'indexed',
      'unique',
      'not_null',
      'autosequence',
      'identifying',
      'readOnly',
      'reversePath',
      'dateOnly',
      'never_null',
    ] as const) {
      optional<boolean>(at, a, f, 'boolean')
    }
    const fieldPos = optional<number>(at, a, 'fieldPos', 'number')
    if (kind !== 'calculated' && kind !== 'alias') position++
    const common: Common = {
      name: aName,
      fieldPos: fieldPos ?? (kind === 'calculated' || kind === 'alias' ? undefined : position),
      scope: attr.scope ?? 'public',
      exposed: attr.exposed ?? true,
      uuid: attr.uuid ?? stableId(json.name, aName),
      // The engine writes the global stamp: never a client.
      readOnly:
        aName === GLOBAL_STAMP || (attr.readOnly ?? (kind === 'calculated' || kind === 'alias')),
      extra: extras(a, ATTRIBUTE_FIELDS),
    }
    draft.attributes.push(draftAttribute(draft, attr, kind, common, at))
  }
  draft.key = findKey(draft)
  return draft
}

function draftAttribute(
  draft: Draft,
  attr: AttributeJson,
  kind: AttributeKind,
  common: Common,
  at: string,
): AttributeDef | PendingRelation {
  switch (kind) {
    case 'storage': {
      const type = valueType(at, attr.type)
      if (attr.indexKind !== undefined && !['hash', 'sorted', 'auto'].includes(attr.indexKind)) {
        invalid(at, `"indexKind" must be "hash", "sorted" or "auto"`)
      }
      const autosequence = attr.autosequence ?? false
      // A text autosequence is a UUID made as text (generatedBy).
      if (autosequence && !NUMERIC_TYPES.has(type) && type !== 'uuid' && type !== 'string')
        invalid(at, `autosequence needs a numeric, uuid or string type, not ${type}`)
      const vector = isVectorClass(at, type, attr.classID)
      const maxLength = optional<number>(at, attr, 'maxLength', 'number')
      if (
        maxLength !== undefined &&
        (type !== 'string' || !(Number.isInteger(maxLength) && maxLength > 0))
      )
        invalid(at, '"maxLength" must be a positive integer, on a string attribute')
      return Object.freeze<StorageAttributeDef>({
        ...common,
        kind,
        type,
        // 4D's structure requirements index `__GlobalStamp`: a sync queries it on every call.
        indexed: common.name === GLOBAL_STAMP || (attr.indexed ?? false),
        indexKind: attr.indexKind ?? 'auto',
        unique: attr.unique ?? false,
        notNull: attr.not_null ?? false,
        autosequence,
        identifying: attr.identifying ?? false,
        dateOnly: type === 'date' ? (attr.dateOnly ?? true) : false,
        implicit: false,
        ...(vector ? { vector } : {}),
        ...(maxLength === undefined ? {} : { maxLength }),
        ...(attr.never_null ? { neverNull: true } : {}),
      })
    }
    case 'calculated': {
      const fns = computedFunctions(at, own(draft.calculated, common.name))
      // A type naming a dataclass or its selection (a getter of an entity or a selection) is
      // resolved once every dataclass is drafted (resolve-relations.ts).
      const related =
        attr.type !== undefined && !(VALUE_TYPES as readonly string[]).includes(attr.type)
      const def: CalculatedAttributeDef = {
        ...common,
        // Writable when it has a set function, unless the model says otherwise (the catalog shows it).
        readOnly: attr.readOnly ?? fns.set === undefined,
        kind,
        type: related ? 'object' : valueType(at, attr.type),
        ...fns,
      }
      return related
        ? { pending: true, json: attr, common, where: at, calculated: def }
        : Object.freeze(def)
    }
    case 'relatedEntity':
    case 'relatedEntities':
    case 'alias':
      return { pending: true, json: attr, common, where: at }
  }
}

const COMPUTED_MEMBERS: readonly string[] = [
  'get',
  'getSteps',
  'set',
  'setSteps',
  'query',
  'orderBy',
]

/**
 * The functions of a calculated attribute as its definition holds them: a getter alone, or an
 * object of get/set/query/orderBy functions (any of them may be left out; without `get` the
 * attribute reads null). The getter becomes `compute`, which reads and scans call as
 * `compute(entity)`: an object's `get` is called with the entity as `this` too, or its `getSteps`
 * in a row of work in slices (getter-calls.ts).
 */
function computedFunctions(
  at: string,
  given: CalculatedDefinition | undefined,
): Pick<CalculatedAttributeDef, 'compute' | 'set' | 'setSteps' | 'query' | 'orderBy'> {
  if (given === undefined || typeof given === 'function') return { compute: given }
  if (!isRecord(given))
    return invalid(
      at,
      'the calculated function must be a function, or an object of get, set, query and orderBy functions',
    )
  const fns = given as ComputedAttributeFunctions & Record<string, unknown>
  // A misspelt member (`orderby`) would silently leave the default: refused.
  for (const name of Object.keys(fns)) {
    if (!COMPUTED_MEMBERS.includes(name))
      invalid(at, `unknown member "${name}" of its functions (expected get, set, query, orderBy)`)
  }
  for (const name of COMPUTED_MEMBERS) {
    const fn = fns[name]
    if (fn !== undefined && typeof fn !== 'function')
      invalid(at, `"${name}" of its functions must be a function, not ${describe(fn)}`)
  }
  const get = fns.get
  const out: { -readonly [K in keyof CalculatedAttributeDef]?: CalculatedAttributeDef[K] } = {
    compute: get && computedGetter(get, fns.getSteps),
  }
  if (fns.set) out.set = fns.set
  // Its steps form goes with it: a write in slices goes into it instead of calling `set`.
  if (fns.set && fns.setSteps) out.setSteps = fns.setSteps
  if (fns.query) out.query = fns.query
  if (fns.orderBy) out.orderBy = fns.orderBy
  return out as Pick<CalculatedAttributeDef, 'compute' | 'set' | 'setSteps' | 'query' | 'orderBy'>
}

function findKey(draft: Draft): StorageAttributeDef {
  const storage = draft.attributes.filter(
    (a): a is StorageAttributeDef => !('pending' in a) && a.kind === 'storage',
  )
  const keyJson = draft.json.key
  let name: string | undefined
  if (keyJson !== undefined) {
    if (
      !Array.isArray(keyJson) ||
      keyJson.length === 0 ||
      !keyJson.every((k) => isRecord(k) && typeof k.name === 'string')
    ) {
      invalid(draft.where, '"key" must be an array of {"name": …}')
    }
    if (keyJson.length > 1)
      invalid(
        draft.where,
        `a composite key (${keyJson.map((k) => k.name).join(', ')}) is not supported: use one attribute`,
      )
    name = keyJson[0]!.name
  } else {
    name = storage.find((a) => a.identifying)?.name ?? storage.find((a) => a.name === 'ID')?.name
  }
  if (name === undefined)
    return invalid(
      draft.where,
      'no primary key: add "key": [{"name": …}] or mark an attribute "identifying": true',
    )
  const key = storage.find((a) => a.name === name)
  if (!key)
    return invalid(draft.where, `the key "${name}" is not a storage attribute of the dataclass`)
  if (!KEY_TYPES.has(key.type))
    invalid(
      `${draft.where} attribute "${name}"`,
      `a primary key must be of type ${[...KEY_TYPES].join(', ')}, not ${key.type}`,
    )
  // The key is identifying, unique and not null whatever the model says.
  const fixed = Object.freeze<StorageAttributeDef>({
    ...key,
    identifying: true,
    unique: true,
    notNull: true,
  })
  draft.attributes[draft.attributes.indexOf(key)] = fixed
  return fixed
}
