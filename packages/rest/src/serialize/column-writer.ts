/**
 * @module An entity's text written from its load's columns, for a row never written since its
 * load: the same text EntityWriter writes from the entity (`single`, `member`), without the
 * entity. A read by key of a random row spent more on making the row's record, its values object
 * and its Entity (and keeping them among the table's recent records, which the collector then
 * carries into its old generation) than on writing it: 2.7 µs of a GET's 23 on the serving thread,
 * besides 1.3 µs of collection (a CPU profile under load, 200k short rows, 2026-11-29).
 *
 * Only what reads the same from the columns as from the entity takes this path: a dataclass whose
 * attributes, as the unrestricted reader sees them, are stored values (each written by the same
 * function as the entity writer's, stored-text.ts: texts, numbers, dates, date-only values,
 * objects, pictures and BLOBs in their deferred form), relations to one (the related key read
 * from the foreign key's column, the related row looked up as `get` would) and relations to many
 * (whose deferred form needs the key alone). Computed attributes and aliases (whose values other
 * data decides) make a dataclass ineligible, and a transaction open somewhere a row: the caller
 * then writes it from its entity.
 */
import {
  keyText,
  loadedColumnsOf,
  rowIdOf,
  type DataClass,
  type DataClassDef,
  type KeyValue,
  type LoadedColumns,
} from '@entistore/core'
import { shapeOfClass } from './entity-shape.js'
import { quoteText } from './json-quote.js'
import { LastIso } from './last-iso.js'
import { numberText } from './number-text.js'
import { deferredEntityText, deferredText, jsonText, storedText } from './stored-text.js'
import type { Uris } from './uris.js'

/** One attribute as the columns give it, with its `,"name":` member. */
type ColumnSlot =
  | {
      readonly kind: 'stored'
      readonly member: string
      readonly name: string
      readonly position: number
      readonly dateOnly: boolean
    }
  | {
      readonly kind: 'one'
      readonly member: string
      readonly position: number
      readonly target: DataClass
      readonly deferred: Map<KeyValue, string>
    }
  | { readonly kind: 'many'; readonly member: string; readonly name: string }

// The deferred texts kept by related key, per relation: past this many, the map starts again (a
// relation to a large table is read at random keys; to a small one, the same few).
const MOST_DEFERRED = 4096

export class ColumnWriter {
  readonly #uris: Uris
  readonly #plans = new Map<DataClassDef, readonly ColumnSlot[] | null>()
  // A load's rows share the load's instant.
  readonly #iso = new LastIso()

  constructor(uris: Uris) {
    this.#uris = uris
  }

  /**
   * The text of row `rowId` of `dc`, held by `columns`, as EntityWriter writes its entity for a
   * reader who may see every attribute: `open` then `__KEY`, `__TIMESTAMP`, `__STAMP` and the
   * attributes (`open` is `{` for a member of `__ENTITIES`, the shape's singleOpen alone); or
   * undefined when the columns cannot tell it (see the module comment).
   */
  text(dc: DataClass, open: string, columns: LoadedColumns, rowId: number): string | undefined {
    const slots = this.#plan(dc)
    if (slots === null) return undefined
    // The row's entries read together before it is written (core's row-lanes.ts says why).
    columns.warm(rowId)
    const i = rowId - columns.start
    const key = columns.key(rowId)
    let out = `${open}"__KEY":${quoteText(keyText(key))},"__TIMESTAMP":${this.#iso.text(columns.timestamp(rowId))},"__STAMP":${columns.stamp(rowId)}`
    for (let s = 0; s < slots.length; s++) {
      const slot = slots[s]!
      switch (slot.kind) {
        case 'stored': {
          const v = columns.column(slot.position).get(i) ?? null
          // Texts and numbers inline, the commonest; the rest as the entity writer writes them.
          if (typeof v === 'string' && !slot.dateOnly) out += slot.member + quoteText(v)
          else if (typeof v === 'number' && Number.isFinite(v)) out += slot.member + numberText(v)
          else
            out += slot.member + storedText(this.#uris, dc.name, key, slot.name, slot.dateOnly, v)
          break
        }
        case 'one': {
          const fk = columns.column(slot.position).get(i)
          if (fk === null || fk === undefined) {
            out += `${slot.member}null`
            break
          }
          const related = this.#related(slot, fk)
          if (related === undefined) return undefined
          out += slot.member + related
          break
        }
        case 'many':
          out += slot.member + deferredText(this.#uris.attribute(dc.name, key, slot.name))
          break
      }
    }
    return `${out}}`
  }

  /**
   * The `$asArray` form of row `rowId` (EntityWriter.plain): `__KEY` as the key's own JSON type,
   * `__STAMP`, the stored attributes; relations left out. Undefined as `text` is.
   */
  plain(dc: DataClass, columns: LoadedColumns, rowId: number): string | undefined {
    const slots = this.#plan(dc)
    if (slots === null) return undefined
    const i = rowId - columns.start
    const key = columns.key(rowId)
    let out = `{"__KEY":${jsonText(key)},"__STAMP":${columns.stamp(rowId)}`
    for (const slot of slots) {
      if (slot.kind !== 'stored') continue
      const v = columns.column(slot.position).get(i) ?? null
      out += slot.member + storedText(this.#uris, dc.name, key, slot.name, slot.dateOnly, v)
    }
    return `${out}}`
  }

  /**
   * Row `rowId` of `dc` as a member of `__ENTITIES` (`text` with `{`), when its load's columns
   * still hold it as `entityAt` would read it (core's loadedColumnsOf); else undefined.
   */
  memberOf(dc: DataClass, rowId: number): string | undefined {
    const loaded = loadedColumnsOf(dc, rowId)
    return loaded === undefined ? undefined : this.text(dc, '{', loaded, rowId)
  }

  /** Row `rowId` of `dc` in the `$asArray` form, as memberOf reads it; else undefined. */
  plainOf(dc: DataClass, rowId: number): string | undefined {
    const loaded = loadedColumnsOf(dc, rowId)
    return loaded === undefined ? undefined : this.plain(dc, loaded, rowId)
  }

  /** The deferred form of the entity the foreign key `fk` names, 'null' for none, or undefined. */
  #related(slot: Extract<ColumnSlot, { kind: 'one' }>, fk: unknown): string | undefined {
    // Found as `get(fk)` finds it (Entity.valueOf), making no entity.
    const rowId = rowIdOf(slot.target, fk)
    if (rowId === undefined) return undefined
    if (rowId < 0) return 'null'
    const key = slot.target.table.keyOf(rowId)
    if (key === undefined) return 'null'
    let text = slot.deferred.get(key)
    if (text === undefined) {
      text = deferredEntityText(this.#uris, slot.target.name, key)
      if (slot.deferred.size >= MOST_DEFERRED) slot.deferred.clear()
      slot.deferred.set(key, text)
    }
    return text
  }

  /** The slots of `dc` as the columns give them, or null when its entities' texts cannot be. */
  #plan(dc: DataClass): readonly ColumnSlot[] | null {
    let plan = this.#plans.get(dc.def)
    if (plan === undefined) {
      plan = planOf(dc)
      this.#plans.set(dc.def, plan)
    }
    return plan
  }
}

function planOf(dc: DataClass): readonly ColumnSlot[] | null {
  const shape = shapeOfClass(dc)
  if (!shape.ownValues) return null
  const storage = dc.def.storage
  const position = (name: string): number => storage.findIndex((a) => a.name === name)
  const out: ColumnSlot[] = []
  for (const { attr, member, dateOnly } of shape.slots) {
    switch (attr.kind) {
      case 'storage': {
        const p = position(attr.name)
        if (p < 0) return null
        out.push({ kind: 'stored', member, name: attr.name, position: p, dateOnly })
        break
      }
      case 'relatedEntity': {
        const p = position(attr.foreignKey)
        if (p < 0) return null
        const target = dc.datastore.dataClass(attr.target)
        out.push({ kind: 'one', member, position: p, target, deferred: new Map() })
        break
      }
      case 'relatedEntities':
        out.push({ kind: 'many', member, name: attr.name })
        break
      default:
        return null
    }
  }
  return out
}
