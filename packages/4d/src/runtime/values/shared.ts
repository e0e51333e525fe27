/**
 * @module Shared objects and collections (docs/Concepts/shared.md): made by `New shared object`,
 * `New shared collection`, `.copy(ck shared)`, `OB Copy(…; ck shared)`, and the functions that
 * return a shared collection from a shared one. A collection knows it itself (`shared`); a shared
 * object is remembered here. One process runs 4D code at a time here, so `Use…End use` has
 * nothing to lock, and writing a shared value outside it is not an error (compat.md).
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
