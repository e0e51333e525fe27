/**
 * Issue 78's property: random sessions (guests, and users logging in), `Storage` and shared
 * singleton lockdowns, and roles chosen in `Session.storage`, changed between restricted reads
 * over REST (`GET /rest/Document`) and in code (`ds.Document.all()` in a function), on the 4D
 * project test-projects/lockdown: no read ever shows a row of another state than the one it was
 * made in, through REST, a function, its formulas (a query and an ordering by formula) and a
 * computed title's setter (written only where the session sees it), one session at a time and
 * every session at once. One server for every case (each starts from a lockdown lifted and new
 * sessions).
 */
import fc from 'fast-check'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { served, type Client } from './four-d-rest.fixture.js'

const PROJECT = fileURLToPath(new URL('test-projects/lockdown', import.meta.url))
const LEVELS: Readonly<Record<number, string>> = {
  1: 'public',
  2: 'public',
  3: 'staff',
  4: 'board',
  5: 'board',
  6: 'staff',
}

type Role = '' | 'staff' | 'board'
type User = 'ann' | 'bob' | null
type Step =
  | { readonly kind: 'read' | 'code' | 'formula'; readonly c: number }
  | { readonly kind: 'write'; readonly c: number; readonly id: number }
  | { readonly kind: 'burst' }
  | { readonly kind: 'lockdown' | 'gate'; readonly c: number; readonly on: boolean }
  | { readonly kind: 'role'; readonly c: number; readonly role: Role }
  | { readonly kind: 'login'; readonly c: number; readonly user: 'ann' | 'bob' }
  | { readonly kind: 'new'; readonly user: User }

const client = fc.nat({ max: 7 })
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('read' as const), c: client }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('code' as const), c: client }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('formula' as const), c: client }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      c: client,
      id: fc.integer({ min: 1, max: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('lockdown' as const, 'gate' as const),
      c: client,
      on: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('role' as const),
      c: client,
      role: fc.constantFrom<Role>('', 'staff', 'board'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('login' as const),
      c: client,
      user: fc.constantFrom('ann' as const, 'bob' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('new' as const),
      user: fc.constantFrom<User>(null, 'ann', 'bob'),
    }),
  },
)

interface Session {
  readonly client: Client
  role: Role
}

describe('restricted reads between changes of Storage, a singleton and Session.storage', () => {
  it('never show a row of another state', { timeout: 120_000 }, async () => {
    const post = await served(PROJECT, { data: `${PROJECT}/csv` })
    const admin = post.client()
    let reads = 0
    let writes = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        await admin.post('$catalog/lockdown', [false])
        await admin.post('$catalog/gate', [false])
        const state = { lockdown: false, gate: false }
        const sessions: Session[] = [{ client: post.client(), role: '' }]
        const seen = (s: Session): number[] =>
          state.lockdown || state.gate
            ? []
            : Object.keys(LEVELS)
                .map(Number)
                .filter((id) => LEVELS[id] === 'public' || LEVELS[id] === s.role)
        for (const st of steps) {
          if (st.kind === 'burst') {
            // Every session at once, each through REST, a function and its formulas: each sees
            // its own view, whatever the others' calls do between its slices.
            const all = sessions.map(async (s) => {
              const [r, code, formula] = await Promise.all([
                s.client.get('Document?$orderby="ID"'),
                s.client.post('$catalog/seen'),
                s.client.post('$catalog/seenByFormula'),
              ])
              const ids = (r.json.__ENTITIES as { ID: number }[]).map((e) => e.ID)
              expect([ids, code.json.result, formula.json.result]).toEqual([
                seen(s),
                seen(s),
                seen(s),
              ])
            })
            await Promise.all(all)
            reads += sessions.length * 3
            continue
          }
          if (st.kind === 'new') {
            const s: Session = { client: post.client(), role: '' }
            if (st.user !== null) await s.client.post('$catalog/logIn', [st.user])
            sessions.push(s)
            continue
          }
          const s = sessions[st.c % sessions.length]!
          switch (st.kind) {
            case 'read': {
              const r = await s.client.get('Document?$orderby="ID"')
              const ids = (r.json.__ENTITIES as { ID: number }[]).map((e) => e.ID)
              expect(ids).toEqual(seen(s))
              reads++
              break
            }
            case 'code':
              expect((await s.client.post('$catalog/seen')).json.result).toEqual(seen(s))
              reads++
              break
            case 'formula':
              expect((await s.client.post('$catalog/seenByFormula')).json.result).toEqual(seen(s))
              reads++
              break
            case 'write': {
              // Through the computed title's setter: written only where the session sees it.
              const label = `t${++writes}`
              const r = await s.client.post('Document?$method=update', {
                __KEY: String(st.id),
                label,
              })
              if (seen(s).includes(st.id)) {
                expect([r.status, r.json.title], JSON.stringify(r.json)).toEqual([200, label])
              } else expect(r.json.__ERROR, JSON.stringify(r.json)).toBeDefined()
              break
            }
            case 'lockdown':
            case 'gate':
              await s.client.post(`$catalog/${st.kind}`, [st.on])
              state[st.kind] = st.on
              break
            case 'role':
              await s.client.post('$catalog/chooseRole', [st.role])
              s.role = st.role
              break
            case 'login':
              // A login renews the session (a new id); its storage stays.
              await s.client.post('$catalog/logIn', [st.user])
              break
          }
        }
      }),
      { numRuns: 80 },
    )
    expect(reads).toBeGreaterThan(150)
  })
})
