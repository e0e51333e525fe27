import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  encodeBase64,
  Entity,
  EntitySelection,
  ManualClock,
  type BinaryValue,
} from '@entistore/core'
import { createRestHandler } from '@entistore/rest'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadDatastoreFiles } from '../load/load-files.js'

const root = new URL('../../../../', import.meta.url).pathname
const MODEL = join(root, 'examples/company/model.json')
const DATA = join(root, 'examples/company/data.json')

let ds: Awaited<ReturnType<typeof loadDatastoreFiles>>
beforeAll(async () => {
  ds = await loadDatastoreFiles({ model: MODEL, data: DATA, clock: new ManualClock() })
})

describe('the company demo', () => {
  it('loads 24 companies, 360 employees and 40 projects', () => {
    expect(ds.name).toBe('company-demo')
    expect(ds.dataClasses.map((dc) => [dc.name, dc.length])).toEqual([
      ['Company', 24],
      ['Employee', 360],
      ['Project', 40],
    ])
    expect(ds.globalStamp).toBe(0)
  })

  it('resolves every employer, manager and project company', () => {
    const Employee = ds.dataClass('Employee')
    for (const e of Employee.all().toArray()) {
      const employer = e.get('employer')
      expect(employer).toBeInstanceOf(Entity)
      expect((employer as Entity).getKey()).toBe(e.get('employerID'))
      expect(e.get('employerName')).toBe((employer as Entity).get('name'))
      const manager = e.get('manager') as Entity | null
      if (manager !== null) {
        expect(manager.dataClass.name).toBe('Employee')
        // Managers work for the company of the people they manage.
        expect(manager.get('employerID')).toBe(e.get('employerID'))
      }
    }
    for (const p of ds.dataClass('Project').all().toArray())
      expect(p.get('company')).toBeInstanceOf(Entity)
  })

  it('gives each company its staff and each manager their reports, everyone counted once', () => {
    let staff = 0
    for (const c of ds.dataClass('Company').all().toArray()) {
      const members = c.get('staff') as EntitySelection
      for (const e of members.toArray()) expect(e.get('employerID')).toBe(c.getKey())
      staff += members.length
    }
    expect(staff).toBe(360)
    let reports = 0
    let managers = 0
    for (const e of ds.dataClass('Employee').all().toArray()) {
      const n = (e.get('reports') as EntitySelection).length
      reports += n
      if (n > 0) managers++
    }
    expect(managers).toBeGreaterThan(0)
    expect(reports).toBe(
      ds
        .dataClass('Employee')
        .all()
        .toArray()
        .filter((e) => e.get('manager') !== null).length,
    )
  })

  it('gives each company but Wonka its own logo, a small 64×64 PNG', () => {
    const logos = new Map<string, unknown>(
      ds
        .dataClass('Company')
        .all()
        .toArray()
        .map((c) => [c.get('name') as string, c.get('logo')]),
    )
    const pictures = [...logos].filter(([name]) => !name.startsWith('Wonka'))
    expect(pictures).toHaveLength(22)
    for (const [name, logo] of pictures) {
      const { bytes, type } = logo as BinaryValue
      const ihdr = new DataView(bytes.buffer, bytes.byteOffset + 16, 8)
      expect([type, ihdr.getUint32(0), ihdr.getUint32(4)], name).toEqual(['image/png', 64, 64])
      expect(bytes.length, name).toBeLessThan(2048)
    }
    const distinct = new Set(pictures.map(([, logo]) => encodeBase64((logo as BinaryValue).bytes)))
    expect(distinct.size).toBe(22)
    expect([logos.get('Wonka Industries'), logos.get('Wonka Labs')]).toEqual([null, null])
  })

  it('answers the REST interface for every dataclass', async () => {
    const rest = createRestHandler(ds)
    const catalog = (await (await rest.request('/rest/$catalog/$all')).json()) as {
      dataClasses: { name: string; attributes: unknown[] }[]
    }
    expect(catalog.dataClasses.map((d) => d.name)).toEqual(['Company', 'Employee', 'Project'])
    for (const name of ['Company', 'Employee', 'Project']) {
      const res = await rest.request(`/rest/${name}?$top=1000`)
      expect(res.status).toBe(200)
      const body = (await res.json()) as { __COUNT: number; __SENT: number }
      expect(body.__SENT).toBe(body.__COUNT)
    }
  })

  it('ships the data file that examples/company/generate.ts writes', () => {
    const generated = execFileSync(
      join(root, 'node_modules/.bin/tsx'),
      ['examples/company/generate.ts'],
      { cwd: root, encoding: 'utf8' },
    )
    expect(
      generated === readFileSync(DATA, 'utf8'),
      'examples/company/data.json is out of date: run npx tsx examples/company/generate.ts > examples/company/data.json',
    ).toBe(true)
  })
})

/** The demo as `npm start` serves it: its functions and its roles file too. */
const served = () =>
  loadDatastoreFiles({
    model: MODEL,
    data: DATA,
    functions: join(root, 'examples/company/functions.js'),
    roles: join(root, 'examples/company/roles.json'),
    clock: new ManualClock(),
  })

describe("the company demo's roles.json", () => {
  it('refuses a guest the delete of a company, and lets it delete an employee', async () => {
    const demo = await served()
    const rest = createRestHandler(demo)
    const drop = async (path: string) =>
      (await rest.request(`${path}?$method=delete`, { method: 'POST' })).status
    expect(await drop('/rest/Company(1)')).toBe(403)
    expect(demo.dataClass('Company').get(1)).not.toBeNull()
    expect(await drop('/rest/Employee(1)')).toBe(200)
  })
})

describe("the company demo's functions", () => {
  it('refuses a negative salary in its validateSave event, from REST and from code', async () => {
    const demo = await served()
    const rest = createRestHandler(demo)
    const res = await rest.request('/rest/Employee?$method=update', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ __KEY: '1', salary: -10 }),
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { __ERROR: unknown[] }
    expect(body.__ERROR[0]).toEqual({
      message: 'A salary is never negative (-10)',
      componentSignature: 'DBEV',
      errCode: 2,
    })
    const employee = demo.dataClass('Employee')
    expect(() => employee.update(1, { salary: -1 })).toThrow('A salary is never negative (-1)')
    expect(employee.update(1, { salary: 50_000 }).get('salary')).toBe(50_000)
  })
})
