/**
 * Issue 78: a `restrict` answer never outlives what its code read besides the data
 * (sessions/session-reads.ts): the session's own state (its storage, its data), shared state a
 * host tells the changes of, state that changes untold (the clock, a singleton's fields), and
 * another restricted dataclass's answer that read any of those. What read none of it is kept.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import type { ModelJson } from '../../schema/model-json.js'
import type { Session } from '../../sessions/session-api.js'
import {
  noteSharedRead,
  noteVolatileRead,
  sharedStateChanged,
} from '../../sessions/session-reads.js'
import { SESSION_STORAGE_KEY, sessionStorage, use } from '../../sessions/session-storage.js'
import { singleton } from '../../functions/define.js'
import type { FunctionsDef } from '../objects/define-functions.js'
import { createDatastore, type Datastore } from '../objects/datastore.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'level', type: 'string' },
        { name: 'tags', kind: 'relatedEntities', path: 'doc' },
      ],
    },
    {
      name: 'Tag',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'docID', type: 'long' },
        { name: 'doc', kind: 'relatedEntity', path: 'Doc', foreignKey: 'docID' },
      ],
    },
  ],
}

const data = {
  Doc: [
    { ID: 1, level: 'public' },
    { ID: 2, level: 'staff' },
    { ID: 3, level: 'board' },
  ],
  Tag: [
    { ID: 1, docID: 1 },
    { ID: 2, docID: 2 },
    { ID: 3, docID: 3 },
  ],
}

/** A datastore whose Doc restrict is `restrict`, counting its runs. */
function docs(
  restrict: (session: Session | undefined) => string[] | null,
  more: Partial<FunctionsDef> = {},
  clock?: ManualClock,
) {
  let runs = 0
  const ds: Datastore = createDatastore(model, {
    data,
    ...(clock ? { clock } : {}),
    functions: {
      ...more,
      dataClasses: {
        Doc: {
          restrict({ session }) {
            runs++
            const levels = restrict(session)
            return levels === null ? null : this.query('level in :1', levels)
          },
        },
      },
    },
  })
  const ids = (session: Session): number[] =>
    ds.actAs(session, () =>
      ds
        .dataClass('Doc')
        .all()
        .toArray()
        .map((e) => e.getKey() as number)
        .sort(),
    )
  return { ds, ids, runs: () => runs }
}

const store = (ds: Datastore, session: Session, role: string | undefined): void =>
  use(sessionStorage(session, ds.sessions), (s) => {
    s.role = role
  })

// What a restrict reads of the session's storage: its role, as `{ session }` gives it.
const role = (session: Session | undefined): string[] => {
  const stored = session?.data.get(SESSION_STORAGE_KEY) as { role?: string } | undefined
  return ['public', ...(stored?.role === undefined ? [] : [stored.role])]
}

describe("a restrict that read the session's own state (issue 78)", () => {
  it('follows its storage both ways, for that session alone', () => {
    const { ds, ids, runs } = docs(role)
    const [one, two] = [ds.sessions.open(), ds.sessions.open()]
    expect(ids(one)).toEqual([1])
    expect(ids(two)).toEqual([1])
    expect(runs()).toBe(2)
    store(ds, one, 'staff')
    expect(ids(one)).toEqual([1, 2])
    // Another session's answer holds: its own state did not change.
    expect(ids(two)).toEqual([1])
    expect(runs()).toBe(3)
    store(ds, one, 'board')
    expect(ids(one)).toEqual([1, 3])
    store(ds, one, undefined)
    expect(ids(one)).toEqual([1])
  })

  it('sees each write of a use block, read between two writes inside it', () => {
    const { ds, ids } = docs(role)
    const one = ds.sessions.open()
    const seen: number[][] = [ids(one)]
    use(sessionStorage(one, ds.sessions), (s) => {
      s.role = 'staff'
      seen.push(ids(one))
      s.role = 'board'
      seen.push(ids(one))
    })
    seen.push(ids(one))
    expect(seen).toEqual([[1], [1, 2], [1, 3], [1, 3]])
  })
})

describe('a restrict that read shared state its host tells the changes of (issue 78)', () => {
  it('is dropped at the next change, then kept again', () => {
    let lockdown = false
    const { ds, ids, runs } = docs(() => {
      noteSharedRead()
      return lockdown ? [] : ['public']
    })
    const [one, two] = [ds.sessions.open(), ds.sessions.open()]
    expect(ids(one)).toEqual([1])
    expect(ids(two)).toEqual([1])
    expect(runs()).toBe(1)
    lockdown = true
    sharedStateChanged()
    expect(ids(two)).toEqual([])
    expect(ids(one)).toEqual([])
    expect(ids(ds.sessions.open())).toEqual([])
    expect(runs()).toBe(2)
    lockdown = false
    sharedStateChanged()
    expect(ids(one)).toEqual([1])
  })

  it('drops the answer of a restrict whose query reached it through a relation', () => {
    let lockdown = false
    const ds: Datastore = createDatastore(model, {
      data,
      functions: {
        dataClasses: {
          Doc: {
            restrict() {
              noteSharedRead()
              return lockdown ? this.query('ID = 0') : null
            },
          },
          // A tag is seen when its document is: this restrict's query goes through Doc's.
          Tag: {
            restrict() {
              return this.query('doc.ID > 0')
            },
          },
        },
      },
    })
    const session = ds.sessions.open()
    const tags = (): number => ds.actAs(session, () => ds.dataClass('Tag').all().length)
    expect(tags()).toBe(3)
    lockdown = true
    sharedStateChanged()
    expect(tags()).toBe(0)
  })
})

describe('a restrict that read what changes untold (issue 78)', () => {
  it('answers once for the code that asked, again after an await or a millisecond', async () => {
    const clock = new ManualClock('2024-06-01T12:00:00Z')
    let day = 1
    const { ds, ids, runs } = docs(
      () => {
        noteVolatileRead()
        return day === 1 ? ['public'] : ['public', 'staff']
      },
      {},
      clock,
    )
    const session = ds.sessions.open()
    const docIds = (): number[] =>
      ds
        .dataClass('Doc')
        .all()
        .toArray()
        .map((e) => e.getKey() as number)
        .sort()
    // One request (one Actor) whose code reads, awaits, reads again.
    const seen = await ds.actAs(session, async () => {
      // Many reads at once (a relation followed for each tag): one run.
      const following = ds
        .dataClass('Tag')
        .all()
        .toArray()
        .map((t) => (t.get('doc') as { getKey(): unknown } | null)?.getKey() ?? null)
      const first = [following, docIds(), runs()]
      day = 2
      const same = [docIds(), runs()]
      await Promise.resolve()
      const afterAwait = [docIds(), runs()]
      day = 3
      const sameAgain = [docIds(), runs()]
      clock.advance(1)
      return [first, same, afterAwait, sameAgain, [docIds(), runs()]]
    })
    expect(seen).toEqual([
      [[1, null, null], [1], 1],
      [[1], 1],
      [[1, 2], 2],
      [[1, 2], 2],
      [[1, 2], 3],
    ])
    // Another request asks again.
    expect(ids(session)).toEqual([1, 2])
    expect(runs()).toBe(4)
  })

  it("reads a TypeScript singleton's state, which its functions change, as volatile", () => {
    const { ds, ids } = docs(
      () => {
        const state = ds.singleton('Gate').state as { closed: boolean }
        return state.closed ? [] : ['public']
      },
      {
        singletons: {
          Gate: singleton(() => ({ closed: false }), {
            close: {
              call(closed: boolean) {
                this.closed = closed
              },
            },
          }),
        },
      },
    )
    const session = ds.sessions.open()
    expect(ids(session)).toEqual([1])
    ds.singleton('Gate').call('close', true)
    expect(ids(session)).toEqual([])
  })
})

describe('a restrict that read nothing besides the data and who asks (issue 78)', () => {
  it('is kept for every session of the view, whatever shared state does', () => {
    const { ds, ids, runs } = docs(() => ['public'])
    const [one, two] = [ds.sessions.open(), ds.sessions.open()]
    expect(ids(one)).toEqual([1])
    sharedStateChanged()
    store(ds, two, 'staff')
    expect(ids(two)).toEqual([1])
    expect(ids(one)).toEqual([1])
    expect(runs()).toBe(1)
  })
})
