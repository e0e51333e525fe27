/**
 * @module `$catalog`, `$catalog/$all` and `$catalog/{dataClass}`: the envelope
 * (`__UNIQID, __BASEID, __NAME, properties, methods, dataClasses`) and the dataclass and attribute
 * objects in the key order of the real server. Boolean flags that are false are left out, as 4D
 * does ("if any Index Kind was selected, this property will return true; otherwise it does not appear").
 */
import {
  isPublic,
  type AttributeDef,
  type DataClassDef,
  type FunctionInfo,
  type FunctionRegistry,
  type SchemaDef,
} from '@entistore/core'
import { visibleAttributes, type JsonObject } from './entity.js'
import type { Uris } from './uris.js'

type Json = JsonObject[string]

/**
 * The envelope of `$catalog` and `$catalog/$all`: `methods` lists the exposed datastore functions;
 * `singletons`, the shared singletons that have an exposed function, only when there is one (and
 * only in these two forms, as on the real server).
 */
export function catalogEnvelope(
  schema: SchemaDef,
  functions: FunctionRegistry,
  uniqId: string,
  dataClasses: JsonObject[],
): JsonObject {
  const out: JsonObject = {
    __UNIQID: uniqId,
    __BASEID: null,
    __NAME: schema.name,
    properties: { supportJSONEntityKey: true },
    methods: methodObjects(functions.list('dataStore')),
  }
  const singletons = functions
    .singletonNames()
    .map((name) => ({
      name,
      methods: functions
        .list('singleton', name)
        .filter((fn) => fn.exposed)
        .map((fn) => ({ name: fn.name, allowedOnHTTPGET: fn.onHTTPGet, exposed: true })),
    }))
    .filter((s) => s.methods.length > 0)
  if (singletons.length > 0) out.singletons = singletons
  out.dataClasses = dataClasses
  return out
}

/** The catalog's `applyTo` of each kind of function (4D's, after Wakanda's). */
const APPLY_TO = {
  dataStore: 'dataStore',
  dataClass: 'dataClass',
  entity: 'entity',
  entitySelection: 'entityCollection',
  singleton: 'singleton',
} as const

/**
 * The method objects of exposed functions, in the real server's key order (`name, applyTo, scope,
 * from, allowedOnHTTPGET, exposed`), then any field a model declaration carried.
 */
function methodObjects(fns: readonly FunctionInfo[]): JsonObject[] {
  return fns
    .filter((fn) => fn.exposed)
    .map((fn) => {
      const out: JsonObject = {
        name: fn.name,
        applyTo: APPLY_TO[fn.kind],
        scope: fn.scope,
        from: 'remoteServer',
        allowedOnHTTPGET: fn.onHTTPGet,
        exposed: true,
      }
      appendExtras(out, fn.extra)
      return out
    })
}

/** The exposed functions of a dataclass, of its entities and of its selections, in that order. */
function dataClassMethods(functions: FunctionRegistry, dc: DataClassDef): JsonObject[] {
  return [
    ...methodObjects(functions.list('dataClass', dc.name)),
    ...methodObjects(functions.list('entity', dc.name)),
    ...methodObjects(functions.list('entitySelection', dc.name)),
  ]
}

/** The exposed dataclasses, in model order. */
export const exposedDataClasses = (schema: SchemaDef): DataClassDef[] =>
  schema.dataClasses.filter(isPublic)

export function shortDataClass(dc: DataClassDef, uris: Uris): JsonObject {
  return { name: dc.name, uri: uris.catalogDataClass(dc.name), dataURI: uris.dataClass(dc.name) }
}

/**
 * A dataclass with its attributes, its `methods` (its exposed functions, when it has any) and its
 * key. `shows`: whether the session may describe an attribute (permissions); all visible ones
 * without.
 */
export function detailedDataClass(
  schema: SchemaDef,
  functions: FunctionRegistry,
  dc: DataClassDef,
  uris: Uris,
  shows?: (dc: DataClassDef, attr: AttributeDef) => boolean,
): JsonObject {
  const out: JsonObject = {
    name: dc.name,
    className: dc.className,
    collectionName: dc.collectionName,
    tableNumber: dc.tableNumber,
    scope: dc.scope,
    exposed: dc.exposed,
    uuid: dc.uuid,
    dataURI: uris.dataClass(dc.name),
  }
  if (dc.defaultTopSize !== 100) out.defaultTopSize = dc.defaultTopSize
  if (dc.extraProperties) out.extraProperties = dc.extraProperties as Json
  appendExtras(out, dc.extra)
  const attributes = visibleAttributes(schema, dc)
  out.attributes = (shows ? attributes.filter((a) => shows(dc, a)) : attributes).map((a) =>
    attributeObject(schema, a),
  )
  const methods = dataClassMethods(functions, dc)
  if (methods.length > 0) out.methods = methods
  out.key = [{ name: dc.key.name }]
  return out
}

/** The catalog's type of a getter of an entity (its dataclass) or of a selection (its selection). */
function relatedTypeName(schema: SchemaDef, related: { dataClass: string; many: boolean }): string {
  const dc = schema.byName.get(related.dataClass)
  return related.many ? (dc?.collectionName ?? `${related.dataClass}Selection`) : related.dataClass
}

function attributeObject(schema: SchemaDef, a: AttributeDef): JsonObject {
  const out: JsonObject = { name: a.name, kind: a.kind }
  if (a.fieldPos !== undefined) out.fieldPos = a.fieldPos
  out.scope = a.scope
  out.exposed = a.exposed
  out.uuid = a.uuid
  const flag = (name: string, on: boolean): void => {
    if (on) out[name] = true
  }
  if (a.kind === 'storage') {
    flag('indexed', a.indexed)
    flag('unique', a.unique)
    flag('not_null', a.notNull)
    flag('autosequence', a.autosequence)
  }
  out.type = a.type
  switch (a.kind) {
    case 'storage':
      flag('identifying', a.identifying)
      // Entistore's extension, shown so that a saved catalog loads back with the same meaning.
      if (a.type === 'date' && !a.dateOnly) out.dateOnly = false
      break
    case 'relatedEntity':
      out.path = a.target
      // Shown only when it is a real attribute: the hidden slot of an implicit key is not one.
      if (a.foreignKey !== a.name) out.foreignKey = a.foreignKey
      if (a.inverseName !== undefined) out.inverseName = a.inverseName
      break
    case 'relatedEntities':
      out.reversePath = true
      out.path = a.inverse
      break
    case 'alias':
      out.path = a.path.join('.')
      break
    case 'calculated':
      // A getter of an entity or a selection: typed as 4D types it, its dataclass or selection.
      if (a.related !== undefined) out.type = relatedTypeName(schema, a.related)
      break
  }
  flag('readOnly', a.readOnly)
  appendExtras(out, a.extra)
  return out
}

// Model extras are echoed as given. defineProperty (not assignment) keeps a "__proto__" key a
// plain key instead of replacing the object's prototype.
function appendExtras(out: JsonObject, extra: Readonly<Record<string, unknown>>): void {
  for (const [k, v] of Object.entries(extra)) {
    if (Object.hasOwn(out, k)) continue
    Object.defineProperty(out, k, {
      value: v as Json,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
}
