/**
 * @module Shared objects and collections (docs/Concepts/shared.md): made by `New shared object`,
 * `New shared collection`, `.copy(ck shared)`, `OB Copy(…; ck shared)`, and the functions that
 * return a shared collection from a shared one. A collection knows it itself (`shared`); a shared
 * object is remembered here. Writing a shared value outside `Use…End use` is not an error
 * (compat.md).
 *
 * Their shared groups too, which `Use` locks (context/use-lock.ts): a shared value put in another
 * by an assignment inside a `Use` block (`$a.b:=$b`, `$c[0]:=$b`: ops/members.ts) joins its group
 * for good, except in `Storage`, which makes no group (shared.md).
 */
import { Collection } from './collection.js'

const sharedObjects = new WeakSet<object>()

/** Marks an object or a collection as shared, and gives it back. */
export function markShared<T extends object>(v: T): T {
  if (v instanceof Collection) v.shared = true
  else sharedObjects.add(v)
  return v
}

/** Whether an object or a collection is shared (`OB Is shared`). */
export function isShared(v: unknown): boolean {
  if (v instanceof Collection) return v.shared
  return typeof v === 'object' && v !== null && sharedObjects.has(v)
}

/** A collection made from `source`: shared when `source` is (`.filter()`, `.slice()`…). */
export function likeSource(source: Collection, made: Collection): Collection {
  if (source.shared) made.shared = true
  return made
}

/**
 * A shared group: the values in it share one lock, whose state it holds (`Use`:
 * context/use-lock.ts says what each field means).
 */
export interface SharedGroup {
  /** How many values are in it: a value alone in its own may still join another. */
  members: number
  /** The running context that holds its lock, if any. */
  holder: object | undefined
  /** How many `Use` blocks of the holder are open on it. */
  depth: number
  /** Of those, the ones a generator opened (it may wait between its steps inside them). */
  stepping: number
}

const groups = new WeakMap<object, SharedGroup>()
const storages = new WeakSet<object>()

/**
 * How many `Use` blocks (and shared functions) are open now, any call's. 4D puts a shared value
 * in another only inside one, so groups form only then: a write made while none is open (the
 * most of them) costs one test of this number.
 */
export let openUses = 0

/** A `Use` opened (1) or ended (-1): context/use-lock.ts. */
export function useOpened(delta: 1 | -1): void {
  openUses += delta
}

/** Marks `o` as a datastore's `Storage` (shared, and making no group), and gives it back. */
export function markStorage<T extends object>(o: T): T {
  storages.add(o)
  return markShared(o)
}

/** The group of `v`, if it is shared: its own until it is put in another shared value. */
export function groupOf(v: object): SharedGroup | undefined {
  const group = groups.get(v)
  if (group !== undefined || !isShared(v)) return group
  const own: SharedGroup = { members: 1, holder: undefined, depth: 0, stepping: 0 }
  groups.set(v, own)
  return own
}

/**
 * `value` put in `target`: when both are shared, `value` joins `target`'s group, unless it is in
 * a group of others already (4D refuses that write; here it goes through and the value keeps its
 * group) or `target` is a `Storage`.
 */
export function joinGroup(target: object, value: object): void {
  if (!isShared(value) || storages.has(target)) return
  const group = groupOf(target)
  if (group === undefined) return
  const own = groups.get(value)
  if (own === group || (own !== undefined && own.members > 1)) return
  groups.set(value, group)
  group.members++
}
