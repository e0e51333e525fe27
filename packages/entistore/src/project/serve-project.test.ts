/**
 * `entistore serve --project`: a 4D project folder served as is, through the CLI in process. The
 * small structure is the one behind the `$catalog/$all` example of 4D's REST documentation, and
 * its served catalog is compared with that example; the car-rental project
 * (examples/car-rental) covers every field type and relation form, hidden and trashed tables,
 * class files, roles.json and CSV data.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Started } from '../commands/cli-serve.fixture.js'
import { FIELD_TYPES } from './field-types.js'
import { readStructure } from './structure-xml.js'
import { parseXml } from './xml-reader.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const DOCS = fileURLToPath(new URL('test-projects/docs-company/Project', import.meta.url))
const RENTAL = `${root}examples/car-rental`

type Json = Record<string, unknown>
const getJson = async (s: Started, path: string): Promise<Json> =>
  (await fetch(`${s.url}/rest/${path}`)).json() as Promise<Json>
const pick = (o: Json, keys: readonly string[]): Json =>
  Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]))

/**
 * The "Field types" table of docs/from-your-project.md, the one 4D developers read: each type code
 * (`10 uuid` for the row of an Alpha stored as UUID) with the REST type it says (undefined: the
 * row says "not served").
 */
function documentedFieldTypes(): Map<string, string | undefined> {
  const page = readFileSync(`${root}docs/from-your-project.md`, 'utf8')
  const section = page.split('\n## Field types\n')[1]!.split('\n## ')[0]!
  const rows = section.split('\n').filter((l) => /^\| \d+[ ,]/.test(l))
  const table = new Map<string, string | undefined>()
  for (const row of rows) {
    const [codes, , rest] = row
      .split('|')
      .slice(1)
      .map((c) => c.trim())
    const type = /^`(\w+)`/.exec(rest!)?.[1]
    if (type === undefined && !rest!.startsWith('not served')) throw new Error(`a row: ${row}`)
    const asUuid = /^(\d+) with `store_as_UUID`$/.exec(codes!)
    for (const code of asUuid ? [`${asUuid[1]} uuid`] : codes!.split(',').map((c) => c.trim()))
      table.set(code, type)
  }
  return table
}

/**
 * The `$catalog/$all` example of 4D's documentation (developer.4d.com/docs/REST/$catalog, example
 * 2), the properties it shows: Entistore's catalog must hold each of them with the same value.
 */
const DOCUMENTED = [
  {
    name: 'Company',
    className: 'Company',
    collectionName: 'CompanySelection',
    tableNumber: 2,
    scope: 'public',
    dataURI: '/rest/Company',
    attributes: [
      {
        name: 'ID',
        kind: 'storage',
        scope: 'public',
        indexed: true,
        type: 'long',
        identifying: true,
      },
      { name: 'name', kind: 'storage', scope: 'public', type: 'string' },
      { name: 'revenues', kind: 'storage', scope: 'public', type: 'number' },
      { name: 'url', kind: 'storage', scope: 'public', type: 'string' },
      {
        name: 'staff',
        kind: 'relatedEntities',
        scope: 'public',
        type: 'EmployeeSelection',
        reversePath: true,
        path: 'employer',
      },
    ],
    key: [{ name: 'ID' }],
  },
  {
    name: 'Employee',
    className: 'Employee',
    collectionName: 'EmployeeSelection',
    tableNumber: 1,
    scope: 'public',
    dataURI: '/rest/Employee',
    attributes: [
      {
        name: 'ID',
        kind: 'storage',
        scope: 'public',
        indexed: true,
        type: 'long',
        identifying: true,
      },
      { name: 'firstname', kind: 'storage', scope: 'public', type: 'string' },
      { name: 'lastname', kind: 'storage', scope: 'public', type: 'string' },
      {
        name: 'employer',
        kind: 'relatedEntity',
        scope: 'public',
        type: 'Company',
        path: 'Company',
      },
    ],
    key: [{ name: 'ID' }],
  },
]

describe("serve --project with the structure of 4D's $catalog example", () => {
  let s: Started
  beforeAll(async () => {
    s = await startServe(['serve', '--project', DOCS, '--no-explorer', '--quiet'])
  })
  afterAll(() => s?.stop())

  it("serves the catalog 4D's documentation shows for it", async () => {
    const all = await getJson(s, '$catalog/$all')
    const served = (all.dataClasses as Json[])
      .map((dc): Json => ({
        ...pick(dc, [
          'name',
          'className',
          'collectionName',
          'tableNumber',
          'scope',
          'dataURI',
          'key',
        ]),
        attributes: (dc.attributes as Json[])
          .map((a) =>
            pick(a, [
              'name',
              'kind',
              'scope',
              'indexed',
              'type',
              'identifying',
              'path',
              'reversePath',
            ]),
          )
          .sort((a, b) => String(a.name).localeCompare(String(b.name))),
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)))
    const documented = DOCUMENTED.map((dc) => ({
      ...dc,
      attributes: [...dc.attributes].sort((a, b) => a.name.localeCompare(b.name)),
    }))
    expect(served).toEqual(documented)
    expect(all.__NAME).toBe('docsCompany')
  })

  it('keeps a field that is not exposed as a REST resource out of the catalog and the data', async () => {
    const employee = await getJson(s, '$catalog/Employee')
    expect((employee.attributes as Json[]).map((a) => a.name)).not.toContain('companyID')
    const created = await fetch(`${s.url}/rest/Employee?$method=update`, {
      method: 'POST',
      body: JSON.stringify({ firstname: 'Ada', companyID: 3 }),
    })
    expect(created.status).toBe(400)
  })

  it('says nothing at start-up when the structure holds nothing Entistore cannot honour', () => {
    expect(s.err).toEqual([])
  })
})

describe('serve --project with the car-rental project and its CSV data', () => {
  let s: Started
  beforeAll(async () => {
    s = await startServe([
      'serve',
      '--project',
      RENTAL,
      '--data',
      `${RENTAL}/csv`,
      '--no-explorer',
      '--quiet',
    ])
  })
  afterAll(() => s?.stop())

  const attributesOf = async (dc: string): Promise<Record<string, Json>> =>
    Object.fromEntries(
      ((await getJson(s, `$catalog/${dc}`)).attributes as Json[]).map((a) => [a.name, a]),
    )

  it('lists the dataclasses 4D references over REST: no hidden, trashed or keyless table', async () => {
    const names = ((await getJson(s, '$catalog')).dataClasses as Json[]).map((d) => d.name)
    expect(names).toEqual([
      'Agency',
      'Customer',
      'CarCategory',
      'CarModel',
      'Car',
      'Rental',
      'Payment',
      'Invoice',
      'Employee',
      'Maintenance',
      'Garage',
      'Option',
      'RentalOption',
      'Review',
      'Damage',
      'Settings',
    ])
    for (const gone of ['AuditLog', 'OldPricing', 'SyncQueue', 'LegacyLink'])
      expect((await fetch(`${s.url}/rest/${gone}`)).status).toBe(404)
  })

  it('maps each field type code to the REST type 4D gives it', async () => {
    const types = async (dc: string) =>
      Object.fromEntries(Object.entries(await attributesOf(dc)).map(([n, a]) => [n, a.type]))
    expect(await types('Agency')).toMatchObject({
      ID: 'long',
      name: 'string',
      city: 'string',
      opened: 'date',
      openingTime: 'duration',
      logo: 'image',
      location: 'object',
      customers: 'CustomerSelection',
      fleet: 'CarSelection',
    })
    expect(await types('Customer')).toMatchObject({
      ID: 'uuid',
      vip: 'bool',
      loyaltyPoints: 'long64',
      birthDate: 'date',
      homeAgency: 'Agency',
    })
    expect(await types('CarModel')).toMatchObject({
      categoryID: 'word',
      power: 'word',
      consumption: 'number',
      brochure: 'blob',
      embedding: 'object',
    })
    expect(await types('Invoice')).toMatchObject({ ID: 'long64', rental: 'Rental' })
    expect(await types('Payment')).toMatchObject({ reference: 'uuid' })
  })

  it('serves a field of every type code of field-types.ts with the REST type the docs table gives it', async () => {
    const documented = documentedFieldTypes()
    // The docs table and the code's table name the same codes, each with the same REST type.
    expect([...documented.keys()].sort()).toEqual(
      [...[...FIELD_TYPES.keys()].map(String), '10 uuid'].sort(),
    )
    for (const [code, t] of FIELD_TYPES)
      expect(documented.get(String(code)), `${code}`).toBe(t.rest)
    expect(documented.get('10 uuid')).toBe('uuid')
    // Each row is met by the car-rental structure's fields in served tables, exposed to REST.
    const structure = readStructure(
      parseXml(readFileSync(`${RENTAL}/Project/Sources/catalog.4DCatalog`, 'utf8')),
    )
    const served = new Set(
      ((await getJson(s, '$catalog')).dataClasses as Json[]).map((d) => d.name),
    )
    const catalogs = new Map<string, Record<string, Json>>()
    for (const [row, type] of documented) {
      const [code, asUuid] = [Number(row.split(' ')[0]), row.endsWith(' uuid')]
      const fields = structure.tables
        .filter((t) => served.has(t.name))
        .flatMap((t) => t.fields.map((f) => ({ table: t.name, f })))
        .filter(({ f }) => f.typeCode === code && f.storeAsUuid === asUuid && !f.hidden)
      expect(fields.length, `a field of type ${row} in a served table`).toBeGreaterThan(0)
      for (const { table, f } of fields) {
        if (!catalogs.has(table)) catalogs.set(table, await attributesOf(table))
        const attribute = catalogs.get(table)![f.name]
        // A type Entistore does not serve leaves its field out of the catalog.
        expect(attribute?.type, `${table}.${f.name} (type ${row})`).toBe(type)
      }
    }
  })

  it('gives keys, uniqueness, not null, autosequence, indexes and object classes as 4D does', async () => {
    const customer = await attributesOf('Customer')
    expect(customer.ID).toMatchObject({
      identifying: true,
      unique: true,
      not_null: true,
      autosequence: true,
    })
    expect(customer.lastName).toMatchObject({ indexed: true })
    expect(customer.notes).toMatchObject({ multiLine: true })
    expect(customer.notes).not.toHaveProperty('indexed')
    const car = await attributesOf('Car')
    expect(car.plate).toMatchObject({ indexed: true, unique: true })
    expect((await attributesOf('CarModel')).embedding).toMatchObject({ classID: '4D.Vector' })
    expect((await getJson(s, '$catalog/CarCategory')).key).toEqual([{ name: 'ID' }])
  })

  it('gives every relation its N→1 and 1→N attributes, a table related to itself included', async () => {
    const employee = await attributesOf('Employee')
    expect(employee.manager).toMatchObject({
      kind: 'relatedEntity',
      type: 'Employee',
      path: 'Employee',
      foreignKey: 'managerID',
    })
    expect(employee.reports).toMatchObject({
      kind: 'relatedEntities',
      type: 'EmployeeSelection',
      path: 'manager',
      reversePath: true,
    })
    // A relation with no 1→N name has its N→1 attribute only.
    expect(Object.keys(await attributesOf('Rental'))).not.toContain('invoices')
    const reports = await getJson(s, 'Employee(1)/reports')
    expect((reports.__ENTITIES as Json[]).map((e) => e.name)).toEqual(['Hugo Bernard'])
    const options = await getJson(s, 'Rental(1)/options?$expand=option')
    expect((options.__ENTITIES as Json[]).length).toBe(1)
  })

  it('keeps hidden fields and relations to hidden tables out of REST', async () => {
    expect(Object.keys(await attributesOf('Settings'))).toEqual([
      'ID',
      'name',
      'value',
      'level',
      'backup',
      'installID',
      'terms',
      'shortCode',
      'footer',
    ])
    expect((await getJson(s, 'Settings(1)')).secret).toBeUndefined()
  })

  it("lists the class files' exposed functions as 4D lists them, computed attributes and aliases too", async () => {
    const catalog = await getJson(s, '$catalog')
    const methods = catalog.methods as Json[]
    expect(methods.map((m) => m.name)).toEqual([
      'appInfo',
      'stats',
      'sayHello',
      'rentalDays',
      'priceByDay',
      'getFirstCar',
      'getEntitySel',
    ])
    expect(methods.slice(0, 2)).toEqual([
      {
        name: 'appInfo',
        applyTo: 'dataStore',
        scope: 'public',
        from: 'remoteServer',
        allowedOnHTTPGET: true,
        exposed: true,
      },
      {
        name: 'stats',
        applyTo: 'dataStore',
        scope: 'public',
        from: 'remoteServer',
        allowedOnHTTPGET: false,
        exposed: true,
      },
    ])
    expect(catalog.singletons).toEqual([
      {
        name: 'Pricing',
        methods: [
          { name: 'quote', allowedOnHTTPGET: false, exposed: true },
          { name: 'rates', allowedOnHTTPGET: true, exposed: true },
        ],
      },
    ])
    const car = await getJson(s, '$catalog/Car')
    expect((car.methods as Json[]).map((m) => [m.name, m.applyTo])).toEqual([
      ['available', 'dataClass'],
      ['book', 'entity'],
    ])
    const attrs = await attributesOf('Car')
    expect(attrs.label).toMatchObject({ kind: 'calculated', type: 'string', readOnly: true })
    expect(attrs.brand).toMatchObject({ kind: 'alias', path: 'model.brand', type: 'string' })
    const one = await getJson(s, 'Car(1)?$attributes=label,brand')
    expect([one.label, one.brand]).toEqual(['Renault Clio (AB-123-CD)', 'Renault'])
  })

  it("Agency's description: computed, searched by its query function; its saving event trims", async () => {
    const one = await getJson(s, 'Agency(1)?$attributes=description')
    expect(one.description).toBe('Lyon Part-Dieu, Lyon (since 2015)')
    const found = await getJson(s, 'Agency?$filter="description=\'Paris\'"&$attributes=ID')
    expect((found.__ENTITIES as Json[]).map((e) => e.ID)).toEqual([2])
    const saved = await fetch(`${s.url}/rest/Agency?$method=update`, {
      method: 'POST',
      body: JSON.stringify([{ __KEY: '2', name: '  Paris Gare de Lyon  ', city: ' Paris ' }]),
    })
    expect(((await saved.json()) as { __ENTITIES: Json[] }).__ENTITIES[0]).toMatchObject({
      name: 'Paris Gare de Lyon',
      city: 'Paris',
      description: 'Paris Gare de Lyon, Paris (since 2018)',
    })
  })

  it('runs the class files alone: no functions module for anything written in 4D', async () => {
    const quote = await fetch(`${s.url}/rest/$singleton/Pricing/quote`, {
      method: 'POST',
      body: '[2, 3]',
    })
    expect(await quote.json()).toEqual({ result: 59.9 * 3 })
    // DataStore.4dm's appInfo: { name: "car rental"; tables: OB Keys(ds) }.
    const info = await getJson(s, '$catalog/appInfo')
    expect(info.result).toMatchObject({ name: 'car rental' })
    expect((info.result as Json).tables).toContain('Rental')
    const available = await fetch(`${s.url}/rest/Car/available`, {
      method: 'POST',
      body: '["2024-06-12", "2024-06-13"]',
    })
    expect(((await available.json()) as Json).__ENTITIES).toBeDefined()
    const hello = await fetch(`${s.url}/rest/$catalog/sayHello`, {
      method: 'POST',
      body: '["Ada", "Lovelace"]',
    })
    expect(await hello.json()).toEqual({ result: 'Hello Ada Lovelace!' })
  })

  it("applies the project's roles.json", async () => {
    expect((await fetch(`${s.url}/rest/Payment`)).status).toBe(403)
  })

  it('loads the CSV data by field types: dates, times, booleans, numbers, objects, vectors, pictures', async () => {
    const agency = await getJson(s, 'Agency(1)')
    expect(agency).toMatchObject({
      opened: '!!2015-03-02!!',
      openingTime: 30_600_000,
      location: { lat: 45.76, lng: 4.86 },
    })
    // The picture is read through its own URL, as the entity gives it.
    const { uri } = (agency.logo as { __deferred: { uri: string } }).__deferred
    const logo = await fetch(`${s.url}${uri}`)
    expect([logo.status, logo.headers.get('content-type')]).toEqual([200, 'image/png'])
    const customer = await getJson(s, "Customer('3F2504E04F8911D39A0C0305E82C3301')")
    expect(customer).toMatchObject({
      vip: true,
      loyaltyPoints: 12000,
      notes: 'Prefers automatic cars,\nasks for a child seat',
    })
    expect((await getJson(s, 'CarModel(1)')).embedding).toEqual([0.12, -0.4, 0.9])
  })

  it('loads the older value kinds: Byte, BLOB, UUID, Text and the UTF-8 Alpha and Text', async () => {
    const settings = await getJson(
      s,
      'Settings?$attributes=ID,level,installID,terms,shortCode,footer',
    )
    expect(
      (settings.__ENTITIES as Json[]).map((e) =>
        pick(e, ['ID', 'level', 'installID', 'terms', 'shortCode', 'footer']),
      ),
    ).toEqual([
      {
        ID: 1,
        level: -3,
        // 4D's form of a UUID: 32 hexadecimal digits, whatever the CSV wrote.
        installID: '6F9619FF8B86D011B42D00C04FC964FF',
        terms: 'Rentals are due back by 18:00.\nA "late" return costs a day.',
        shortCode: 'CR-01',
        footer: 'Car Rental · Lyon',
      },
      // An empty cell is null, but in a text field, where it is the empty text.
      { ID: 2, level: 127, installID: null, terms: '', shortCode: '', footer: '' },
    ])
    const { uri } = ((await getJson(s, 'Settings(1)')).backup as { __deferred: { uri: string } })
      .__deferred
    const backup = await fetch(`${s.url}${uri}`)
    const pdf = readFileSync(`${RENTAL}/csv/files/brochure-clio.pdf`)
    expect(Buffer.from(await backup.arrayBuffer()).equals(pdf)).toBe(true)
  })

  it('says at start-up, one line each, what the structure holds that Entistore cannot honour', () => {
    const prefix = `entistore: ${RENTAL}: `
    // The lines said before the URL line: the 501 a test above asked for is logged after them.
    const said = s.err
      .filter((l) => l.startsWith(prefix))
      .map((l) => l.slice(prefix.length).split(':')[0])
    expect(said).toEqual([
      'keyword indexes are not built (a query scans, with the same results)',
      'composite indexes are not built (each attribute may have its own)',
      'tables without a primary key are not dataclasses (4D ORDA references only tables with one)',
      'tables in the Trash are left out',
      'tables with a composite primary key are not dataclasses (4D ORDA references only single-field keys)',
      'Subtable fields are not served (left out)',
      'Subtable relation fields are not served (left out)',
      'relation integrity "reject" is not applied (a delete neither cascades nor is refused)',
      'relation integrity "delete" is not applied (a delete neither cascades nor is refused)',
      'relations to or from a table in the Trash are left out',
      'relations of a table that is not a dataclass are left out',
      'Float is served as number (a 64-bit real',
      'triggers are not run (on save and delete, no code of the structure runs)',
      'ORDA classes of no dataclass served are left out',
      '12 files of 4D code',
    ])
    expect(s.out).toContain(
      'Functions from ' +
        `${RENTAL}` +
        ': 12 exposed (appInfo, stats, sayHello, rentalDays, priceByDay, getFirstCar, getEntitySel, Car.available, Car.book, Rental.total, Pricing.quote, Pricing.rates), 1 private (purge)',
    )
  })
})
