/**
 * The two field properties of a 4D structure that change what a value may be, over REST through
 * `serve --project` on the car-rental project: "Map NULL values to blank values" (never_null:
 * Customer.notes) and Alpha lengths (limiting_length: Agency.name 80, Car.plate 12).
 */
import { describe, expect, it } from 'vitest'
import { projectCopy, RENTAL, served, type Json } from './four-d-rest.fixture.js'

const ADA = '3F2504E04F8911D39A0C0305E82C3301'
const EMPTY_NOTES = '6BA7B8109DAD11D180B400C04FD430C8'
const LONG_NAME = 'x'.repeat(81)

const rental = (): ReturnType<typeof served> => served(RENTAL, { data: `${RENTAL}/csv` })
const keys = (json: Json): string[] => (json.__ENTITIES as Json[]).map((e) => e.__KEY as string)

describe('"Map NULL values to blank values" (never_null) over REST', () => {
  it('stores the blank text for a null written, and for a value not given at creation', async () => {
    const post = await rental()
    const updated = await post('Customer?$method=update', { __KEY: ADA, notes: null })
    expect([updated.status, updated.json.notes]).toEqual([200, ''])
    const created = await post('Customer?$method=update', { firstName: 'Grace', agencyID: 1 })
    expect([created.status, created.json.notes]).toEqual([200, ''])
  })

  it('finds no entity with notes = null, and every blank one with notes = ""', async () => {
    const post = await rental()
    const get = post.client().get
    await post('Customer?$method=update', { __KEY: ADA, notes: null })
    expect(keys((await get('Customer?$filter="notes=null"')).json)).toEqual([])
    // The CSV's empty cell (EMPTY_NOTES) is the blank text too.
    expect(keys((await get(`Customer?$filter="notes=''"`)).json).sort()).toEqual(
      [ADA, EMPTY_NOTES].sort(),
    )
  })
})

const tooLong = (value: string, attribute: string, max: number, dc: string): string =>
  `The value "${value.length > 40 ? `${value.slice(0, 40)}…` : value}" is not valid for the "${attribute}" attribute (string) of the "${dc}" dataclass: longer than the attribute's ${max} characters`

describe('Alpha lengths (limiting_length) over REST', () => {
  const refused = (reply: { status: number; json: Json }): unknown[] => {
    const error = (reply.json.__ERROR as Json[] | undefined)?.[0]
    return [reply.status, error?.errCode, error?.message]
  }

  it('refuses a longer value with 1570, and keeps the entity as it was', async () => {
    const post = await rental()
    const get = post.client().get
    const before = (await get('Agency(1)')).json
    const reply = await post('Agency?$method=update', { __KEY: '1', name: LONG_NAME, city: 'Nice' })
    expect(refused(reply)).toEqual([400, 1570, tooLong(LONG_NAME, 'name', 80, 'Agency')])
    const after = (await get('Agency(1)')).json
    expect([after.name, after.city, after.__STAMP]).toEqual([
      before.name,
      before.city,
      before.__STAMP,
    ])
    const exact = await post('Agency?$method=update', { __KEY: '1', name: 'y'.repeat(80) })
    expect([exact.status, exact.json.name]).toEqual([200, 'y'.repeat(80)])
  })

  it('writes nothing of an $atomic array when one value is too long', async () => {
    const post = await rental()
    const get = post.client().get
    const reply = await post('Car?$method=update&$atomic=true', [
      { __KEY: '1', color: 'blue' },
      { __KEY: '2', plate: 'PLATE-TOO-LONG' },
    ])
    expect(reply.status).toBe(400)
    expect(JSON.stringify(reply.json)).toContain("longer than the attribute's 12 characters")
    expect((await get('Car(1)')).json.color).toBe('red')
    expect((await get('Car(2)')).json.plate).toBe('EF-456-GH')
  })

  it('refuses the longer entity alone in an array that is not atomic, the others written', async () => {
    const post = await rental()
    const get = post.client().get
    const reply = await post('Car?$method=update', [
      { __KEY: '1', color: 'blue' },
      { __KEY: '2', plate: 'PLATE-TOO-LONG', color: 'green' },
    ])
    const [first, second] = reply.json.__ENTITIES as Json[]
    expect(first!.color).toBe('blue')
    expect(JSON.stringify(second)).toContain("longer than the attribute's 12 characters")
    const car2 = (await get('Car(2)')).json
    expect([car2.plate, car2.color]).toEqual(['EF-456-GH', 'grey'])
  })

  it("refuses it to the project's 4D code too: save() raises 1570, nothing written", async () => {
    const project = projectCopy(RENTAL, {
      'Project/Sources/Classes/Agency.4dm': [
        'Class extends DataClass',
        '',
        'exposed Function rename($name : Text) : Object',
        '\tvar $agency : cs.AgencyEntity',
        '\t$agency:=This.get(1)',
        '\t$agency.name:=$name',
        '\t$agency.city:="Nice"',
        '\treturn $agency.save()',
        '',
      ].join('\n'),
    })
    const post = await served(project, { data: `${project}/csv` })
    const get = post.client().get
    // As a null in a not-null field: a 4D error at the save (a Try catches it), with its stack.
    const reply = await post('Agency/rename', [LONG_NAME])
    expect(reply.status).toBe(422)
    expect((reply.json.__ERROR as Json[]).map((e) => [e.errCode, e.message])).toEqual([
      [1570, tooLong(LONG_NAME, 'name', 80, 'Agency')],
      [9100, 'Error in Agency.rename, line 8 of Sources/Classes/Agency.4dm'],
    ])
    const agency = (await get('Agency(1)')).json
    expect([agency.name, agency.city]).toEqual(['Lyon Part-Dieu', 'Lyon'])
    expect(((await post('Agency/rename', ['Lyon 2'])).json.result as Json).success).toBe(true)
  })
})
