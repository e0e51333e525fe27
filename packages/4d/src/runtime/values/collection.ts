/**
 * @module 4D's Collection (docs/Concepts/dt_collection.md): an ordered list of values, handled by
 * reference (`$c2:=$c1` shares one collection; `$c1=$c2` compares references). A class over a
 * JavaScript array, so that a collection is never mistaken for an object and its elements stay
 * 4D values. The collection functions (`push`, `map`, `query`…) are the commands library's; this
 * file holds what the operators need.
 */
import { withinLimit } from './limits.js'

export class Collection {
  /** Whether it was made by `New shared collection` (then written inside `Use…End use`). */
  shared = false

  constructor(
    /** The elements, in order: 4D values (never `undefined`, which an element holds as null). */
    readonly items: unknown[] = [],
  ) {}

  /** `[a; b; c]`: undefined elements become null, as the collection literal's do. */
  static of(...items: unknown[]): Collection {
    return new Collection(items.map((v) => (v === undefined ? null : v)))
  }

  get length(): number {
    return this.items.length
  }

  /** The element at `index` (0-based), undefined past the end or before the start. */
  at(index: number): unknown {
    return index >= 0 && index < this.items.length ? this.items[index] : undefined
  }

  /**
   * Sets the element at `index`; an index past the end grows the collection, the elements between
   * becoming null (dt_collection.md: `myCol[5]:="Z"` on two elements leaves 2 to 4 null).
   */
  set(index: number, value: unknown): void {
    const items = this.items
    if (index >= items.length) withinLimit('elements', 'A collection', index + 1)
    while (items.length < index) items.push(null)
    items[index] = value
  }
}
