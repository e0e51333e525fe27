/**
 * @module Issue 61's oracle: the projected datastores (oracle-view.fixture.ts says what one holds),
 * one per projection, kept across cases in a pool: making a datastore costs more than loading it
 * with data, which the run does when what it must hold changed.
 */
import {
  fail,
  setOwnerOf,
  type ComputedQueryEvent,
  type DataClassFunctionDefs,
  type DataSnapshot,
  type FunctionsDef,
} from '@entistore/core'
import { oracleFunctions, UPDATE_EVENT_READS } from './oracle-app.fixture.js'
import type { Projection } from './oracle-view.fixture.js'
import { appOf, type DcName, type PrivApp, type PrivUser } from './privileges-app.fixture.js'
import { USERS, type Who } from './privileges-requests.fixture.js'
import { logInAll } from './privileges-send.fixture.js'

/** A projected datastore: its application, its data made empty, its clients' cookies. */
export interface Projected {
  readonly app: PrivApp
  readonly empty: DataSnapshot
  readonly cookies: (string | undefined)[]
  readonly notes: { next: number }
  /** What it holds now (a run, its data's version, the view's rows): loaded again when it differs. */
  holds: string
}

const POOL_SIZE = 400
const pool = new Map<string, Projected>()
/** How many projected datastores were built, and how many times one was loaded with data. */
export const poolStats = { built: 0, loads: 0 }

// A run keeps a few entity sets: a small cache is quicker to make (it is made for each datastore).
const SMALL = { entitySets: { maxSets: 256 } } as const

// In a projected datastore the users hold nothing: its roles file grants `guest`.
const PLAIN_USERS: readonly PrivUser[] = USERS.map((name) => ({ name, privileges: [], roles: [] }))

/**
 * Entity events run as the caller: an update's `validateSave` reads what a view that may only give
 * it on creation (write-only here) may not read. Refused here as it is there (1607).
 */
function eventsAsTheView(
  dc: DcName,
  events: DataClassFunctionDefs['events'],
  p: Projection,
): DataClassFunctionDefs['events'] {
  const validateSave = events?.validateSave
  const refused = UPDATE_EVENT_READS[dc]?.find((a) => p.writeOnly[dc]?.has(a))
  if (!validateSave || refused === undefined) return events
  return {
    ...events,
    validateSave(event) {
      if (!this.isNew()) fail('AttributeReadRefused', [refused, dc])
      return validateSave.call(this, event)
    },
  }
}

/** The application's code for a projection: no restrict, the kept dataclasses and computed attributes. */
function projectedFunctions(p: Projection, notes: { next: number }): FunctionsDef {
  const def = oracleFunctions(() => undefined, notes) as FunctionsDef
  const dataClasses: Record<string, unknown> = {}
  for (const [dc, d] of Object.entries(def.dataClasses ?? {})) {
    if (!d || !p.dataClasses.has(dc as DcName)) continue
    const { restrict: _, computed, events, ...rest } = d
    dataClasses[dc] = {
      ...rest,
      events: eventsAsTheView(dc as DcName, events, p),
      computed: Object.fromEntries(
        Object.entries(computed ?? {})
          .filter(([name]) => p.computed.has(`${dc}.${name}`))
          .map(([name, fns]) => {
            // A getter refused to the view: refused here as it is there (1607).
            const refused = p.codeRefused.get(`${dc}.${name}`)
            if (refused === undefined) return [name, fns]
            // The getter is refused; so is a filter that would call it on every entity, before
            // it runs: the real datastore tests the table's rows, not only those the view sees
            // (the view's datastore may hold none). An order calls it on the rows it sorts, which
            // are the view's in both: two or more, and it is refused there as here.
            const refuse = () => fail('AttributeReadRefused', [refused, dc])
            return [
              name,
              {
                ...fns,
                get: refuse,
                query: (event: ComputedQueryEvent) => fns.query?.(event) ?? refuse(),
              },
            ]
          }),
      ),
    }
  }
  return { ...def, dataClasses } as FunctionsDef
}

/** The projected datastore of `p`, made on first use. */
export async function projected(p: Projection): Promise<Projected> {
  const hit = pool.get(p.key)
  if (hit) {
    // Most recently used last.
    pool.delete(p.key)
    pool.set(p.key, hit)
    return hit
  }
  const notes = { next: 0 }
  const app = appOf(p.model, projectedFunctions(p, notes), p.roles, PLAIN_USERS, {}, SMALL)
  poolStats.built++
  const cookies: (string | undefined)[] = [undefined, undefined, undefined, undefined]
  await logInAll(app.rest, cookies)
  const made: Projected = { app, empty: app.ds.snapshot(), cookies, notes, holds: '' }
  pool.set(p.key, made)
  if (pool.size > POOL_SIZE) pool.delete(pool.keys().next().value!)
  return made
}

/** The set owner of client `who` in a projected datastore (a guest's session is made on first use). */
export function ownerIn(d: Projected, who: Who) {
  const ds = d.app.ds
  let session = ds.sessions.peek(d.cookies[who]?.split('=')[1] ?? '')
  if (!session) {
    session = ds.sessions.open()
    d.cookies[who] = `4DSID_oracle=${session.id}`
  }
  return setOwnerOf(session)
}
