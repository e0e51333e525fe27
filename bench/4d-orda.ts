/**
 * ORDA-heavy 4D code on the bridge against the same logic written in TypeScript on core, in one
 * process (issue 62's goal: within 1.2×): a query with a placeholder, then `For each` over the
 * selection reading two attributes and a relation, on 20,000 employees of 50 companies.
 * Interleaved runs, medians of 7 after 3 warm-ups. Run: `npx tsx --conditions=source bench/4d-orda.ts`.
 */
import { compileMethod } from '../packages/4d/src/compile/index.js'
import { ordaBridge } from '../packages/4d/src/orda/bridge.js'
import { Runtime } from '../packages/4d/src/runtime/context/runtime.js'
import { budgetOf } from '../packages/4d/src/runtime/context/budget.js'
import { createDatastore, systemClock, type Datastore } from '../packages/core/src/index.js'

const N = 20_000
const REPS = 7
const WARMUP = 3

const ds = createDatastore(
  {
    __NAME: 'bench',
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
          { name: 'ID', type: 'long' },
          { name: 'lastName', type: 'string' },
          { name: 'salary', type: 'number', indexed: true },
          { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        ],
      },
    ],
  },
  {
    data: {
      Company: Array.from({ length: 50 }, (_, i) => ({ ID: i + 1, name: `C${i}` })),
      Employee: Array.from({ length: N }, (_, i) => ({
        ID: i + 1,
        lastName: `E${i}`,
        salary: i % 1000,
        employer: (i % 50) + 1,
      })),
    },
  },
) as unknown as Datastore

function plain(min: number): number {
  let total = 0
  for (const e of ds.dataClass('Employee').query('salary >= :1', min)) {
    const employer = e.get('employer') as { get(n: string): unknown } | null
    total += (e.get('salary') as number) + String(e.get('lastName')).length
    if (employer !== null) total += String(employer.get('name')).length
  }
  return total
}

const text = `#DECLARE($min : Real) -> $total : Real
var $e; $employer : Object
For each ($e; ds.Employee.query("salary >= :1"; $min))
  $employer:=$e.employer
  $total:=$total+$e.salary+Length($e.lastName)
  If ($employer#Null)
    $total:=$total+Length($employer.name)
  End if
End for each`
const method = compileMethod(text)
const bridge = ordaBridge(ds)
const fourD = (min: number): number =>
  method.call(new Runtime({ ds: bridge.ds, budget: budgetOf(60_000, systemClock) }), [
    min,
  ]) as number

const cases = [
  { name: 'TypeScript on core', run: () => plain(500) },
  { name: '4D on the bridge', run: () => fourD(500) },
]
const expected = plain(500)
const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]))
for (let rep = 0; rep < WARMUP + REPS; rep++)
  for (const c of cases) {
    const start = performance.now()
    const result = c.run()
    const ms = performance.now() - start
    if (result !== expected) throw new Error(`${c.name}: ${result}, expected ${expected}`)
    if (rep >= WARMUP) samples.get(c.name)!.push(ms)
  }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const base = median(samples.get(cases[0]!.name)!)
console.log(`${N.toLocaleString('en')} employees, median of ${REPS}, Node ${process.version}`)
for (const c of cases) {
  const m = median(samples.get(c.name)!)
  console.log(`${c.name.padEnd(22)} ${m.toFixed(1).padStart(7)} ms  ${(m / base).toFixed(2)}×`)
}
