/**
 * @module The indexes of one index set as a store snapshot keeps them (`IndexSet.capture`), and
 * put back by `IndexSet.restore`.
 *
 * An index still waiting for its first use (a data load defers every one: index-set.ts
 * `beginBulk`) is not built to be captured: the snapshot notes it as unbuilt, and a restore leaves
 * it to build on first use again. Building every index for the snapshot was 40 % of a test
 * fixture's start on 200k rows (`startFixture` snapshots right after loading, for `reset()`),
 * where `serve` builds each on first use. So that a reset does not build an index again and again
 * for each test that uses it, a restore first keeps in the snapshot a copy of each unbuilt index
 * that the table built since (`keepBuilt`): built then from the restored rows, which are the
 * snapshot's own, so each index a test uses is built for the snapshot once.
 *
 * The snapshot's rows never change: what it gains are copies of indexes over those rows, as the
 * capture would have made them.
 */
import type { StorageAttributeDef } from '../schema/definitions.js'
import type { AttributeIndexes } from './index-entry.js'

/** An index left unbuilt when captured: which attribute, and which kinds it has. */
export interface UnbuiltKinds {
  readonly attribute: StorageAttributeDef
  readonly hash: boolean
  readonly sorted: boolean
}

/** A copy of every index of a set, taken by `capture` and put back by `restore`. */
export interface IndexSetState {
  /** The indexed attributes, in the set's order. */
  readonly order: readonly string[]
  /** The indexes built when captured, or kept since: copies, never changed. */
  readonly entries: Map<string, AttributeIndexes>
  /** The indexes unbuilt when captured, and not kept since, by attribute name. */
  readonly unbuilt: Map<string, UnbuiltKinds>
}

export const copyEntry = (e: AttributeIndexes): AttributeIndexes => ({
  attribute: e.attribute,
  hash: e.hash?.copy(),
  sorted: e.sorted?.copy(),
})

/** A copy of a set's `entries` as they are now: each built one, and the kinds of the `stale` ones. */
export function captureIndexes(
  entries: ReadonlyMap<string, AttributeIndexes>,
  stale: ReadonlySet<AttributeIndexes>,
): IndexSetState {
  const state: IndexSetState = {
    order: [...entries.keys()],
    entries: new Map(),
    unbuilt: new Map(),
  }
  for (const [name, e] of entries)
    if (stale.has(e))
      state.unbuilt.set(name, { attribute: e.attribute, hash: !!e.hash, sorted: !!e.sorted })
    else state.entries.set(name, copyEntry(e))
  return state
}

/** The set's entries built now (not in `stale`) that `state` has unbuilt. */
export function builtSince(
  state: IndexSetState,
  entries: ReadonlyMap<string, AttributeIndexes>,
  stale: ReadonlySet<AttributeIndexes>,
): AttributeIndexes[] {
  const out: AttributeIndexes[] = []
  for (const name of state.unbuilt.keys()) {
    const entry = entries.get(name)
    if (entry !== undefined && !stale.has(entry)) out.push(entry)
  }
  return out
}

/** Moves copies of `built`, entries of attributes `state` has unbuilt, into `state`. */
export function keepBuilt(state: IndexSetState, built: readonly AttributeIndexes[]): void {
  for (const entry of built)
    if (state.unbuilt.delete(entry.attribute.name))
      state.entries.set(entry.attribute.name, copyEntry(entry))
}
