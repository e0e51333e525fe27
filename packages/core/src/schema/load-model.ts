/**
 * @module Turns a model in the catalog shape (`GET /rest/$catalog/$all`) into the frozen `SchemaDef`:
 * checks every field (a model file is user input), fills defaults, resolves relations.
 *
 * Defaults, chosen to match what the real server shows for a fresh project:
 * - kind `storage`, scope `public`, exposed `true`; className = name; collectionName = `<name>Selection`;
 *   tableNumber = position (1-based); defaultTopSize 100; uuids derived from the names (stable).
 * - the key: `key[0].name`, else the attribute marked `identifying`, else an attribute named `ID`.
 * - relatedEntity: target = `path` (else `type`); foreignKey = the model's `foreignKey`, else a storage
 *   attribute named `<relation>ID` if there is one, else an implicit hidden slot named after the relation.
 * - relatedEntities: `path` names the inverse relatedEntity; the target is the dataclass that has it.
 */
import { didYouMean } from '../errors/closest-name.js'
import { fail } from '../errors/datastore-error.js'
import type {
  AliasAttributeDef,
  AttributeDef,
  CalculatedAttributeDef,
  CalculatedDefinition,
  ComputedAttributeFunctions,
  DataClassDef,
  RelatedEntitiesAttributeDef,
  RelatedEntityAttributeDef,
  SchemaDef,
  StorageAttributeDef,
} from './definitions.js'
import {
  ATTRIBUTE_KINDS,
  VALUE_TYPES,
  type AttributeJson,
  type AttributeKind,
  type DataClassJson,
  type MethodJson,
  type ModelJson,
  type SingletonJson,
  type ValueType,
} from './model-json.js'
import { stableId } from './stable-id.js'
import {
  DELETED_RECORDS,
  GLOBAL_STAMP,
  deletedRecordsJson,
  missingDeletedFields,
  reservedNameAllowed,
  trackingAttributeProblem,
} from './change-tracking.js'

export interface LoadModelOptions {
  /** The application name, used when the model has no `__NAME`. @default 'entistore' */
  readonly name?: string
  /**
   * Functions of calculated attributes: `{ Employee: { fullName: (e) => … } }`, the getter alone, or
   * its functions, `{ fullName: { get, set, query, orderBy } }` (ComputedAttributeFunctions).
   */
  readonly calculated?: Readonly<Record<string, Readonly<Record<string, CalculatedDefinition>>>>
}

const KEY_TYPES: ReadonlySet<ValueType> = new Set([
  'long',
  'long64',
  'word',
  'byte',
  'string',
  'uuid',
])
const NUMERIC_TYPES: ReadonlySet<ValueType> = new Set([
  'long',
  'long64',
  'word',
  'byte',
  'number',
  'duration',
])

const DATACLASS_FIELDS = new Set([
  'name',
  'className',
  'collectionName',
  'tableNumber',
  'scope',
  'exposed',
  'uuid',
  'dataURI',
  'defaultTopSize',
  'extraProperties',
  'attributes',
  'key',
  'methods',
])
const ATTRIBUTE_FIELDS = new Set([
  'name',
  'kind',
  'type',
  'fieldPos',
  'scope',
  'exposed',
  'uuid',
  'indexed',
  'indexKind',
  'unique',
  'not_null',
  'autosequence',
  'identifying',
  'readOnly',
  'path',
  'reversePath',
  'foreignKey',
  'inverseName',
  'dateOnly',
  'maxLength',
  'never_null',
])

// Names become object keys and URL segments: letters, digits and underscores, not starting with a
// digit, and never `__…` (the wire's own names: __KEY, __STAMP, __proto__).
const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u

/** Whether `name` may name a dataclass or an attribute (the `__…` names of change tracking aside). */
export const isModelName = (name: string): boolean => NAME.test(name) && !name.startsWith('__')

function invalid(where: string, why: string): never {
  return fail('InvalidModel', [where, why])
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

// `reserved`: the dataclass whose attribute it names (or null for a dataclass), for the few `__…`
// names of 4D's change tracking (change-tracking.ts); undefined where none is allowed.
function checkName(where: string, name: unknown, reserved?: string | null): string {
  if (
    typeof name !== 'string' ||
    !NAME.test(name) ||
    (name.startsWith('__') &&
      (reserved === undefined || !reservedNameAllowed(name, reserved ?? undefined)))
  ) {
    invalid(
      where,
      `the name ${JSON.stringify(name)} is not valid (letters, digits and _, not starting with a digit or __)`,
    )
  }
  return name as string
}

function optional<T>(
  where: string,
  obj: Record<string, unknown>,
  field: string,
  type: 'string' | 'boolean' | 'number',
): T | undefined {
  const v = obj[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== type) invalid(where, `"${field}" must be a ${type}, got ${JSON.stringify(v)}`)
  if (type === 'number' && !Number.isInteger(v))
    invalid(where, `"${field}" must be an integer, got ${String(v)}`)
  return v as T
}

/**
 * Whether an attribute's `classID` (4D: the class an object field is restricted to) is 4D.Vector,
 * the one class Entistore gives a meaning; another class is echoed in the catalog and the values
 * stay plain objects.
 */
function isVectorClass(at: string, type: ValueType, classID: unknown): boolean {
  if (classID === undefined) return false
  if (typeof classID !== 'string') return invalid(at, '"classID" must be a string')
  if (type !== 'object') return invalid(at, `"classID" applies to object attributes, not ${type}`)
  return classID === '4D.Vector'
}

/** The fields of `obj` that are not in `known`, copied safely (Object.fromEntries never sets a prototype). */
function extras(
  obj: Record<string, unknown>,
  known: ReadonlySet<string>,
): Readonly<Record<string, unknown>> {
  return Object.freeze(Object.fromEntries(Object.entries(obj).filter(([k]) => !known.has(k))))
}

// The calculated functions come in plain objects: a dataclass or attribute named `toString` or
// `constructor` must not pick up a member of Object.prototype as its function.
const own = <T>(obj: Readonly<Record<string, T>> | undefined, name: string): T | undefined =>
  obj !== undefined && Object.hasOwn(obj, name) ? obj[name] : undefined

/**
 * A `methods` list of the catalog (the datastore's, a dataclass's, a singleton's): objects with a
 * valid `name`, copied and frozen; absent is empty.
 */
function methodList(where: string, value: unknown): readonly MethodJson[] {
  if (value === undefined) return Object.freeze([])
  if (!Array.isArray(value) || !value.every((x) => isRecord(x) && typeof x.name === 'string'))
    invalid(where, '"methods" must be an array of objects with a "name"')
  const list = value as Record<string, unknown>[]
  list.forEach((x, i) => checkName(`${where}: methods[${i}]`, x.name))
  return Object.freeze(list.map((x) => Object.freeze({ ...x }) as MethodJson))
}

/** The catalog's `singletons`: `{ name, methods }` objects. */
function singletonList(value: unknown): readonly SingletonJson[] {
  if (value === undefined) return Object.freeze([])
  if (!Array.isArray(value)) invalid('model', '"singletons" must be an array')
  return Object.freeze(
    (value as unknown[]).map((s, i) => {
      const where = `singletons[${i}]`
      if (!isRecord(s)) invalid(where, 'expected an object with a "name" and "methods"')
      const o = s as Record<string, unknown>
      return Object.freeze({
        ...o,
        name: checkName(where, o.name),
        methods: methodList(`singleton "${String(o.name)}"`, o.methods ?? []),
      }) as SingletonJson
    }),
  )
}

interface RawClass {
  readonly json: DataClassJson
  readonly where: string
  readonly index: number
}

export function loadModel(model: unknown, options: LoadModelOptions = {}): SchemaDef {
  if (!isRecord(model)) invalid('model', 'expected an object with a "dataClasses" array')
  const m = model as Record<string, unknown>
  if (!Array.isArray(m.dataClasses)) invalid('model', 'expected a "dataClasses" array')
  const name = optional<string>('model', m, '__NAME', 'string') ?? options.name ?? 'entistore'
  const methods = methodList('model', m.methods)
  const singletons = singletonList(m.singletons)

  // Pass 1: names, so relations can point forward.
  const raws: RawClass[] = []
  const seen = new Set<string>()
  ;(m.dataClasses as unknown[]).forEach((json, index) => {
    const where = `dataClasses[${index}]`
    if (!isRecord(json)) invalid(where, 'expected an object')
    const dcName = checkName(where, (json as Record<string, unknown>).name, null)
    if (seen.has(dcName)) invalid(where, `the dataclass "${dcName}" is defined twice`)
    seen.add(dcName)
    raws.push({ json: json as DataClassJson, where: `dataclass "${dcName}"`, index })
  })
  addDeletedRecords(raws)

  // Pass 2: each dataclass with its storage attributes and key; relations need every key type,
  // so they are resolved in pass 3.
  const drafts = raws.map((raw) => draftDataClass(raw, options))
  const draftByName = new Map(drafts.map((d) => [d.name, d]))
  for (const d of drafts) resolveRelations(d, draftByName)
  const dataClasses = drafts.map((d) => finish(d, draftByName))
  return Object.freeze({
    name,
    methods,
    singletons,
    dataClasses: Object.freeze(dataClasses),
    byName: new Map(dataClasses.map((d) => [d.name, d])),
  })
}

/**
 * With a tracked dataclass, the datastore has `__DeletedRecords`: the model's, which must hold the
 * fields 4D fills, or else one added as 4D's structure editor adds it (table number after the last).
 */
function addDeletedRecords(raws: RawClass[]): void {
  const declared = raws.find((r) => r.json.name === DELETED_RECORDS)
  if (declared) {
    const attrs = Array.isArray(declared.json.attributes) ? declared.json.attributes : []
    const missing = missingDeletedFields({
      ...declared.json,
      attributes: attrs.filter(isRecord) as AttributeJson[],
    })
    if (missing.length > 0)
      invalid(declared.where, `change tracking needs the attributes ${missing.join(', ')}`)
    return
  }
  const tracked = raws.some(
    (r) =>
      Array.isArray(r.json.attributes) &&
      r.json.attributes.some((a) => isRecord(a) && a.name === GLOBAL_STAMP),
  )
  if (!tracked) return
  const last = raws.reduce(
    (n, r) =>
      Math.max(n, typeof r.json.tableNumber === 'number' ? r.json.tableNumber : r.index + 1),
    0,
  )
  raws.push({
    json: deletedRecordsJson(last + 1),
    where: `dataclass "${DELETED_RECORDS}"`,
    index: raws.length,
  })
}

interface Draft {
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

interface PendingRelation {
  readonly pending: true
  readonly json: AttributeJson
  readonly common: Common
  readonly where: string
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

function draftDataClass(raw: RawClass, options: LoadModelOptions): Draft {
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

function valueType(at: string, type: string | undefined, fallback?: ValueType): ValueType {
  const t = type ?? fallback
  if (t === undefined) return invalid(at, 'a "type" is required')
  if (!(VALUE_TYPES as readonly string[]).includes(t))
    invalid(at, `unknown type ${JSON.stringify(t)} (expected one of ${VALUE_TYPES.join(', ')})`)
  return t as ValueType
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
      if (autosequence && !NUMERIC_TYPES.has(type) && type !== 'uuid')
        invalid(at, `autosequence needs a numeric or uuid type, not ${type}`)
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
      return Object.freeze<CalculatedAttributeDef>({
        ...common,
        // Writable when it has a set function, unless the model says otherwise (the catalog shows it).
        readOnly: attr.readOnly ?? fns.set === undefined,
        kind,
        type: valueType(at, attr.type),
        ...fns,
      })
    }
    case 'relatedEntity':
    case 'relatedEntities':
    case 'alias':
      return { pending: true, json: attr, common, where: at }
  }
}

const COMPUTED_MEMBERS: readonly string[] = ['get', 'set', 'query', 'orderBy']

const describe = (v: unknown): string =>
  v === null ? 'null' : typeof v === 'string' ? JSON.stringify(v) : typeof v

/**
 * The functions of a calculated attribute as its definition holds them: a getter alone, or an
 * object of get/set/query/orderBy functions (any of them may be left out; without `get` the
 * attribute reads null). The getter becomes `compute`, which reads and scans call as
 * `compute(entity)`: an object's `get` is called with the entity as `this` too.
 */
function computedFunctions(
  at: string,
  given: CalculatedDefinition | undefined,
): Pick<CalculatedAttributeDef, 'compute' | 'set' | 'query' | 'orderBy'> {
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
    compute: get && ((entity) => get.call(entity, entity)),
  }
  if (fns.set) out.set = fns.set
  if (fns.query) out.query = fns.query
  if (fns.orderBy) out.orderBy = fns.orderBy
  return out as Pick<CalculatedAttributeDef, 'compute' | 'set' | 'query' | 'orderBy'>
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

// Only key-like types can hold a key: a bool, date or object foreignKey matches no key type.
const keyFamily = (t: ValueType): 'number' | 'text' | 'other' =>
  NUMERIC_TYPES.has(t) ? 'number' : t === 'string' || t === 'uuid' ? 'text' : 'other'

function resolveRelations(draft: Draft, drafts: ReadonlyMap<string, Draft>): void {
  const storageNamed = (name: string): StorageAttributeDef | undefined => {
    const a = draft.attributes.find((x) => !('pending' in x) && x.name === name)
    return a && !('pending' in a) && a.kind === 'storage' ? a : undefined
  }
  const implicit: StorageAttributeDef[] = []
  draft.attributes.forEach((a, i) => {
    if (!('pending' in a) || a.json.kind !== 'relatedEntity') return
    const { json, common, where } = a
    const targetName = json.path ?? json.type
    const target = targetName === undefined ? undefined : drafts.get(targetName)
    if (!target)
      return invalid(
        where,
        `the related dataclass ${JSON.stringify(targetName)} does not exist${targetName === undefined ? '' : didYouMean(targetName, drafts.keys())}`,
      )
    const targetKey = target.key!
    let fk: StorageAttributeDef | undefined
    if (json.foreignKey !== undefined) {
      fk = storageNamed(json.foreignKey)
      if (!fk)
        return invalid(
          where,
          `the foreignKey "${json.foreignKey}" is not a storage attribute of ${draft.where}`,
        )
    } else {
      fk = storageNamed(`${common.name}ID`)
    }
    if (fk && keyFamily(fk.type) !== keyFamily(targetKey.type)) {
      invalid(
        where,
        `the foreignKey "${fk.name}" (${fk.type}) cannot hold keys of "${target.name}" (${targetKey.type})`,
      )
    }
    if (!fk) {
      fk = Object.freeze<StorageAttributeDef>({
        name: common.name,
        fieldPos: undefined,
        scope: 'public',
        exposed: false,
        uuid: stableId(draft.name, common.name, 'key'),
        readOnly: false,
        extra: Object.freeze({}),
        kind: 'storage',
        type: targetKey.type,
        indexed: false,
        indexKind: 'hash',
        unique: false,
        notNull: false,
        autosequence: false,
        identifying: false,
        dateOnly: false,
        implicit: true,
      })
      implicit.push(fk)
    }
    draft.attributes[i] = Object.freeze<RelatedEntityAttributeDef>({
      ...common,
      kind: 'relatedEntity',
      type: target.name,
      target: target.name,
      foreignKey: fk.name,
      foreignKeyAttribute: fk,
      inverseName: json.inverseName,
    })
  })
  // relatedEntities and aliases read the relatedEntity attributes resolved here, possibly of other
  // dataclasses, so they wait for finish(), which runs once every dataclass is through this pass.
  draft.implicit.push(...implicit)
}

function resolveToMany(
  draft: Draft,
  a: PendingRelation,
  drafts: ReadonlyMap<string, Draft>,
): RelatedEntitiesAttributeDef {
  const { json, common, where } = a
  const inverse = json.path
  if (inverse === undefined)
    return invalid(
      where,
      'a relatedEntities attribute needs a "path" naming the inverse relatedEntity attribute',
    )
  const candidates = [...drafts.values()].filter((d) =>
    d.attributes.some(
      (x) =>
        !('pending' in x) &&
        x.kind === 'relatedEntity' &&
        x.name === inverse &&
        x.target === draft.name,
    ),
  )
  const byType =
    json.type === undefined
      ? undefined
      : candidates.filter(
          (d) => collectionName(d) === json.type || `${d.name}Selection` === json.type,
        )
  const pick = byType && byType.length === 1 ? byType : candidates
  if (pick.length !== 1) {
    // The relatedEntity names that do point here: a mistyped path is one of them.
    const pointing = [...drafts.values()].flatMap((d) =>
      d.attributes.flatMap((x) =>
        !('pending' in x) && x.kind === 'relatedEntity' && x.target === draft.name ? [x.name] : [],
      ),
    )
    return invalid(
      where,
      pick.length === 0
        ? `no dataclass has a relatedEntity "${inverse}" pointing to "${draft.name}"${didYouMean(inverse, pointing)}`
        : `several dataclasses have a relatedEntity "${inverse}" pointing to "${draft.name}": give "type" as <Class>Selection`,
    )
  }
  const target = pick[0]!
  // A type that names no selection of the dataclass found (`EmplyeeSelection`) is a typo, not a
  // choice: said, rather than ignored because the path alone found the dataclass.
  const types = [collectionName(target), `${target.name}Selection`, target.name]
  if (json.type !== undefined && !types.includes(json.type))
    invalid(
      where,
      `the type "${json.type}" is not the selection of ${target.name}, whose "${inverse}" this relation follows${didYouMean(json.type, types.slice(0, 2))}`,
    )
  return Object.freeze<RelatedEntitiesAttributeDef>({
    ...common,
    kind: 'relatedEntities',
    type: json.type ?? collectionName(target),
    target: target.name,
    inverse,
  })
}

const collectionName = (d: Draft): string => d.json.collectionName ?? `${d.name}Selection`

function resolveAlias(
  draft: Draft,
  a: PendingRelation,
  drafts: ReadonlyMap<string, Draft>,
): AliasAttributeDef {
  const { json, common, where } = a
  if (json.path === undefined || json.path === '') return invalid(where, 'an alias needs a "path"')
  const path = json.path.split('.')
  let dc: Draft = draft
  let type: string | undefined
  path.forEach((seg, i) => {
    const attr = dc.attributes.find((x) => ('pending' in x ? x.json.name : x.name) === seg)
    if (!attr)
      return invalid(
        where,
        `the alias path "${json.path}" names "${seg}", which is not an attribute of "${dc.name}"`,
      )
    const last = i === path.length - 1
    if ('pending' in attr) {
      if (attr.json.kind === 'alias')
        return invalid(where, `the alias path "${json.path}" goes through another alias ("${seg}")`)
      // A relatedEntities step not resolved yet: only allowed at the end. Its type comes from the
      // resolution (the model often gives none), else the alias would claim to be a string.
      if (!last)
        return invalid(
          where,
          `the alias path "${json.path}" goes through the to-many relation "${seg}"`,
        )
      type = resolveToMany(dc, attr, drafts).type
      return
    }
    if (last) {
      type = attr.type
      return
    }
    if (attr.kind !== 'relatedEntity')
      return invalid(
        where,
        `"${seg}" in the alias path "${json.path}" is not a relatedEntity attribute`,
      )
    dc = drafts.get(attr.target)!
  })
  return Object.freeze<AliasAttributeDef>({
    ...common,
    kind: 'alias',
    type: json.type ?? type ?? 'string',
    path: Object.freeze(path),
  })
}

function finish(draft: Draft, drafts: ReadonlyMap<string, Draft>): DataClassDef {
  const j = draft.json
  const attributes = draft.attributes.map((a) => {
    if (!('pending' in a)) return a
    return a.json.kind === 'relatedEntities'
      ? resolveToMany(draft, a, drafts)
      : resolveAlias(draft, a, drafts)
  })
  return Object.freeze<DataClassDef>({
    name: draft.name,
    className: j.className ?? draft.name,
    collectionName: collectionName(draft),
    tableNumber: j.tableNumber ?? draft.index + 1,
    scope: j.scope ?? 'public',
    exposed: j.exposed ?? true,
    uuid: j.uuid ?? stableId(draft.name),
    defaultTopSize: j.defaultTopSize ?? 100,
    extraProperties:
      j.extraProperties === undefined ? undefined : Object.freeze({ ...j.extraProperties }),
    attributes: Object.freeze(attributes),
    attributesByName: new Map(attributes.map((a) => [a.name, a])),
    storage: Object.freeze([
      ...attributes.filter((a): a is StorageAttributeDef => a.kind === 'storage'),
      ...draft.implicit,
    ]),
    key: draft.key!,
    tracked: attributes.some((a) => a.name === GLOBAL_STAMP),
    methods: methodList(draft.where, j.methods),
    extra: extras(j as unknown as Record<string, unknown>, DATACLASS_FIELDS),
  })
}
