/**
 * @module Putting a datastore back as a test found it: what the fixture's `reset()` and the MSW
 * handlers' do between tests. No Node module here: `entistore/msw` runs in a page.
 */
import type { DataSnapshot, Datastore } from '@entistore/core'

/** What a reset keeps. */
export interface ResetOptions {
  /** Keep the sessions open (a login made in `beforeAll` survives). @default false: all closed */
  readonly keepSessions?: boolean
}

/**
 * Restores `initial` (every entity, key, stamp, the next autosequence values, the global stamp),
 * drops entity sets and locks (the core's restore does), makes the singletons again on their next
 * use, and closes every session unless `keepSessions`.
 */
export function resetDatastore(
  ds: Datastore,
  initial: DataSnapshot,
  options: ResetOptions = {},
): void {
  ds.restore(initial)
  // Singletons hold state the tests changed too: made again on their next use.
  ds.functions.resetSingletons()
  // A custom session store may not offer closeAll: its sessions are its own business.
  if (!options.keepSessions) ds.sessions.closeAll?.()
}
