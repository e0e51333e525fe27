/**
 * The quick lane of a read by key (read-by-key.ts) and the kept texts of entities
 * (serialize/entity-texts.ts) against the general path, on one datastore: after any sequence of
 * writes, restores and reads, every read answers the same status, content type and body through
 * a handler with the lane and the cache (one small enough to evict) as through one with neither.
 * Only the session cookie differs, as docs/compat.md says: a client without one is sent one
 * either way, but the lane keeps no session for it (it is kept when the client comes back).
 */
import fc from 'fast-check'
import {
  createDatastore,
  ManualClock,
  type DataFile,
  type Datastore,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it, vi } from 'vitest'
import type { RestReply } from '../exchange.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import { ColumnWriter } from '../serialize/column-writer.js'
import { EntityWriter } from '../serialize/entity.js'
import { replyText, syncReply } from '../sync-reply.fixture.js'
import {
  get,
  seen,
  SIDE_CLASSES,
  sideData,
  writer,
  writeSteps,
  type WriteStep,
} from './lanes.fixture.js'

const model: ModelJson = {
  __NAME: 'lanes',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'born', type: 'date', dateOnly: true },
        { name: 'note', type: 'string' },
        { name: 'secret', type: 'string', exposed: false },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
      ],
    },
    ...SIDE_CLASSES,
  ],
}

const data = {
  Company: [
    { ID: 1, name: 'Acme' },
    { ID: 2, name: 'Ümlaut "quoted" \\ Co' },
  ],
  Employee: Array.from({ length: 12 }, (_, i) => ({
    ID: i + 1,
    name: `emp ${i} ${'é'.repeat(i)}`,
    born: '1990-01-0' + ((i % 9) + 1),
    note: i % 3 === 0 ? null : `n\u2028${i}`,
    secret: 'XX',
    employerID: (i % 2) + 1,
  })),
  ...sideData(5),
} as unknown as DataFile

const path = fc.oneof(
  // Most reads on a few entities, which the writes change too: a stale kept version would show.
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 3 }).map((k) => `/rest/Employee(${k})`) },
  fc.integer({ min: 0, max: 16 }).map((k) => `/rest/Employee(${k})`),
  fc.integer({ min: 0, max: 3 }).map((k) => `/rest/Company(${k})`),
  fc.integer({ min: 1, max: 3 }).map((k) => `/rest/Badge(${k})`),
  fc.constantFrom(
    '/rest/Tag(7)',
    '/rest/Tag(A1)',
    "/rest/Tag('A1')",
    '/rest/Vault(1)',
    '/rest/Nope(1)',
    '/rest/employee(1)',
    '/rest/Employee[3]',
    '/rest/Employee(%33)',
    '/rest/Employee(3)/',
    '/rest/Employee(03)',
    '/rest/Employee(99999999999999999999)',
    '/rest/Employee(3)/name',
    '/restEmployee(3)',
    '/rest/Employee()',
  ),
)

type Update = { readonly name: string }
type Create = { readonly name: string }
type Step =
  | { readonly kind: 'read'; readonly path: string; readonly cookie: boolean }
  | WriteStep<Update, Create>

const name = fc.record({ name: fc.string({ maxLength: 8 }) })
const write = writeSteps<Update, Create>(name, name, { update: 4, drop: 14 })
// Reads most: a version is kept from its third read, and a hit needs a read after that with no
// write of the row, nor a restore, in between.
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({ kind: fc.constant('read' as const), path, cookie: fc.boolean() }),
  },
  { weight: 6, arbitrary: write },
)

const createNamed = (ds: Datastore, s: Create): void => {
  ds.dataClass('Employee').create({ name: s.name, employerID: 1 })
}

describe('the quick lane of a read by key', () => {
  it('answers as the general path does, across writes, evictions and restores', () => {
    // Reads the lane answered from a kept text (nothing rendered, from the entity or from the
    // load's columns): the property must meet some (a hit needs a fourth read of a row with no
    // write nor restore between).
    let kept = 0
    const renders = vi.spyOn(EntityWriter.prototype, 'single')
    const fromColumns = vi.spyOn(ColumnWriter.prototype, 'text')
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const clock = new ManualClock(Date.UTC(2024, 0, 1))
        const ds = createDatastore(model, { data, clock })
        // One cache that never fills (most hits), one small enough that a few entities fill it
        // (reads evict others, and it lets in one candidate in eight).
        const quick = createRestHandler(ds, { entityCacheBytes: 1 << 20 })
        const small = createRestHandler(ds, { entityCacheBytes: 3200 })
        const general = createRestHandler(ds, { quickReads: false, entityCacheBytes: 0 })
        const cookieOf = (reply: RestReply) =>
          (reply.headers['set-cookie'] as string).split(';')[0]!
        const cookies = [quick, small, general].map((h) =>
          cookieOf(syncReply(h.respond(get('/rest/$catalog')))),
        )
        const apply = writer<Update, Create>(
          ds,
          (d, s) => d.dataClass('Employee').get(s.id)?.edit({ name: s.name }).saveOrFail(),
          createNamed,
        )
        for (const s of steps) {
          clock.advance(1)
          if (s.kind === 'read') {
            const before = renders.mock.calls.length + fromColumns.mock.calls.length
            const a = syncReply(quick.respond(get(s.path, '', s.cookie ? cookies[0] : undefined)))
            const after = renders.mock.calls.length + fromColumns.mock.calls.length
            if (a.status === 200 && after === before) kept++
            const c = syncReply(small.respond(get(s.path, '', s.cookie ? cookies[1] : undefined)))
            const b = syncReply(general.respond(get(s.path, '', s.cookie ? cookies[2] : undefined)))
            expect(seen(a)).toEqual(seen(b))
            expect(seen(c)).toEqual(seen(b))
            // Without a cookie both send one; with one, neither does.
            expect(a.headers['set-cookie'] === undefined).toBe(s.cookie)
            expect(b.headers['set-cookie'] === undefined).toBe(s.cookie)
          } else apply(s)
        }
      }),
      { numRuns: 200 },
    )
    renders.mockRestore()
    fromColumns.mockRestore()
    expect(kept).toBeGreaterThanOrEqual(5)
  })

  it('keeps each view of a version apart: what a session may read, what $attributes names', () => {
    // `note` is for VIP sessions only (`authorize`): the general path answers, its writer
    // restricted per session, and the texts are kept per view.
    const attributes = fc.constantFrom(
      '',
      '$attributes=name,note',
      '$attributes=ID,born',
      '$attributes=*',
    )
    const read = fc.record({
      kind: fc.constant('read' as const),
      path,
      vip: fc.boolean(),
      query: attributes,
    })
    // Reads answered from a kept text (no entity rendered): the property must meet some (about 14).
    let views = 0
    const renders = vi.spyOn(EntityWriter.prototype, 'single')
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 8, arbitrary: read }, { weight: 1, arbitrary: write }), {
          minLength: 1,
          maxLength: 40,
        }),
        (steps) => {
          const clock = new ManualClock(Date.UTC(2024, 0, 1))
          const ds = createDatastore(model, { data, clock })
          const authorize: RestHandlerOptions['authorize'] = (session, _action, on) =>
            on.attribute !== 'note' || session.data.get('vip') === true
          const kept = createRestHandler(ds, { entityCacheBytes: 1 << 20, authorize })
          const plain = createRestHandler(ds, { entityCacheBytes: 0, authorize })
          const cookies = [false, true].map((vip) => {
            const reply = syncReply(kept.respond(get('/rest/$catalog')))
            const cookie = (reply.headers['set-cookie'] as string).split(';')[0]!
            // Its client comes back with the cookie: from then on its session is kept.
            syncReply(kept.respond(get('/rest/$catalog', '', cookie)))
            ds.sessions.peek(cookie.split('=')[1]!)!.data.set('vip', vip)
            return cookie
          })
          const apply = writer<Update, Create>(
            ds,
            (d, s) => d.dataClass('Employee').get(s.id)?.edit({ note: s.name }).saveOrFail(),
            createNamed,
          )
          for (const s of steps) {
            clock.advance(1)
            if (s.kind === 'read') {
              const request = get(s.path, s.query, cookies[s.vip ? 1 : 0])
              const before = renders.mock.calls.length
              const a = syncReply(kept.respond(request))
              if (a.status === 200 && renders.mock.calls.length === before) views++
              expect(seen(a)).toEqual(seen(syncReply(plain.respond(request))))
            } else apply(s)
          }
        },
      ),
      { numRuns: 300 },
    )
    renders.mockRestore()
    expect(views).toBeGreaterThanOrEqual(5)
  })

  it('sends a client without a cookie one, keeps no session for it, and takes it up when it comes back by key', () => {
    const ds = createDatastore(model, { data })
    const h = createRestHandler(ds)
    const before = ds.sessions.counts
    const reply = syncReply(h.respond(get('/rest/Employee(3)')))
    expect(reply.status).toBe(200)
    expect(reply.headers['set-cookie']).toMatch(/^4DSID_lanes=[0-9A-F]{32}; /)
    expect(ds.sessions.counts).toEqual(before)
    // Its next request, a read by key too, takes its session up under the same id (no new
    // cookie) and keeps it: a session the quotas count (issue 78), as on the general path.
    const cookie = (reply.headers['set-cookie'] as string).split(';')[0]!
    const again = syncReply(h.respond(get('/rest/Employee(4)', '', cookie)))
    expect(again.status).toBe(200)
    expect(again.headers['set-cookie']).toBeUndefined()
    expect(ds.sessions.counts.guests).toBe(before.guests + 1)
    expect(ds.sessions.peek(cookie.split('=')[1]!)).toBeDefined()
    const other = syncReply(h.respond(get('/rest/Employee', '$top=1', cookie)))
    expect(other.headers['set-cookie']).toBeUndefined()
    expect(ds.sessions.counts.guests).toBe(before.guests + 1)
    // A made-up id is sent a cookie of its own, as the general path sends one.
    const madeUp = syncReply(h.respond(get('/rest/Employee(4)', '', '4DSID_lanes=ABC')))
    expect(madeUp.status).toBe(200)
    expect(madeUp.headers['set-cookie']).toMatch(/^4DSID_lanes=[0-9A-F]{32}; /)
    expect(ds.sessions.counts.guests).toBe(before.guests + 1)
  })

  it('sends the same text for a version kept, and drops what a write replaces', () => {
    const ds = createDatastore(model, { data })
    const h = createRestHandler(ds, { entityCacheBytes: 4096 })
    const read = (p: string) => syncReply(h.respond(get(p))).body as string
    const first = read('/rest/Employee(3)')
    // Read again and again: from its third read on, its version's text is kept.
    for (let i = 0; i < 4; i++) expect(read('/rest/Employee(3)')).toBe(first)
    ds.Employee!.get(3)!.edit({ name: 'renamed' }).saveOrFail()
    const after = read('/rest/Employee(3)')
    expect(after).not.toBe(first)
    expect(read('/rest/Employee(3)')).toBe(after)
    expect(JSON.parse(after).name).toBe('renamed')
    // An alias is rendered each time: its value is another entity's.
    expect(typeof read('/rest/Badge(1)')).toBe('string')
  })
})
