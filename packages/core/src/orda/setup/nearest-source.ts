/**
 * @module What the approximate indexes of vector attributes (indexes/nearest-index.ts) read of a
 * datastore's store: its live rows, a reader per attribute, and its commits.
 */
import type { NearestSource } from '../../indexes/nearest-index.js'
import type { Store } from '../../store/store.js'

/** Runs `step` until it answers true, a turn of the event loop between two runs. */
function inSteps(step: () => boolean): void {
  const run = (): void => {
    if (!step()) setTimeout(run, 0)
  }
  setTimeout(run, 0)
}

export function nearestSourceOf(store: Store): NearestSource {
  return {
    rows: (dataClass) => store.table(dataClass).liveRowIds(),
    reader: (dataClass, attribute) => store.table(dataClass).reader(attribute),
    onChange: (listener) =>
      store.onCommit((changes, info) => {
        // A restore moves every table back: the indexes are made again from the data.
        if (info.kind === 'restore') return listener('', -1, undefined, true)
        for (const c of changes) {
          const name = c.table.def.name
          if (c.op === 'delete') listener(name, c.before.rowId, undefined, false)
          else if (c.op === 'insert') listener(name, c.record.rowId, c.record.values, false)
          else listener(name, c.after.rowId, c.after.values, false)
        }
      }),
    inSteps,
  }
}
