/**
 * The typed TypeScript API on the company demo (examples/company): `model-types.ts`, written by
 * `entistore types`, gives the datastore the model's types, so every read below has the
 * attribute's type and a misspelled name is a compile error. Run it with
 * `npx tsx --conditions=source examples/typed-api/main.ts`; `npm run typecheck` checks it.
 */
import { readFileSync } from 'node:fs'
import {
  createDatastore,
  ManualClock,
  type DataFile,
  type ModelJsonDocument,
} from '@entistore/core'
import type { Employee, Model } from './model-types.ts'

const read = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../company/${file}`, import.meta.url), 'utf8'))

// A model read from a file has plain strings where the model format has literal unions: the
// loader checks it, and the type argument says what it holds.
const ds = createDatastore<Model>(read('model.json') as ModelJsonDocument, {
  data: read('data.json') as DataFile,
  clock: new ManualClock('2024-06-01T00:00:00Z'),
})

// A typed entity can be handed around by its alias. Its attributes read as properties, as in 4D
// code (`e.lastName`), or with get('lastName'): the same value, the same type.
const describe = (e: Employee): string =>
  `${e.firstName ?? '?'} ${e.lastName ?? '?'} (${e.salary ?? 'no salary'})`

// salary is a number | null, employer an Entity of Company or null.
const tessa = ds.Employee.get(3)
const salary: number | null | undefined = tessa?.get('salary')
console.log(`Employee 3: ${tessa ? describe(tessa) : 'none'}, salary ${salary}`)
console.log(`  works for ${tessa?.employer?.name ?? 'nobody'}`)

try {
  // @ts-expect-error 'nmae' is not an attribute of Employee: it does not compile, and throws
  tessa?.get('nmae')
} catch (e) {
  console.log(`Misspelled: ${(e as Error).message}`)
}

// A query gives a selection of Employee; iterating it yields entities, never null.
const best = ds.Employee.query('salary >= :1 order by salary desc, ID', 149000)
console.log(`${best.length} employees earn 149000 or more; the first three:`)
for (const e of best.window(0, 3)) console.log(`  ${e.ID}: ${describe(e)}`)
console.log(`  their average: ${best.average('salary')}`)

// 4D's Entity members: an entity read by first() knows its selection and its neighbours, and
// toObject() gives a plain object of the attributes a filter names.
const top = best.first()
console.log(
  `  the best paid: ${JSON.stringify(top?.toObject('lastName, salary, employer.name'))}, then ${top?.next()?.lastName}`,
)

// A relation to many reads as a selection of the related dataclass; a selection's attribute is
// the collection of its values (4D's projection).
const acme = ds.dataClass('Company').getOrFail(1)
console.log(`${acme.name} employs ${acme.staff.length} people`)

// Writes take the attributes' types: a relation takes the Entity or its key.
const ada = ds.Employee.create({
  firstName: 'Ada',
  lastName: 'Lovelace',
  salary: 5000,
  employer: acme,
})
// An entity is a saved version, read-only: a change goes through a draft, whose properties set.
const draft = ada.edit()
draft.salary = 5200
const raised = draft.saveOrFail()
const active = ds.Employee.update(ada.key, { active: true })
console.log(
  `Created ${ada.key}: ${describe(raised)}, active ${active.active}, employer ${active.employerName}`,
)

// save() answers 4D's status object instead of throwing for what the data refused: a draft of a
// version saved since (ada is the first one) is refused with status 2. saveOrFail() throws.
const status = ada.edit({ salary: 1 }).save()
console.log(
  `Saving over an old version: ${status.success ? 'saved' : `${status.statusText} (${status.status})`}`,
)

// A selection keeps a member dropped after it was made: `length` counts it, iteration skips it.
const lovelaces = ds.Employee.query('lastName = :1', 'Lovelace')
ds.Employee.drop(ada.key)
console.log(`After the drop: length ${lovelaces.length}, iterated ${[...lovelaces].length}`)
