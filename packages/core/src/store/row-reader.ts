/**
 * @module The reading of one dataclass's rows of a data file for a load (load-data.ts): each row's
 * values checked and coerced to their attribute's type, in storage order, and its relations noted
 * as references to resolve once every dataclass is read.
 */
import { didYouMean } from '../errors/closest-name.js'
import { datastoreError, fail } from '../errors/datastore-error.js'
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import { parseDate } from '../values/dates.js'
import { coerceExact, type StoredValue } from '../values/coerce.js'
import { BatchState, coerceAt, type Locate } from './changes.js'
import { coerceFileValue } from './file-binary.js'
import type { LoadTarget } from './load-target.js'
import type { KeyValue } from './entity-record.js'
import { toKey } from './keys.js'
import { relatedKeyOf } from './related-key.js'
import type { Table } from './table.js'

/** Reads the rows of one dataclass into values by storage position (fillNewRow's input). */
export class RowReader {
  readonly #ds: LoadTarget
  readonly #table: Table
  readonly #dc: DataClassDef
  readonly #batch: BatchState
  readonly #refs: PendingRef[]
  readonly #now: number
  // The explicit foreign keys (employerID) of relations that name one: a value written there
  // directly is a reference too.
  readonly #explicitKeys: readonly {
    readonly relation: string
    readonly position: number
    readonly target: Table
  }[]

  constructor(ds: LoadTarget, table: Table, batch: BatchState, refs: PendingRef[], now: number) {
    this.#ds = ds
    this.#table = table
    this.#batch = batch
    this.#dc = table.def
    this.#refs = refs
    this.#now = now
    this.#values = new Array<StoredValue | undefined>(table.def.storage.length)
    // Only names that are storage attributes themselves (a relation's hidden key slot, named as
    // the relation, is not one: a row names the relation, which the general path reads).
    this.#positions = new Map(
      table.def.storage.flatMap((a, i) =>
        table.def.attributesByName.get(a.name) === a ? [[a.name, i] as const] : [],
      ),
    )
    this.#explicitKeys = table.def.attributes.flatMap((a) =>
      a.kind === 'relatedEntity' && a.foreignKey !== a.name
        ? [
            {
              relation: a.name,
              position: table.positionOf(a.foreignKey)!,
              target: ds.table(a.target),
            },
          ]
        : [],
    )
  }

  /** Coerces `raw` for `attr` into `values`; a second, different value for it is refused. */
  #set(
    values: (StoredValue | undefined)[],
    attr: StorageAttributeDef,
    raw: unknown,
    label: string,
    at: Locate,
    position: number = this.#table.positionOf(attr.name)!,
  ): void {
    // The exact form needs no conversion, but a length to check still does.
    const v =
      (attr.maxLength === undefined ? coerceExact(attr.type, raw) : undefined) ??
      coerceAt(this.#dc, attr, raw, at, label, coerceFileValue)
    const previous = values[position]
    if (previous !== undefined && previous !== v)
      bad(at(label), `conflicts with the value given for "${attr.name}"`)
    values[position] = v
  }

  /** The `__STAMP` of the row last read, if it gave one. */
  stamp: number | undefined
  /** The `__TIMESTAMP` of the row last read, or the load's time. */
  timestamp = 0
  // The values of the row being read, by storage position: one array for every row, since the
  // caller copies them into columns before the next.
  readonly #values: (StoredValue | undefined)[]
  // Storage attribute name → position in `def.storage`.
  readonly #positions: ReadonlyMap<string, number>
  // The storage attributes the rows read so far named, by their rank in the row (undefined where
  // a row had another name there), and their positions: see read.
  readonly #names: (string | undefined)[] = []
  readonly #namePositions: number[] = []

  /**
   * Row `index` of the file's rows of this dataclass (`at` locates its errors): its coerced values
   * by storage position, valid until the next call; its stamp and timestamp in `stamp` and
   * `timestamp`. `plainPrototype`: Object.prototype has no enumerable property.
   */
  read(
    row: Record<string, unknown>,
    at: Locate,
    index: number,
    plainPrototype: boolean,
  ): (StoredValue | undefined)[] {
    const dc = this.#dc
    // Emptied by a loop: Array.prototype.fill enters the runtime, 55 ns more a row of eight values
    // (11 ms of a start on 200k rows).
    const values = this.#values
    for (let p = 0; p < values.length; p++) values[p] = undefined
    let stamp: number | undefined
    let timestamp = this.#now
    const names = this.#names
    const positions = this.#namePositions
    let k = -1
    // A row of JSON.parse, or an object literal, inherits nothing enumerable when Object.prototype
    // has nothing enumerable: no own-property check a value then (half of for-in's cost over a
    // short row, measured on 200k rows of seven attributes).
    const proto: unknown = Object.getPrototypeOf(row)
    const own = proto === null || (plainPrototype && proto === Object.prototype)
    for (const name in row) {
      if (!own && !Object.hasOwn(row, name)) continue
      const raw = row[name]
      // The rows of a file name their attributes in one order: the k-th name of the row before
      // is most often this one, found by comparing two strings the parser made the same (no
      // hash), where a map lookup a value was the largest cost of reading a short row.
      k++
      if (name === names[k]) {
        this.#set(values, dc.storage[positions[k]!]!, raw, name, at, positions[k]!)
        continue
      }
      if (name === '__KEY') {
        this.#set(values, dc.key, isRecord(raw) ? raw[dc.key.name] : raw, name, at)
        continue
      }
      if (name === '__STAMP') {
        if (!Number.isInteger(raw) || (raw as number) < 1)
          bad(at(name), 'expected a positive integer')
        stamp = raw as number
        continue
      }
      if (name === '__TIMESTAMP') {
        const iso = parseDate(raw, false)
        if (iso === undefined) bad(at(name), 'expected an ISO 8601 date-time')
        timestamp = Date.parse(iso!)
        continue
      }
      // A storage attribute, the usual case, in one lookup with its position.
      const position = this.#positions.get(name)
      if (position !== undefined) {
        names[k] = name
        positions[k] = position
        this.#set(values, dc.storage[position]!, raw, name, at, position)
        continue
      }
      // A JSON Lines row names its dataclass, as a 4D REST entity does: the one it is loaded into.
      if (name === '__entityModel') {
        if (raw !== dc.name) bad(at(name), `expected "${dc.name}"`)
        continue
      }
      const attr = dc.attributesByName.get(name)
      if (!attr)
        bad(
          at(name),
          `"${name}" is not an attribute of ${dc.name}${didYouMean(name, dc.attributesByName.keys())}`,
        )
      switch (attr!.kind) {
        case 'storage':
          this.#set(values, attr, raw, name, at)
          break
        case 'relatedEntity': {
          const fk = attr.foreignKeyAttribute
          const keyRaw = relatedKeyOf(raw)
          if (keyRaw === undefined)
            bad(at(name), 'expected the related key, or an object with "__KEY"')
          if (keyRaw === null) {
            this.#set(values, fk, null, name, at)
            break
          }
          const target = this.#ds.table(attr.target)
          let key: KeyValue
          try {
            key = toKey(target.def, keyRaw)
          } catch (e) {
            throw datastoreError(
              'InvalidData',
              [at(name), `${JSON.stringify(keyRaw)} is not a key of ${target.def.name}`],
              { cause: e },
            )
          }
          this.#set(values, fk, key, name, at)
          this.#reference(index, name, target, key)
          break
        }
        default:
          // Computed attributes have no stored value. A REST read's deferred form is tolerated so a
          // saved response can be loaded back; anything else is most likely a mistake worth reporting.
          if (isRecord(raw) && '__deferred' in raw) break
          bad(
            at(name),
            `"${name}" is a ${attr!.kind} attribute: it is computed and cannot be loaded`,
          )
      }
    }
    // Explicit foreign keys written directly (employerID: 3) are references too, unless the row
    // also named the relation (then it was recorded above). Decided from this row alone: a look
    // back over the references of earlier rows made loading quadratic.
    const explicitKeys = this.#explicitKeys
    for (let j = 0; j < explicitKeys.length; j++) {
      const fk = explicitKeys[j]!
      const v = values[fk.position]
      if (v === null || v === undefined || Object.hasOwn(row, fk.relation)) continue
      this.#reference(index, this.#dc.storage[fk.position]!.name, fk.target, v as KeyValue)
    }
    this.stamp = stamp
    this.timestamp = timestamp
    return values
  }

  // A reference to a row already loaded (the usual order: groups before their items) is checked
  // now; only one to a row further down the file waits for the end.
  #reference(index: number, label: string, target: Table, key: KeyValue): void {
    if (this.#batch.hasNewKey(target, key) || target.rowIdOf(key) !== undefined) return
    this.#refs.push({ dataClass: this.#dc.name, index, label, target, key })
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export function bad(where: string, why: string): never {
  return fail('InvalidData', [where, why], { details: { location: where } })
}

/** A reference to check once every row is read; its location is written only if it fails. */
export interface PendingRef {
  readonly dataClass: string
  readonly index: number
  readonly label: string
  readonly target: Table
  readonly key: KeyValue
}
