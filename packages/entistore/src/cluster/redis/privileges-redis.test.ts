/**
 * Issue 46 across processes: two `entistore serve --redis` processes on two ports, the company
 * demo with a roles file, a users file and class functions, one Redis. A session logged in
 * through one process is held to its privileges through the other, its functions' code included
 * (a promoted function reads salaries for its call only, an unpromoted one is refused), its
 * `restrict` holds there, and an entity set made through one process by one user is read through
 * the other by another user with that user's own rights, and released by its owner only.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, stopChildren } from '../../persist/cli-process.fixture.js'
import { redisMissing, startRedis, type RedisServer } from '../redis-server.fixture.js'

const root = new URL('../../../../../', import.meta.url).pathname
const model = `${root}examples/company/model.json`
const data = `${root}examples/company/data.json`
const employees = JSON.parse(readFileSync(data, 'utf8')).Employee as {
  ID: number
  salary: number | null
  employerID: number | null
}[]
const ofCompany = (id: number) => employees.filter((e) => e.employerID === id)
const total = (id: number) => ofCompany(id).reduce((t, e) => t + (e.salary ?? 0), 0)

const ROLES = {
  privileges: [
    { privilege: 'reader', includes: [] },
    { privilege: 'pricing', includes: [] },
  ],
  roles: [],
  permissions: {
    allowed: [
      { applyTo: 'ds', type: 'datastore', read: ['reader'], execute: ['reader'] },
      { applyTo: 'Employee.salary', type: 'attribute', read: ['pricing'] },
      { applyTo: 'Employee.payroll', type: 'method', execute: ['reader'], promote: ['pricing'] },
    ],
  },
  restrictedByDefault: false,
  forceLogin: false,
}

// The company of a user is the first of their groups; a session without a user sees no employee.
const FUNCTIONS = `export default {
  dataClasses: {
    Employee: {
      restrict({ session }) {
        if (!session) return null
        const user = session.data.get('entistore.user')
        return this.query('employerID = :1', user ? Number(user.groups[0]) : -1)
      },
      dataClass: {
        payroll: { exposed: true, async call() { await new Promise((r) => setImmediate(r)); return this.all().sum('salary') } },
        payrollUnpromoted: { exposed: true, call() { return this.all().sum('salary') } },
      },
    },
  },
}
`

const USERS = {
  ann: { password: 'ann', groups: ['1'], privileges: ['reader'] },
  eve: { password: 'eve', groups: ['2'], privileges: ['reader'] },
}

const missing = redisMissing()
let redis: RedisServer | undefined
let dir: string

beforeAll(async () => {
  if (missing) return
  redis = await startRedis()
  dir = mkdtempSync(join(tmpdir(), 'entistore-privileges-'))
  writeFileSync(join(dir, 'roles.json'), JSON.stringify(ROLES))
  writeFileSync(join(dir, 'users.json'), JSON.stringify(USERS))
  writeFileSync(join(dir, 'functions.mjs'), FUNCTIONS)
})
afterAll(async () => {
  stopChildren()
  await redis?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** A client that keeps its cookie, whichever process it sends to. */
function jar() {
  let cookie: string | undefined
  return async (
    base: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const set = res.headers.get('set-cookie')
    if (set) cookie = set.split(';')[0]
    const json = (await res.json()) as any
    return { status: res.status, json, errCode: json?.__ERROR?.[0]?.errCode as number | undefined }
  }
}

describe.skipIf(missing)(
  `privileges across processes (entistore serve --redis)${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let one: string
    let two: string

    beforeAll(async () => {
      const args = [
        'serve',
        '-m',
        model,
        '-d',
        data,
        '--roles',
        join(dir, 'roles.json'),
        '--users',
        join(dir, 'users.json'),
        '--functions',
        join(dir, 'functions.mjs'),
        '--redis',
        redis!.url,
        '--port',
        '0',
      ]
      const ready = { ready: 'through Redis at' }
      const [a, b] = await Promise.all([startCli(args, ready), startCli(args, ready)])
      one = a.url
      two = b.url
    })

    const login = async (client: ReturnType<typeof jar>, base: string, name: string) => {
      const answer = await client(
        base,
        '/rest/$directory/login',
        {},
        {
          'username-4D': name,
          'password-4D': name,
        },
      )
      expect(answer.json).toEqual({ result: true })
    }

    it('a session logged in through one process runs functions as itself through the other', async () => {
      const ann = jar()
      await login(ann, one, 'ann')
      const refused = await ann(two, '/rest/Employee/payrollUnpromoted', [])
      expect([refused.status, refused.errCode]).toEqual([403, 1607])
      const promoted = await ann(two, '/rest/Employee/payroll', [])
      expect(promoted.status).toBe(200)
      expect(promoted.json.result).toBeCloseTo(total(1), 2)
      // Its restrict holds there too, and the promotion ended with the call.
      expect((await ann(two, '/rest/Employee')).json.__COUNT).toBe(ofCompany(1).length)
      expect((await ann(one, '/rest/Employee?$filter="salary>0"')).status).toBe(403)
    })

    it('promotions stay with their calls under concurrent requests to both processes', async () => {
      const ann = jar()
      const eve = jar()
      await login(ann, two, 'ann')
      await login(eve, one, 'eve')
      for (let round = 0; round < 20; round++) {
        const answers = await Promise.all([
          ann(one, '/rest/Employee/payroll', []),
          eve(two, '/rest/Employee/payroll', []),
          ann(two, '/rest/Employee/payrollUnpromoted', []),
          eve(one, '/rest/Employee?$orderby=salary'),
        ])
        expect(answers.map((a) => a.status)).toEqual([200, 200, 403, 403])
        expect(answers[0]!.json.result).toBeCloseTo(total(1), 2)
        expect(answers[1]!.json.result).toBeCloseTo(total(2), 2)
      }
    })

    it('an entity set made through one process is read through the other with the reader’s rights', async () => {
      const ann = jar()
      const eve = jar()
      await login(ann, one, 'ann')
      await login(eve, two, 'eve')
      const made = await eve(one, '/rest/Employee?$method=entityset')
      expect(made.json.__COUNT).toBe(ofCompany(2).length)
      const id = String(made.json.__ENTITYSET).split('/').at(-1)
      // ann sees none of company 2's employees: the id gives her nothing she could not query.
      expect((await ann(two, `/rest/Employee/$entityset/${id}`)).json.__COUNT).toBe(0)
      const release = await ann(two, `/rest/Employee/$entityset/${id}?$method=release`)
      expect([release.status, release.errCode]).toEqual([404, 1802])
      expect((await eve(one, `/rest/Employee/$entityset/${id}`)).json.__COUNT).toBe(
        ofCompany(2).length,
      )
    })
  },
)
