/**
 * @module The values a write assigns, checked before they are staged: each name an attribute of the
 * dataclass, each value coerced to its type (a computed attribute's set function first turning its
 * value into storage values), a relation's key an entity the transaction sees, a read-only value
 * refused, one attribute never given two values.
 */
import { fail } from '../errors/datastore-error.js'
import { generatedBy, type DataClassDef, type StorageAttributeDef } from '../schema/definitions.js'
import { coerceAt, type Locate } from '../store/changes.js'
import type { EntityRecord, KeyValue } from '../store/entity-record.js'
import { toKey } from '../store/keys.js'
import { relatedKeyOf } from '../store/related-key.js'
import type { Table } from '../store/table.js'
import { type StoredValue, describeValue } from '../values/coerce.js'
import { computedSets, hasSetters, isDeferred } from './computed-sets.js'
import { GLOBAL_STAMP } from '../schema/change-tracking.js'
import { explicitTarget, versioned, type Assignments, type WritePermit } from './write-values.js'

/** Whether a new entity gets `attr`'s value made for it when none is given (fillNewRow). */
export function generated(dc: DataClassDef, attr: StorageAttributeDef): boolean {
  return generatedBy(dc, attr) !== undefined
}

/** What checking a write's values needs of its transaction. */
export interface AssignContext {
  readonly permit: WritePermit | undefined
  /** The table of dataclass `name`. */
  table(name: string): Table
  /** Refuses `key` unless it names an entity of `target` the transaction sees. */
  checkReference(dc: DataClassDef, target: Table, key: KeyValue, where: Locate, label: string): void
}

/**
 * The attributes and stored values `given` assigns to an entity of `table` (`base`: its committed
 * version, null for a new one), each checked; a failure names where the value was (`where`).
 */
export function assignmentsOf(
  ctx: AssignContext,
  table: Table,
  given: Assignments,
  where: Locate,
  base: EntityRecord | null,
): [StorageAttributeDef, StoredValue][] {
  const dc = table.def
  const values = hasSetters(dc) ? computedSets(dc, given, base, where, ctx.permit) : given
  const out: [StorageAttributeDef, StoredValue][] = []
  const set = (attr: StorageAttributeDef, v: StoredValue, label: string): void => {
    // The pairs so far are few (the attributes a write names): a search, not a Map a write.
    for (const [a, w] of out)
      if (a === attr && w !== v)
        fail(
          'InvalidAttributeValue',
          [describeValue(v), label, attr.type, dc.name, `it conflicts with "${attr.name}"`],
          { details: { location: where(label), attribute: label } },
        )
    out.push([attr, v])
  }
  for (const name of Object.keys(values)) {
    const raw = values[name]
    if (raw === undefined) continue
    const attr = dc.attributesByName.get(name)
    if (!attr)
      fail('UnknownAttribute', [name, dc.name, dc.attributesByName.keys()], {
        details: { location: where(name) },
      })
    // A new entity's generated value given as null is left to be generated, as if absent:
    // clients that send every attribute (Wakanda's) send an unsaved entity's key as null.
    if (raw === null && base === null && attr.kind === 'storage' && generated(dc, attr)) continue
    switch (attr.kind) {
      case 'storage': {
        const v = versioned(coerceAt(dc, attr, raw, where), attr, base)
        if (name === GLOBAL_STAMP) {
          // The commit writes it (change-stamps.ts). A client saving back an entity as it read
          // it sends the value it holds: skipped; any other value is refused.
          if (v === null || v === (base?.values[name] ?? 0)) break
          fail('AttributeReadOnly', [name, dc.name, 'the engine writes it at each save'], {
            details: { location: where(name), attribute: name },
          })
        }
        set(attr, v, name)
        const relation = explicitRelation(ctx, dc, attr)
        if (relation && v !== null) ctx.checkReference(dc, relation, v as KeyValue, where, name)
        break
      }
      case 'relatedEntity': {
        const keyRaw = relatedKeyOf(raw)
        if (keyRaw === undefined) {
          fail(
            'InvalidAttributeValue',
            [
              describeValue(raw),
              name,
              attr.type,
              dc.name,
              'expected the related key, an object with "__KEY", or null',
            ],
            { details: { location: where(name), attribute: name } },
          )
        }
        if (keyRaw === null) {
          set(attr.foreignKeyAttribute, null, name)
          break
        }
        const target = ctx.table(attr.target)
        let key: KeyValue
        try {
          key = toKey(target.def, keyRaw)
        } catch {
          return fail(
            'InvalidAttributeValue',
            [describeValue(keyRaw), name, attr.type, dc.name, `not a key of ${target.def.name}`],
            { details: { location: where(name), attribute: name } },
          )
        }
        ctx.checkReference(dc, target, key, where, name)
        set(attr.foreignKeyAttribute, key, name)
        break
      }
      default:
        // A read's deferred form sent back as it came (a client saving a whole entity it read)
        // says nothing about the value: skipped. Any other value is an attempt to write it.
        if (isDeferred(raw)) break
        fail(
          'AttributeReadOnly',
          [
            name,
            dc.name,
            attr.kind === 'calculated' && attr.set
              ? 'it is a computed attribute named by a set function, which can only assign storage attributes and relations'
              : `it is a ${attr.kind} attribute, computed on read`,
          ],
          { details: { location: where(name), attribute: name } },
        )
    }
  }
  return out
}

// The relation whose foreign key `attr` is, when the model names it as its own attribute
// (`employerID`): writing it directly is a reference too.
function explicitRelation(
  ctx: AssignContext,
  dc: DataClassDef,
  attr: StorageAttributeDef,
): Table | undefined {
  const target = explicitTarget(dc, attr)
  return target === undefined ? undefined : ctx.table(target)
}
