/**
 * @module Entities in the wire's read form. Key order follows the real server:
 * in a selection `__KEY, __TIMESTAMP, __STAMP, attributes…`; alone
 * `__entityModel, __DATACLASS, __KEY, __TIMESTAMP, __STAMP, attributes…`.
 * Relations and pictures/BLOBs come in the deferred form; date-only values as `!!YYYY-MM-DD!!`.
 */
import {
  Entity,
  EntitySelection,
  isBinaryValue,
  isPublic,
  keyText,
  type AliasAttributeDef,
  type AttributeDef,
  type DataClassDef,
  type SchemaDef,
  type StoredValue,
} from '@entistore/core'
import type { Uris } from './uris.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

/** The attributes a client may see, in model order. */
export function visibleAttributes(dc: DataClassDef): AttributeDef[] {
  return dc.attributes.filter(isPublic)
}

/** The attribute an alias path ends on (`employer.name` → Company's `name`), if it resolves. */
function aliasEnd(
  schema: SchemaDef,
  dc: DataClassDef,
  alias: AliasAttributeDef,
): AttributeDef | undefined {
  let def: DataClassDef | undefined = dc
  let attr: AttributeDef | undefined
  for (const step of alias.path) {
    attr = def?.attributesByName.get(step)
    def = attr?.kind === 'relatedEntity' ? schema.byName.get(attr.target) : undefined
  }
  return attr
}

const visibleCache = new WeakMap<DataClassDef, AttributeDef[]>()
function visible(dc: DataClassDef): AttributeDef[] {
  let list = visibleCache.get(dc)
  if (!list) visibleCache.set(dc, (list = visibleAttributes(dc)))
  return list
}

export class EntityWriter {
  readonly #uris: Uris
  // The ISO text of the last timestamp written: the entities of a page were mostly saved at the
  // same instant (a load, a batch), and toISOString is a good part of writing a small entity.
  #lastTimestamp = NaN
  #lastIso = ''

  constructor(uris: Uris) {
    this.#uris = uris
  }

  /** One entity, as in `GET /rest/Employee[3]`. */
  single(entity: Entity): JsonObject {
    const name = entity.dataClass.name
    return this.#fill({ __entityModel: name, __DATACLASS: name }, entity)
  }

  /** One member of `__ENTITIES`. */
  member(entity: Entity): JsonObject {
    return this.#fill({}, entity)
  }

  /** The `$asArray` form (the current server's): `__KEY` as the key's own JSON type, `__STAMP`, scalar attributes; relations left out. */
  plain(entity: Entity): JsonObject {
    const out: JsonObject = { __KEY: entity.getKey(), __STAMP: entity.getStamp() }
    for (const attr of visible(entity.dataClass.def)) {
      if (attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities') continue
      const v = this.value(entity, attr)
      if (v !== undefined) out[attr.name] = v
    }
    return out
  }

  #fill(out: JsonObject, entity: Entity): JsonObject {
    out.__KEY = keyText(entity.getKey())
    out.__TIMESTAMP = this.#iso(entity.getTimestamp())
    out.__STAMP = entity.getStamp()
    for (const attr of visible(entity.dataClass.def)) {
      const v = this.value(entity, attr)
      if (v !== undefined) out[attr.name] = v
    }
    return out
  }

  #iso(timestamp: number): string {
    if (timestamp !== this.#lastTimestamp) {
      this.#lastIso = new Date(timestamp).toISOString()
      this.#lastTimestamp = timestamp
    }
    return this.#lastIso
  }

  /** The wire value of one attribute of `entity`. */
  value(entity: Entity, attr: AttributeDef): Json | undefined {
    const dc = entity.dataClass.name
    switch (attr.kind) {
      case 'storage':
        return this.#stored(
          entity,
          attr.name,
          attr.type === 'date' && attr.dateOnly,
          entity.record.values[attr.name] ?? null,
        )
      case 'relatedEntity': {
        const related = entity.valueOf(attr) as Entity | null
        return related ? this.#deferredEntity(related) : null
      }
      case 'relatedEntities':
        return { __deferred: { uri: this.#uris.attribute(dc, entity.getKey(), attr.name) } }
      case 'calculated':
        return this.#computed(entity, attr.name, entity.valueOf(attr))
      case 'alias': {
        const v = entity.valueOf(attr)
        // An alias of a date-only attribute holds a date-only value: written as the attribute is.
        const end = aliasEnd(entity.dataClass.datastore.schema, entity.dataClass.def, attr)
        if (typeof v === 'string' && end?.kind === 'storage' && end.type === 'date' && end.dateOnly)
          return `!!${v}!!`
        return this.#computed(entity, attr.name, v)
      }
    }
  }

  #deferredEntity(related: Entity): JsonObject {
    return {
      __deferred: {
        uri: this.#uris.entity(related.dataClass.name, related.getKey()),
        __KEY: keyText(related.getKey()),
      },
    }
  }

  #stored(entity: Entity, name: string, dateOnly: boolean, v: StoredValue): Json {
    if (v === null) return null
    if (isBinaryValue(v)) {
      const image = v.type.startsWith('image/')
      const params = image
        ? `$imageformat=best&$version=${v.version}&`
        : `$binary=true&$version=${v.version}&`
      const uri = this.#uris.attribute(entity.dataClass.name, entity.getKey(), name, params)
      return image ? { __deferred: { uri, image: true } } : { __deferred: { uri } }
    }
    // Date-only values are stored as YYYY-MM-DD; the real server writes them between `!!`.
    if (dateOnly && typeof v === 'string') return `!!${v}!!`
    return v as Json
  }

  // Calculated and alias values have no declared storage form: render them by what they are.
  #computed(entity: Entity, name: string, v: unknown): Json | undefined {
    if (v instanceof Entity) return this.#deferredEntity(v)
    if (v instanceof EntitySelection)
      return {
        __deferred: { uri: this.#uris.attribute(entity.dataClass.name, entity.getKey(), name) },
      }
    if (v instanceof Date) return v.toISOString()
    if (
      v === undefined ||
      typeof v === 'function' ||
      typeof v === 'symbol' ||
      typeof v === 'bigint'
    )
      return null
    if (typeof v === 'number' && !Number.isFinite(v)) return null
    return this.#stored(entity, name, false, v as StoredValue)
  }
}
