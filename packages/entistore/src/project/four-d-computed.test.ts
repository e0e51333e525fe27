/**
 * A project's computed attributes and aliases written in 4D, over REST (`serve --project`, issue
 * 63): an Entity class's `Function get / set / query / orderBy` read, written, filtered and sorted
 * as a functions module's `computed` is, under the caller's privileges, a 4D error answered as
 * 4D's error stack when the attribute is read; the test project computed-staff (the docs' company
 * structure, its EmployeeEntity.4dm and a roles.json hiding Company.revenues) and the car-rental
 * example's `label`, with no functions module.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { FunctionsDef } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { projectCopy, RENTAL, served, type Client, type Json } from './four-d-rest.fixture.js'

const STAFF = fileURLToPath(new URL('test-projects/computed-staff', import.meta.url))
const ENTITY_CLASS = 'Project/Sources/Classes/EmployeeEntity.4dm'

const staff = (options: { functions?: FunctionsDef<any>; notes?: string[] } = {}) =>
  served(STAFF, { data: `${STAFF}/csv`, ...options })

const keys = (reply: { json: Json }): number[] =>
  (reply.json.__ENTITIES as Json[]).map((e) => Number(e.__KEY))

async function ids(client: Client, query: string): Promise<number[]> {
  const reply = await client.get(`Employee?${query}&$attributes=ID`)
  expect(reply.status).toBe(200)
  return keys(reply)
}

describe("an Entity class's computed attributes over REST", () => {
  it('reads them in a GET and in $attributes, with $event as 4D gives it', async () => {
    const client = (await staff()).client()
    const ada = await client.get('Employee(1)')
    expect(ada.status).toBe(200)
    expect(ada.json).toMatchObject({ fullName: 'Ada Lovelace', initials: 'AL' })
    const all = await client.get('Employee?$attributes=fullName,initials')
    expect((all.json.__ENTITIES as Json[]).map((e) => [e.fullName, e.initials])).toEqual([
      ['Ada Lovelace', 'AL'],
      ['Alan Turing', 'AT'],
      ['Grace Hopper', 'GH'],
      ['Edsger Dijkstra', 'ED'],
    ])
    // `$event.result:=Null` for a nameless employee reads null.
    await client.post('Employee?$method=update', [{ firstname: '', lastname: '' }])
    expect((await client.get('Employee(5)?$attributes=fullName')).json.fullName).toBeNull()
  })

  it('filters through the query function, and through the getter where there is none or it answers Null', async () => {
    const client = (await staff()).client()
    expect(await ids(client, `$filter="fullName='Ada Lovelace'"`)).toEqual([1])
    // The query function's answer, not the getter's: one word matches either name.
    expect(await ids(client, `$filter="fullName='Hopper'"`)).toEqual([3])
    // `>`: the function answers Null, the getter decides.
    expect(await ids(client, `$filter="fullName>'B'"`)).toEqual([3, 4])
    // No query function.
    expect(await ids(client, `$filter="initials='AT'"`)).toEqual([2])
  })

  it('sorts through the orderBy function, and through the getter without one', async () => {
    const client = (await staff()).client()
    // By last name, as the function answers (by the getter it would be 3, 4, 2, 1).
    expect(await ids(client, '$orderby="fullName desc"')).toEqual([2, 1, 3, 4])
    expect(await ids(client, '$orderby="initials"')).toEqual([1, 2, 4, 3])
  })

  it('writes through the setter: what it assigns to This is written, on an update and a create', async () => {
    const client = (await staff()).client()
    const updated = await client.post('Employee?$method=update', [
      { __KEY: '2', __STAMP: 1, fullName: 'Alan Kay' },
    ])
    expect(updated.status).toBe(200)
    expect(updated.json.__ENTITIES[0]).toMatchObject({
      firstname: 'Alan',
      lastname: 'Kay',
      fullName: 'Alan Kay',
    })
    const made = await client.post('Employee?$method=update', [{ fullName: 'Barbara Liskov' }])
    expect(made.json.__ENTITIES[0]).toMatchObject({
      __KEY: '5',
      firstname: 'Barbara',
      lastname: 'Liskov',
    })
  })

  it("leaves out a getter's value its caller may not read, as it leaves out a functions module's", async () => {
    const revenues: FunctionsDef<any> = {
      dataClasses: {
        Employee: {
          computed: {
            employerRevenues: {
              get() {
                return (this.get('employer') as { get(a: string): unknown } | null)?.get('revenues')
              },
            },
          },
        },
      },
    }
    const fourD = (await staff()).client()
    const js = (await staff({ functions: revenues })).client()
    for (const path of ['Employee(1)', 'Employee(1)?$attributes=employerRevenues,fullName']) {
      const [a, b] = [await fourD.get(path), await js.get(path)]
      expect(a.status).toBe(200)
      expect(a.json.employerRevenues).toBeUndefined()
      expect(a.json.fullName).toBe('Ada Lovelace')
      expect({ ...a.json, __TIMESTAMP: 0 }).toEqual({ ...b.json, __TIMESTAMP: 0 })
    }
    // A filter on it is refused as the module's is.
    const filter = `Employee?$filter="employerRevenues>1"`
    const [a, b] = [await fourD.get(filter), await js.get(filter)]
    expect(a.status).toBe(b.status)
    expect(a.json.__ERROR?.[0]?.errCode).toBe(b.json.__ERROR?.[0]?.errCode)
    // Who may read revenues reads it.
    expect((await fourD.post('$catalog/authentify', ['finance'])).status).toBe(200)
    expect((await fourD.get('Employee(1)?$attributes=employerRevenues')).json).toMatchObject({
      employerRevenues: 5_000_000,
    })
    expect(await ids(fourD, `$filter="employerRevenues>1000000"`)).toEqual([1, 3])
  })

  it("answers a getter's 4D error with 4D's error stack, and what cannot run here when it is reached only", async () => {
    const text = readFileSync(`${STAFF}/${ENTITY_CLASS}`, 'utf8')
    const copy = projectCopy(STAFF, {
      [ENTITY_CLASS]: `${text}
exposed Function get broken() : Text
\tASSERT(False; "broken on purpose")

exposed Function get windowed() : Text
\tSET WINDOW TITLE("staff")
\treturn "never"

exposed Function get endless() : Text
\treturn This.endless
`,
    })
    const notes: string[] = []
    const client = (await served(copy, { data: `${STAFF}/csv`, notes })).client()
    expect(notes.join('\n')).toMatch(/SET WINDOW TITLE/)
    const lines = text.split('\n').length
    expect(await client.get('Employee(1)?$attributes=broken')).toEqual({
      status: 422,
      json: {
        __ERROR: [
          {
            message: 'Assert failed: broken on purpose',
            componentSignature: '4DRT',
            errCode: -10518,
          },
          {
            message: `Error in EmployeeEntity.broken, line ${lines + 2} of Sources/Classes/EmployeeEntity.4dm`,
            componentSignature: 'enti',
            errCode: 9100,
          },
        ],
      },
    })
    const windowed = await client.get('Employee(1)?$attributes=windowed')
    expect(windowed.status).toBe(422)
    expect(windowed.json.__ERROR[0].message).toMatch(/SET WINDOW TITLE/)
    // A getter that reads itself: an error of 4D (recursive calls "generate errors"), not a crash.
    const endless = await client.get('Employee(1)?$attributes=endless')
    expect(endless.status).toBe(422)
    expect(endless.json.__ERROR[1].message).toMatch(/EmployeeEntity\.endless/)
    // The other attributes read as ever.
    expect((await client.get('Employee(1)?$attributes=fullName')).json.fullName).toBe(
      'Ada Lovelace',
    )
  })

  it("runs a request's getters in one process, as 4D runs a request's code; the next request in another", async () => {
    const text = readFileSync(`${STAFF}/${ENTITY_CLASS}`, 'utf8')
    const copy = projectCopy(STAFF, {
      [ENTITY_CLASS]: `${text}
exposed Function get reads() : Integer
\tvReads:=Num(vReads)+1
\treturn vReads
`,
    })
    // A slice a step: the reply's getters, made ahead in the read's slices, span several of them.
    const client = (await served(copy, { data: `${STAFF}/csv`, sliceMs: 0 })).client()
    for (let request = 0; request < 2; request++) {
      const reply = await client.get('Employee?$attributes=reads')
      expect((reply.json.__ENTITIES as Json[]).map((e) => e.reads)).toEqual([1, 2, 3, 4])
    }
  })

  it("lets a functions module's computed attribute of the same name win over the class file's", async () => {
    const functions: FunctionsDef<any> = {
      dataClasses: { Employee: { computed: { fullName: { get: () => 'from the module' } } } },
    }
    const client = (await staff({ functions })).client()
    expect((await client.get('Employee(1)?$attributes=fullName,initials')).json).toMatchObject({
      fullName: 'from the module',
      initials: 'AL',
    })
  })
})

describe("a project's aliases over REST", () => {
  it('reads, filters and sorts an alias through its relation', async () => {
    const client = (await staff()).client()
    const acme = await client.get(
      `Employee?$filter="employerName='Acme'"&$orderby="employerName desc,ID desc"&$attributes=employerName`,
    )
    expect(keys(acme)).toEqual([3, 1])
    expect((acme.json.__ENTITIES as Json[]).map((e) => e.employerName)).toEqual(['Acme', 'Acme'])
    expect(await ids(client, '$orderby="employerName desc,ID"')).toEqual([2, 4, 1, 3])
  })
})

describe('the car-rental example with its class files alone', () => {
  it("reads, filters and sorts CarEntity's label and the brand alias, with no functions module", async () => {
    const client = (await served(RENTAL, { data: `${RENTAL}/csv` })).client()
    expect((await client.get('Car(1)?$attributes=label,brand')).json).toMatchObject({
      label: 'Renault Clio (AB-123-CD)',
      brand: 'Renault',
    })
    const sorted = await client.get(
      `Car?$filter="label>'P'"&$orderby="label desc"&$attributes=label`,
    )
    expect((sorted.json.__ENTITIES as Json[]).map((e) => e.label)).toEqual([
      'Renault Clio (AB-123-CD)',
      'Porsche 911 (IJ-789-KL)',
      'Peugeot 5008 (EF-456-GH)',
    ])
    const brands = await client.get(`Car?$filter="brand='P@'"&$orderby="brand"&$attributes=brand`)
    expect((brands.json.__ENTITIES as Json[]).map((e) => e.brand)).toEqual(['Peugeot', 'Porsche'])
  })
})
