/**
 * A restrict's own query kept between writes (restrict-queries.ts) answers what running it again
 * answers, after any writes, loads and restores; and after a single write it tests the rows written,
 * not the table. Its answers are kept per view (restrict-answers.ts): by who the session is, unless
 * the restrict read the session's own state.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseCached } from '../../query/run-query.js'
import type { ModelJson } from '../../schema/model-json.js'
import { use } from '../../sessions/session-storage.js'
import { currentSession } from '../current-call/current-call.js'
import { createDatastore } from '../objects/datastore.js'
import type { EntitySelection } from '../objects/entity-selection.js'
import { keepable, keptQuery, keptRows } from './restrict-queries.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Note',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        // Not indexed: without its rows kept, the restrict's query scans the table.
        { name: 'owner', type: 'string' },
        { name: 'size', type: 'long' },
      ],
    },
  ],
}

const OWNERS = ['ann', 'bob', 'cid']

function notes(rows = 30, restrict?: (this: any) => unknown) {
  let runs = 0
  const ds = createDatastore(model, {
    data: {
      Note: Array.from({ length: rows }, (_, i) => ({
        ID: i + 1,
        owner: OWNERS[i % 3],
        size: i,
      })),
    },
    functions: {
      dataClasses: {
        Note: {
          restrict:
            restrict ??
            function (this: any) {
              runs++
              const user = currentSession()?.userName
              return user === undefined ? null : this.query('owner = :1 and size >= :2', user, 0)
            },
        },
      },
    },
  })
  const as = (name: string) => {
    const session = ds.sessions.open()
    ds.sessions.renew(session.id, { user: { name } })
    return session
  }
  return { ds, as, runs: () => runs, Note: ds.dataClass('Note') }
}

const keys = (rows: Iterable<{ getKey(): unknown }>): unknown[] => [...rows].map((e) => e.getKey())

describe('the queries of a restrict, kept between writes', () => {
  it('keeps only queries of the entity’s own stored values with plain values', () => {
    const { Note } = notes()
    const def = Note.def
    expect(keepable(def, parseCached('owner = :1 and size > 2'))).toBeDefined()
    expect(keepable(def, parseCached('owner = :1 order by size'))).toBeUndefined()
    expect(keepable(def, parseCached(':1 = 2'))).toBeUndefined()
    expect(keepable(def, parseCached(''))).toBeUndefined()
  })

  it('after a write, tests the rows written instead of running the query', () => {
    const { ds, Note } = notes()
    const query = parseCached('owner = :1')
    let ran = 0
    const run = () => {
      ran++
      return Note.query('owner = :1', 'ann')
    }
    const first = keptQuery(Note, 'owner = :1', query, ['ann'], run)!
    expect(ran).toBe(1)
    expect(keptQuery(Note, 'owner = :1', query, ['ann'], run)).toBe(first)
    Note.update(2, { owner: 'ann' })
    Note.drop(1)
    Note.create({ owner: 'ann', size: 99 })
    const after = keptQuery(Note, 'owner = :1', query, ['ann'], run)!
    expect(ran).toBe(1)
    expect(keys(after)).toEqual(keys(Note.query('owner = :1', 'ann')))
    expect(keptRows(after)?.size).toBe(after.length)
    // Values that are not plain are not kept.
    expect(keptQuery(Note, 'owner = :1', query, [{ not: 'plain' }], run)).toBeUndefined()
  })

  it('keeps the commonest restrict, one equality, while no index answers it', () => {
    let made: EntitySelection | undefined
    const { ds, as, Note } = notes(30, function (this: any) {
      const user = currentSession()?.userName
      return user === undefined ? null : (made = this.query('owner = :1', user))
    })
    const ann = as('ann')
    expect(ds.actAs(ann, () => Note.all().length)).toBe(10)
    expect(keptRows(made!)?.size).toBe(10)
    Note.update(2, { owner: 'ann' })
    expect(ds.actAs(ann, () => keys(Note.all()))).toEqual(keys(Note.query('owner = "ann"')))
    expect(keptRows(made!)?.size).toBe(11)
    // Once an index answers it, the index does: nothing kept.
    Note.createIndex('owner')
    Note.update(3, { size: 100 })
    expect(ds.actAs(ann, () => Note.all().length)).toBe(11)
    expect(keptRows(made!)).toBeUndefined()
  })

  it('answers what a fresh query answers, across random writes, loads and restores', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({
              op: fc.constant('update' as const),
              key: fc.nat(40),
              owner: fc.constantFrom(...OWNERS),
            }),
            fc.record({ op: fc.constant('create' as const), owner: fc.constantFrom(...OWNERS) }),
            fc.record({ op: fc.constant('drop' as const), key: fc.nat(40) }),
            fc.record({ op: fc.constant('restore' as const) }),
            fc.record({ op: fc.constant('read' as const), owner: fc.constantFrom(...OWNERS) }),
          ),
          { maxLength: 40 },
        ),
        (ops) => {
          const { ds, as, Note } = notes(12)
          const sessions = Object.fromEntries(OWNERS.map((o) => [o, as(o)]))
          const snapshot = ds.snapshot()
          for (const op of ops) {
            if (op.op === 'update' && Note.get(op.key)) Note.update(op.key, { owner: op.owner })
            else if (op.op === 'create') Note.create({ owner: op.owner, size: 1 })
            else if (op.op === 'drop' && Note.get(op.key)) Note.drop(op.key)
            else if (op.op === 'restore') ds.restore(snapshot)
            else if (op.op === 'read') {
              const seen = ds.actAs(sessions[op.owner]!, () => keys(Note.all()))
              expect(seen).toEqual(keys(Note.query('owner = :1 and size >= 0', op.owner)))
            }
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('restrict answers kept per view', () => {
  it('one answer for the sessions of one user; a session of its own when the restrict reads its storage', () => {
    const { ds, as, runs, Note } = notes()
    const [a, b] = [as('ann'), as('ann')]
    expect(ds.actAs(a, () => Note.all().length)).toBe(10)
    expect(ds.actAs(b, () => Note.all().length)).toBe(10)
    expect(runs()).toBe(1)

    let storageRuns = 0
    const other = notes(30, function (this: any) {
      storageRuns++
      const session = currentSession()
      const only = session?.storage.only as string | undefined
      return only === undefined ? null : this.query('owner = :1', only)
    })
    const [x, y] = [other.as('ann'), other.as('ann')]
    other.ds.actAs(x, () => use(currentSession()!.storage, (s) => (s.only = 'bob')))
    other.ds.actAs(y, () => use(currentSession()!.storage, (s) => (s.only = 'cid')))
    const bobs = other.ds.actAs(x, () => keys(other.Note.all()))
    const cids = other.ds.actAs(y, () => keys(other.Note.all()))
    // One run a session: the answer read each one's storage.
    expect(storageRuns).toBe(2)
    expect(bobs).toEqual(keys(other.Note.query('owner = "bob"')))
    expect(cids).toEqual(keys(other.Note.query('owner = "cid"')))
  })
})
