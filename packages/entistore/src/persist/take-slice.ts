/**
 * @module One slice of a large write: what a writer makes between two turns of the event loop
 * (a snapshot's frames, a saved data file's text), so that the loop is never held longer than a
 * few milliseconds however large the store.
 */

/** How long one slice may run, in milliseconds. */
export const SLICE_MS = 5

/** The pieces of one slice, their total length, and whether the iterator is exhausted. */
export interface Slice<T> {
  readonly pieces: T[]
  readonly size: number
  readonly done: boolean
}

/**
 * Takes pieces from `iterator` (made as they are asked for) for at most `ms` milliseconds or until
 * their lengths reach `max`: at least one piece, however short the slice, so that a slow piece
 * still moves the write on.
 */
export function takeSlice<T extends { readonly length: number }>(
  iterator: Iterator<T>,
  max: number,
  ms: number,
): Slice<T> {
  const pieces: T[] = []
  let size = 0
  const start = performance.now()
  do {
    const step = iterator.next()
    if (step.done) return { pieces, size, done: true }
    pieces.push(step.value)
    size += step.value.length
  } while (size < max && performance.now() - start < ms)
  return { pieces, size, done: false }
}
