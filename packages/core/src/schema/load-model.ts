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
import type { SchemaDef } from './definitions.js'
import type { AttributeJson, DataClassJson } from './model-json.js'
import {
  DELETED_RECORDS,
  GLOBAL_STAMP,
  deletedRecordsJson,
  missingDeletedFields,
} from './change-tracking.js'
import {
  invalid,
  isRecord,
  checkName,
  optional,
  methodList,
  singletonList,
} from './model-checks.js'
import { type LoadModelOptions, type RawClass, draftDataClass } from './model-draft.js'
import { resolveRelations, finish } from './resolve-relations.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to model-draft.js once that lands.
export type { LoadModelOptions } from './model-draft.js'

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
