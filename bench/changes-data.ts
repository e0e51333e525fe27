/**
 * @module The data of the changes suite (issue 50): a tracked dataclass `Item` (its model declares
 * `__GlobalStamp`, so the datastore keeps `__DeletedRecords` too), rows of two shapes, the 1,000
 * changes a sync then asks for, and the same rows and changes as plain objects in an array (the
 * baseline's store).
 *
 * Two shapes, as a store that has lived a while holds them: two rows in three are short and were
 * loaded untouched (`__GlobalStamp` 0, as 4D gives rows written before tracking was on), one in three
 * carries two texts more and a stamp of its own (written since). The changes mix updates, creates
 * (of both shapes) and deletes of distinct keys, so that each is one row of the sync's answer.
 */
import type { Datastore, ModelJson } from '@entistore/core'
import { CITIES, nameOf, prng } from './data.ts'

export const TRACKED = 'Item'

export const CHANGES_MODEL: ModelJson = {
  dataClasses: [
    {
      name: TRACKED,
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'city', type: 'string' },
        { name: 'age', type: 'long' },
        { name: 'email', type: 'string' },
        { name: 'notes', type: 'string' },
        // What turns tracking on, as 4D's structure declares it (docs/change-tracking.md).
        { name: '__GlobalStamp', type: 'long64', indexed: true, exposed: true },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

export interface ItemRow {
  ID: number
  name: string
  city: string
  age: number
  email?: string
  notes?: string
  __GlobalStamp: number
}

/**
 * Row `i` (ID `i + 1`): the long shape every third row, with the stamp `i + 1`; else short, 0.
 * Object literals, not spreads of a common part: objects made by a spread were left slow to read
 * (a loop over 100k of them took 50 ms, over the same rows as literals 1.4 ms).
 */
function row(i: number, r: () => number): ItemRow {
  const ID = i + 1
  const name = nameOf(i)
  const city = CITIES[Math.floor(r() * CITIES.length)]!
  const age = 18 + Math.floor(r() * 60)
  if (i % 3 !== 0) return { ID, name, city, age, __GlobalStamp: 0 }
  const email = `user${i}@example.com`
  const notes = `customer since ${2000 + (i % 25)}, ${Math.floor(r() * 1e6)} points, tier ${i % 5}`
  return { ID, name, city, age, email, notes, __GlobalStamp: ID }
}

/** A copy of `x`, a literal of its shape (see `row`). */
function copyRow(x: ItemRow): ItemRow {
  const { ID, name, city, age, email, notes, __GlobalStamp } = x
  if (email === undefined) return { ID, name, city, age, __GlobalStamp }
  return { ID, name, city, age, email, notes, __GlobalStamp }
}

/** `n` rows, a fresh copy at each call (a store may keep what it is given). */
export function itemRows(n: number, seed = 50): ItemRow[] {
  const r = prng(seed)
  return Array.from({ length: n }, (_, i) => row(i, r))
}

/** One change of the plan. */
export type Change =
  | { readonly op: 'update'; readonly key: number; readonly age: number; readonly city: string }
  | { readonly op: 'create'; readonly row: ItemRow }
  | { readonly op: 'drop'; readonly key: number }

/** How many of each, out of 10: 6 updates, 3 creates, 1 delete. */
const OP_OF = [
  'update',
  'update',
  'update',
  'update',
  'update',
  'update',
  'create',
  'create',
  'create',
  'drop',
] as const

/**
 * `count` changes of a store of `n` rows: updates and deletes of distinct existing keys (no key
 * twice), creates of new IDs after `n`, in the 6:3:1 mix, interleaved.
 */
export function planChanges(n: number, count: number, seed = 51): Change[] {
  const r = prng(seed)
  const used = new Set<number>()
  const freshKey = (): number => {
    for (;;) {
      const k = 1 + Math.floor(r() * n)
      if (!used.has(k)) {
        used.add(k)
        return k
      }
    }
  }
  const out: Change[] = []
  let created = 0
  for (let j = 0; j < count; j++) {
    const op = OP_OF[j % OP_OF.length]!
    if (op === 'update')
      out.push({ op, key: freshKey(), age: 18 + (j % 60), city: CITIES[j % CITIES.length]! })
    else if (op === 'drop') out.push({ op, key: freshKey() })
    else {
      // Both shapes; the stamp is the datastore's to give (a client sends none).
      const made = row(n + created, r)
      made.__GlobalStamp = 0
      created++
      out.push({ op, row: made })
    }
  }
  return out
}

/** Rows a sync after the changes finds: changed or created, and deleted. */
export function expectedSync(changes: readonly Change[]): { rows: number; deleted: number } {
  const deleted = changes.filter((c) => c.op === 'drop').length
  return { rows: changes.length - deleted, deleted }
}

/** The changes made through the datastore's API, one commit each, as a client's writes are. */
export function applyChanges(ds: Datastore, changes: readonly Change[]): void {
  const dc = ds.dataClass(TRACKED)
  for (const c of changes) {
    if (c.op === 'update') dc.update(c.key, { age: c.age, city: c.city })
    else if (c.op === 'drop') dc.drop(c.key)
    else {
      const { __GlobalStamp: _, ...values } = c.row
      dc.create(values)
    }
  }
}

/** The plain store: the rows in an array, a deleted row's key and stamp in another. */
export interface PlainItems {
  readonly rows: ItemRow[]
  readonly deleted: { key: number; stamp: number }[]
  /** The last stamp given (the global stamp). */
  stamp: number
}

export function plainItems(n: number): PlainItems {
  const rows = itemRows(n)
  let stamp = 0
  for (const x of rows) if (x.__GlobalStamp > stamp) stamp = x.__GlobalStamp
  return { rows, deleted: [], stamp }
}

/**
 * The same changes on the plain store: each takes the next stamp; a delete moves the last row
 * into the hole (the array stays dense, the loop as short as the store) and records its key.
 */
export function applyPlainChanges(p: PlainItems, changes: readonly Change[]): void {
  const at = new Map<number, number>()
  p.rows.forEach((x, i) => at.set(x.ID, i))
  for (const c of changes) {
    const stamp = ++p.stamp
    if (c.op === 'update') {
      const x = p.rows[at.get(c.key)!]!
      x.age = c.age
      x.city = c.city
      x.__GlobalStamp = stamp
    } else if (c.op === 'create') {
      const x = copyRow(c.row)
      x.__GlobalStamp = stamp
      at.set(x.ID, p.rows.length)
      p.rows.push(x)
    } else {
      const i = at.get(c.key)!
      const last = p.rows.pop()!
      if (last.ID !== c.key) {
        p.rows[i] = last
        at.set(last.ID, i)
      }
      at.delete(c.key)
      p.deleted.push({ key: c.key, stamp })
    }
  }
}
