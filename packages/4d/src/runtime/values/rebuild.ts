/**
 * @module A tree of values (collections and objects in one another) made anew: what the deep copy
 * (context/deep-copy.ts) and JSON's values made 4D ones (convert/json.ts) share. The tree is
 * walked with a stack of the collections and objects opened, not by recursion, so that the walk
 * may give way at any value (resumable.ts) and a call in slices stop there: each one is made when
 * it is met (empty, and put in its parent then), its members after it. Each value is a pass of
 * the budget's.
 */
import { Collection } from './collection.js'
import type { Passes } from './passes.js'
import { runAll, runSteps, type Resumable } from './resumable.js'
import type { Work } from './work.js'

/** An array or object opened: its members (by `keys` for an object), made into `out`. */
interface Opened {
  readonly source: Readonly<Record<string, unknown>> | readonly unknown[]
  readonly keys: readonly string[] | undefined
  readonly out: Record<string, unknown> | Collection
  i: number
}

/** Opens an array (`keys` undefined, `out` a collection) or an object, its members to make. */
export type Open = (
  source: Readonly<Record<string, unknown>> | readonly unknown[],
  keys: readonly string[] | undefined,
  out: Record<string, unknown> | Collection,
) => void

/**
 * What a value is made: a value at once, or a collection or object made empty, which `open`
 * is told of with the members to make into it.
 */
export type Make = (v: unknown, open: Open) => unknown

/** `root` made anew by `make`, at once. */
export function rebuild(root: unknown, rt: Passes, make: Make): unknown {
  const [made, work] = rebuilding(root, rt, make)
  runAll(work, rt)
  return made
}

/** `rebuild` as steps (work.ts): a stop possible at each value. */
export function* rebuildSteps(root: unknown, rt: Passes, make: Make): Work<unknown> {
  const [made, work] = rebuilding(root, rt, make)
  yield* runSteps(work, rt)
  return made
}

/** What `root` is made (its members not yet), and the work that makes its members. */
function rebuilding(root: unknown, rt: Passes, make: Make): [unknown, Resumable] {
  const stack: Opened[] = []
  const open: Open = (source, keys, out) => {
    stack.push({ source, keys, out, i: 0 })
  }
  // The root is a pass too.
  rt.ticks--
  const made = make(root, open)
  const work: Resumable = (rt) => {
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!
      const { source, keys, out } = top
      const n = keys === undefined ? (source as readonly unknown[]).length : keys.length
      let i = top.i
      if (i === n) {
        stack.pop()
        continue
      }
      // Its members, up to one that opens (made first, with its members).
      const depth = stack.length
      while (i < n && stack.length === depth) {
        if (--rt.ticks < 0) {
          top.i = i
          return false
        }
        if (keys === undefined)
          (out as Collection).items.push(make((source as readonly unknown[])[i], open))
        else {
          const key = keys[i]!
          const item = make((source as Readonly<Record<string, unknown>>)[key], open)
          // `__proto__` is a key like any other.
          if (key === '__proto__')
            Object.defineProperty(out, key, {
              value: item,
              writable: true,
              enumerable: true,
              configurable: true,
            })
          else (out as Record<string, unknown>)[key] = item
        }
        i++
      }
      top.i = i
    }
    return true
  }
  return [made, work]
}
