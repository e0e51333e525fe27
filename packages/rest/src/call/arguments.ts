/**
 * @module A function call's parameters as the wire gives them, turned into what the function
 * receives: a POST body or a GET `$params`, both a JSON array, whose top-level items may stand for
 * an entity or an entity selection, in the real server's forms:
 *
 * - `{"__DATACLASS": "Students", "__ENTITY": true, "__KEY": 55, "lastname": "Brownie"}`: the entity
 *   with that key (1542 when there is none); with attribute values, an EntityDraft of it carrying
 *   them, unsaved (the function decides whether to save); without `__KEY`, a new EntityDraft.
 * - `{"__DATASET": "<entity set id>", "__ENTITIES": true}`: the entity set's selection (1802).
 *
 * Items nested deeper are passed as plain JSON.
 */
import {
  attributeNames,
  dataClassNames,
  fail,
  isPublic,
  isShownAttribute,
  type Datastore,
  type DataClass,
  type EntitySelection,
} from '@entistore/core'
import type { Permissions } from '../permissions.js'

/**
 * The parameters of a POST: a JSON array; also `{ "params": [...] }` (a client's wrapper form), and
 * nothing at all, `null` or `{}` (what clients send for a call without parameters).
 */
export function bodyParameters(body: unknown): readonly unknown[] {
  if (body === undefined || body === null) return []
  if (Array.isArray(body)) return body
  if (typeof body === 'object') {
    const params = (body as { params?: unknown }).params
    if (Array.isArray(params)) return params
    if (Object.keys(body).length === 0) return []
  }
  return fail('BadRequestBody', [
    'the parameters of a function are a JSON array, such as ["Aguada", 3]',
  ])
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The parameters with their entity and entity-selection forms resolved (see the module note). */
export function resolveParameters(
  ds: Datastore,
  params: readonly unknown[],
  perms: Permissions | undefined,
): unknown[] {
  return params.map((p) => {
    if (!isRecord(p)) return p
    if (p.__ENTITY === true) return entityParameter(ds, p, perms)
    if (p.__ENTITIES === true) return selectionParameter(ds, p, perms)
    return p
  })
}

/**
 * The exposed dataclass a parameter names (1800 otherwise), readable by the session (what the
 * function does with the entity is its own business: `execute` permits it).
 */
function dataClassOf(ds: Datastore, name: unknown, perms: Permissions | undefined): DataClass {
  const dc = typeof name === 'string' ? ds.findDataClass(name) : undefined
  if (!dc || !isPublic(dc.def))
    return fail('DataClassNotFound', [String(name), dataClassNames(ds.schema, true)])
  perms?.need('read', dc.name)
  return dc
}

function entityParameter(
  ds: Datastore,
  p: Record<string, unknown>,
  perms: Permissions | undefined,
): unknown {
  const dc = dataClassOf(ds, p.__DATACLASS, perms)
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const name of Object.keys(p)) {
    if (name.startsWith('__')) continue
    const attr = dc.def.attributesByName.get(name)
    if (!attr || !isShownAttribute(ds.schema, attr))
      fail('UnknownAttribute', [name, dc.name, attributeNames(ds.schema, dc.def, true)])
    values[name] = p[name]
  }
  const changed = Object.keys(values).length > 0
  if (p.__KEY === undefined || p.__KEY === null) return dc.new(values)
  const entity = dc.getOrFail(p.__KEY)
  return changed ? entity.edit(values) : entity
}

function selectionParameter(
  ds: Datastore,
  p: Record<string, unknown>,
  perms: Permissions | undefined,
): EntitySelection {
  const id = p.__DATASET
  if (typeof id !== 'string' || id === '')
    return fail('BadRequestBody', [
      'an entity selection parameter names its entity set: {"__DATASET": "<id>", "__ENTITIES": true}',
    ])
  const set = ds.entitySets.get(id) ?? fail('EntitySetNotFound', [id])
  perms?.need('read', set.dataClass.name)
  return set.selection
}
