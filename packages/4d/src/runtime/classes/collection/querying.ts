/**
 * @module `.query()` and `.indices()` (docs/API/CollectionClass.md): the elements, or their
 * indexes, that match a query string (query.ts); `.query()`'s result is shared when the
 * collection is, in the collection's order unless the query ends with `order by`.
 *
 * Each element tested and each comparison of `order by` is a pass of the budget's
 * (context/budget.ts): a query over millions of elements ends at the budget with 9410. Both are
 * written as steps (values/work.ts), so that a call in slices stops inside them: its order by is
 * values/sort-steps.ts's merge sort, stable as V8's sort, which the plain call keeps (a merge sort
 * in JavaScript took two thirds more over 100,000 objects).
 */
import { textArg } from '../../arguments/arguments.js'
import type { Runtime } from '../../context/runtime.js'
import { BLOCK, countedCompare, spend, type Passes } from '../../values/passes.js'
import { Collection } from '../../values/collection.js'
import { likeSource } from '../../values/shared.js'
import { sortSteps } from '../../values/sort-steps.js'
import { finish, type Work } from '../../values/work.js'
import type { CollectionFunctionSpec } from './define.js'
import { compareValues } from './order.js'
import { pathSteps, readPath } from './paths.js'
import { compileFilter, parseCollectionQuery, queryValues, type ElementTest } from './query.js'

/** A query made for a collection: its test of an element, and its order by, if any. */
interface Query {
  readonly items: readonly unknown[]
  readonly test: ElementTest
  readonly compare: ((i: number, j: number) => number) | undefined
}

/** The query of `args` made, or, when it has no filter, the indexes it gives. */
function made(self: Collection, fn: string, args: readonly unknown[]): Query | number[] {
  const command = `.${fn}()`
  const node = parseCollectionQuery(command, textArg(command, 'queryString', args[0]))
  if (node.filter === null) return self.items.map((_, i) => i)
  const test = compileFilter(command, node.filter, queryValues(args.slice(1)))
  const items = self.items
  if (node.orderBy.length === 0) return { items, test, compare: undefined }
  const criteria = node.orderBy.map((o) => ({
    steps: pathSteps(o.path.segments.map((s) => s.name).join('.')),
    descending: o.direction === 'desc',
  }))
  const compare = (i: number, j: number): number => {
    for (const { steps, descending } of criteria) {
      const c = compareValues(readPath(items[i], steps), readPath(items[j], steps))
      if (c !== 0) return descending ? -c : c
    }
    return 0
  }
  return { items, test, compare }
}

/** The indexes sorted by V8's sort, stable, each comparison a pass. */
const sorted = (rt: Passes, q: Query, indexes: number[]): number[] =>
  q.compare === undefined ? indexes : indexes.sort(countedCompare(rt, q.compare))

/**
 * The indexes of the elements that match, in the query's order, as steps: each element tested a
 * pass, and, in a call in slices (`sliced`), the order by as values/sort-steps.ts's merge sort.
 */
function* matching(rt: Passes, q: Query, sliced: boolean): Work<number[]> {
  const { items, test, compare } = q
  const indexes: number[] = []
  for (let i = 0; i < items.length; i++) {
    if (--rt.ticks < 0) {
      rt.tick()
      yield
    }
    if (test(items[i])) indexes.push(i)
  }
  return sliced && compare !== undefined
    ? yield* sortSteps(rt, indexes, compare)
    : sorted(rt, q, indexes)
}

/**
 * The plain call's indexes: a collection of a block or less tested without a generator (its
 * elements counted at once, a reading of the clock at the most either way), a larger one by the
 * steps run to their end.
 */
function matchingNow(rt: Runtime, self: Collection, fn: string, args: unknown[]): number[] {
  const q = made(self, fn, args)
  if (Array.isArray(q)) return q
  if (q.items.length > BLOCK) return finish(matching(rt, q, false))
  spend(rt, q.items.length)
  const indexes: number[] = []
  q.items.forEach((item, i) => {
    if (q.test(item)) indexes.push(i)
  })
  return sorted(rt, q, indexes)
}

function* matchingSteps(
  rt: Runtime,
  self: Collection,
  fn: string,
  args: unknown[],
): Work<number[]> {
  const q = made(self, fn, args)
  return Array.isArray(q) ? q : yield* matching(rt, q, true)
}

const elementsOf = (self: Collection, indexes: number[]): Collection =>
  likeSource(self, new Collection(indexes.map((i) => self.items[i])))

export const QUERYING: readonly CollectionFunctionSpec[] = [
  {
    name: 'query',
    signature: '(queryString: Text; ...valuesOrSettings: any): Collection',
    impl: (rt, self, args) => elementsOf(self, matchingNow(rt, self, 'query', args)),
    *steps(rt, self, args) {
      return elementsOf(self, yield* matchingSteps(rt, self, 'query', args))
    },
  },
  {
    name: 'indices',
    signature: '(queryString: Text; ...values: any): Collection',
    impl: (rt, self, args) => new Collection(matchingNow(rt, self, 'indices', args)),
    *steps(rt, self, args) {
      return new Collection(yield* matchingSteps(rt, self, 'indices', args))
    },
  },
]
