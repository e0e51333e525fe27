/**
 * @module `$catalog`, `$catalog/$all` and `$catalog/{dataClass}`: the envelope
 * (`__UNIQID, __BASEID, __NAME, properties, methods, dataClasses`) and the dataclass and attribute
 * objects in the key order of the real server. Boolean flags that are false are left out, as 4D
 * does ("if any Index Kind was selected, this property will return true; otherwise it does not appear").
 */
import { isPublic, type AttributeDef, type DataClassDef, type SchemaDef } from '@entistore/core'
import { visibleAttributes, type JsonObject } from './entity.js'
import type { Uris } from './uris.js'

type Json = JsonObject[string]

export function catalogEnvelope(
  schema: SchemaDef,
  uniqId: string,
  dataClasses: JsonObject[],
): JsonObject {
  return {
    __UNIQID: uniqId,
    __BASEID: null,
    __NAME: schema.name,
    properties: { supportJSONEntityKey: true },
    methods: schema.methods
      .filter((m) => m.exposed !== false)
      .map((m) => ({ ...(m as JsonObject) })),
    dataClasses,
  }
}

/** The exposed dataclasses, in model order. */
export const exposedDataClasses = (schema: SchemaDef): DataClassDef[] =>
  schema.dataClasses.filter(isPublic)

export function shortDataClass(dc: DataClassDef, uris: Uris): JsonObject {
  return { name: dc.name, uri: uris.catalogDataClass(dc.name), dataURI: uris.dataClass(dc.name) }
}

/** `shows`: whether the session may describe an attribute (permissions); all visible ones without. */
export function detailedDataClass(
  schema: SchemaDef,
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
  out.attributes = (shows ? attributes.filter((a) => shows(dc, a)) : attributes).map(
    attributeObject,
  )
  out.key = [{ name: dc.key.name }]
  return out
}

function attributeObject(a: AttributeDef): JsonObject {
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
