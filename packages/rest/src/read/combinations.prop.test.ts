/**
 * Read parameters combined at random: whatever the mix, the reply is never a 5xx, and the forms
 * agree with each other — the envelope, `$asArray` and `$format=looker` show the same entities, in
 * the same order, and `$attributes` / `$expand` change which members are written, never which
 * entities.
 */
import { createDatastore, ManualClock } from '@entistore/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler } from '../handler.js'

const ds = createDatastore(writeModel(), {
  data: {
    ...writeData(),
    Employee: Array.from({ length: 40 }, (_, i) => ({
      ID: i + 1,
      lastName: ['Lovelace', 'Turing', 'Hopper', 'Curie'][i % 4],
      salary: 1000 * (i % 7),
      email: `e${i}@x`,
      employerID: (i % 3) + 1 === 3 ? null : (i % 3) + 1,
      extra: { level: i % 5 },
    })),
  },
  clock: new ManualClock(),
})
const rest = createRestHandler(ds)

const filters = [
  '',
  'salary>2000',
  'lastName=T@',
  'employer.name=Acme',
  'salary>=1000 and lastName!=Curie',
]
const orders = ['', 'salary desc', 'lastName,ID desc', 'employer.name']
const attributeLists = [
  '',
  'lastName',
  'salary,lastName',
  'employer.name',
  'employer.*,extra.level',
  '*',
]
const expands = ['', 'employer']

const query = fc.record({
  filter: fc.constantFrom(...filters),
  order: fc.constantFrom(...orders),
  top: fc.option(fc.nat(50), { nil: undefined }),
  skip: fc.nat(45),
  attributes: fc.constantFrom(...attributeLists),
  expand: fc.constantFrom(...expands),
  queryPlan: fc.boolean(),
})

type Q = typeof query extends fc.Arbitrary<infer T> ? T : never

function search(q: Q, extra: Record<string, string>): string {
  const parts: string[] = []
  if (q.filter) parts.push(`$filter="${encodeURIComponent(q.filter)}"`)
  if (q.order) parts.push(`$orderby="${encodeURIComponent(q.order)}"`)
  if (q.top !== undefined) parts.push(`$top=${q.top}`)
  parts.push(`$skip=${q.skip}`)
  if (q.attributes) parts.push(`$attributes=${encodeURIComponent(q.attributes)}`)
  if (q.expand) parts.push(`$expand=${q.expand}`)
  if (q.queryPlan) parts.push('$queryplan=true')
  for (const [k, v] of Object.entries(extra)) parts.push(`${k}=${v}`)
  return parts.join('&')
}

async function read(path: string): Promise<{ status: number; json: any }> {
  const res = await rest.request(path)
  const text = await res.text()
  return { status: res.status, json: JSON.parse(text) }
}

describe('read parameters combined', () => {
  it('never answer 5xx, and the envelope, $asArray and $format=looker agree', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const envelope = await read(`/rest/Employee?${search(q, {})}`)
        expect(envelope.status).toBe(200)
        const env = envelope.json
        const keys = env.__ENTITIES.map((e: any) => e.__KEY)
        const expectedSent = Math.max(0, Math.min(q.top ?? 100, env.__COUNT - q.skip))
        expect(env.__SENT).toBe(expectedSent)
        expect(env.__FIRST).toBe(q.skip)
        if (q.queryPlan) expect(env).toHaveProperty('__queryPlan')
        const array = (await read(`/rest/Employee?${search(q, { $asArray: 'true' })}`)).json
        expect(array.map((e: any) => String(e.__KEY))).toEqual(keys)
        const looker = (await read(`/rest/Employee?${search(q, { $format: 'looker' })}`)).json
        expect(looker.__COUNT).toBe(env.__COUNT)
        expect(looker.rows.length).toBe(env.__SENT)
        // Without $attributes the page is the same entities with every member.
        const plain = (
          await read(`/rest/Employee?${search({ ...q, attributes: '', expand: '' }, {})}`)
        ).json
        expect(plain.__ENTITIES.map((e: any) => e.__KEY)).toEqual(keys)
        const named =
          q.attributes && q.attributes !== '*'
            ? q.attributes.split(',').map((a) => a.split('.')[0])
            : null
        for (const e of env.__ENTITIES) {
          const members = Object.keys(e).filter((k) => !k.startsWith('__'))
          if (named) expect(members.every((m) => named.includes(m) || m === q.expand)).toBe(true)
          if (q.expand && e.employer) expect(e.employer).not.toHaveProperty('__deferred')
        }
      }),
      { numRuns: 60 },
    )
  })

  it('$compute and $distinct agree with the entities the same $filter selects', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...filters),
        fc.nat(3),
        fc.option(fc.nat(4), { nil: undefined }),
        async (filter, skip, top) => {
          const f = filter ? `$filter="${encodeURIComponent(filter)}"&` : ''
          const all = (await read(`/rest/Employee?${f}$top=1000000&$attributes=salary,lastName`))
            .json
          const salaries: number[] = all.__ENTITIES
            .map((e: any) => e.salary)
            .filter((v: unknown) => v !== null)
          const computed = (await read(`/rest/Employee/salary?${f}$compute=$all`)).json.salary
          expect(computed.count).toBe(salaries.length)
          expect(computed.sum).toBe(salaries.reduce((a, b) => a + b, 0))
          expect(computed.min).toBe(salaries.length ? Math.min(...salaries) : null)
          expect((await read(`/rest/Employee?${f}$attributes=salary&$compute=sum`)).json).toBe(
            computed.sum,
          )
          const names = [...new Set<string>(all.__ENTITIES.map((e: any) => e.lastName))].sort()
          const window = `${skip ? `&$skip=${skip}` : ''}${top !== undefined ? `&$top=${top}` : ''}`
          const distinct = (await read(`/rest/Employee/lastName?${f}$distinct=true${window}`)).json
          expect(distinct).toEqual(names.slice(skip, top === undefined ? undefined : skip + top))
        },
      ),
      { numRuns: 40 },
    )
  })
})
