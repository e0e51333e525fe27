/**
 * @module The 4D language suite's computed attribute group (issue 63's goal: within 1.5× the same
 * getter in TypeScript): `Employee.label` of `rows` employees read for the whole selection
 * (`all().toCollection("label")` within a query budget, what a REST read of the attribute does
 * for each entity of a request), its getter written in 4D (`Function get label` of an
 * EmployeeEntity class, run by the project's runner as served: one running context for the
 * request's reads) on one datastore and in TypeScript (a functions module's `computed`) on another
 * of the same data.
 */
import { createDatastore, type Datastore, type FunctionsDef, type ModelJson } from '@entistore/core'
import type { Group } from './suites/query.bench.ts'
import type { FourD } from './4d-code.ts'

export const COMPUTED_TARGET = { max: 1.5, label: '≤1.5× TS' }

const ENTITY_CLASS = `Class extends Entity

exposed Function get label($event : Object) -> $result : Text
\t$result:=This.lastName+" ("+String(This.salary)+")"
`

const MODEL: ModelJson = {
  __NAME: 'bench',
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'long' },
        { name: 'label', kind: 'calculated', type: 'string' },
      ],
    },
  ],
}

function datastore(rows: number, functions: FunctionsDef<any>): Datastore {
  return createDatastore(MODEL, {
    functions,
    data: {
      Employee: Array.from({ length: rows }, (_, i) => ({
        ID: i + 1,
        lastName: `E${i}`,
        salary: (i * 7) % 1000,
      })),
    },
  }) as unknown as Datastore
}

/**
 * The labels' total length (both getters give the same texts), read within a query budget as the
 * REST interface reads a request's entities.
 */
const read = (ds: Datastore) => (): number =>
  ds.withBudget(60_000, () => {
    let total = 0
    for (const row of ds.dataClass('Employee').all().toCollection('label'))
      total += String(row['label']).length
    return total
  })

/** The group on `rows` employees. */
export function computedGroup(fd: FourD, rows: number): Group {
  const ts = datastore(rows, {
    dataClasses: {
      Employee: {
        computed: {
          label: { get: (e) => `${String(e.get('lastName'))} (${String(e.get('salary'))})` },
        },
      },
    },
  })
  const project = fd.compileProject(
    [{ path: 'Sources/Classes/EmployeeEntity.4dm', kind: 'class', text: ENTITY_CLASS }],
    { dataClasses: ['Employee'] },
  )
  const fourD = datastore(
    rows,
    fd.projectFunctions(project, { dataClasses: new Set(['Employee']) }),
  )
  return {
    id: '4d-computed-read',
    title: `computed attribute read, ${rows.toLocaleString('en')} rows (all().toCollection("label"))`,
    target: COMPUTED_TARGET,
    notes: [
      'baseline: the getter in TypeScript (a functions module’s computed)',
      '4D: Function get label of EmployeeEntity.4dm, run by the project’s runner as served',
      'both read within a query budget, as a REST request does',
      'check: the labels’ total length',
    ],
    cases: [
      { kind: 'baseline', impl: 'TypeScript getter', run: read(ts) },
      { kind: 'entistore', impl: '4D getter (as served)', run: read(fourD), targeted: true },
    ],
  }
}
