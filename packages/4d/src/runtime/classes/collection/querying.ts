/**
 * @module `.query()` and `.indices()` (docs/API/CollectionClass.md): the elements, or their
 * indexes, that match a query string (query.ts); `.query()`'s result is shared when the
 * collection is, in the collection's order unless the query ends with `order by`.
 *
 * Each element tested and each comparison of `order by` is a pass of the budget's
 * (context/budget.ts): a query over millions of elements ends at the budget with 9410.
 */
import { textArg } from '../../arguments/arguments.js'
import { countedCompare, type Passes } from '../../values/passes.js'
import { Collection } from '../../values/collection.js'
import { likeSource } from '../../values/shared.js'
import type { CollectionFunctionSpec } from './define.js'
import { compareValues } from './order.js'
import { pathSteps, readPath } from './paths.js'
import { compileFilter, parseCollectionQuery, queryValues } from './query.js'

function matching(rt: Passes, self: Collection, fn: string, args: readonly unknown[]): number[] {
  const command = `.${fn}()`
  const node = parseCollectionQuery(command, textArg(command, 'queryString', args[0]))
  const indexes: number[] = []
  if (node.filter === null) return self.items.map((_, i) => i)
  const test = compileFilter(command, node.filter, queryValues(args.slice(1)))
  const items = self.items
  for (let i = 0; i < items.length; i++) {
    if (--rt.ticks < 0) rt.tick()
    if (test(items[i])) indexes.push(i)
  }
  if (node.orderBy.length > 0) {
    const criteria = node.orderBy.map((o) => ({
      steps: pathSteps(o.path.segments.map((s) => s.name).join('.')),
      descending: o.direction === 'desc',
    }))
    indexes.sort(
      countedCompare(rt, (i: number, j: number) => {
        for (const { steps, descending } of criteria) {
          const c = compareValues(readPath(items[i], steps), readPath(items[j], steps))
          if (c !== 0) return descending ? -c : c
        }
        return 0
      }),
    )
  }
  return indexes
}

export const QUERYING: readonly CollectionFunctionSpec[] = [
  {
    name: 'query',
    signature: '(queryString: Text; ...valuesOrSettings: any): Collection',
    impl: (rt, self, args) =>
      likeSource(self, new Collection(matching(rt, self, 'query', args).map((i) => self.items[i]))),
  },
  {
    name: 'indices',
    signature: '(queryString: Text; ...values: any): Collection',
    impl: (rt, self, args) => new Collection(matching(rt, self, 'indices', args)),
  },
]
