/**
 * @module The 4D language suite's ORDA groups (issue 62's goal: ≤ 1.2× the same logic through
 * core's TypeScript API): 4D code on the ORDA bridge (`ordaBridge(ds).ds`) against TypeScript on
 * the same datastore, `Employee` (`salary` indexed, an `employer`) of 50 `Company`:
 *
 * - for each: a query with a placeholder, then `For each` over its entities (half the employees)
 *   reading three attributes and a relation;
 * - aggregates: the same query's `sum("salary")`, and `orderBy("salary desc").first().ID`;
 * - save: `saves` entities changed and saved one by one (runs last: it changes the salaries).
 */
import { createDatastore, type Datastore, type Entity } from '@entistore/core'
import type { Case } from './timing.ts'
import type { Group } from './suites/query.bench.ts'
import { fourD, type FourD } from './4d-code.ts'

export const ORDA_TARGET = { max: 1.2, label: '≤1.2× TS on core' }
const COMPANIES = 50

export function ordaDatastore(employees: number): Datastore {
  return createDatastore(
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
        Company: Array.from({ length: COMPANIES }, (_, i) => ({ ID: i + 1, name: `C${i}` })),
        Employee: Array.from({ length: employees }, (_, i) => ({
          ID: i + 1,
          lastName: `E${i}`,
          salary: (i * 7) % 1000,
          employer: (i % COMPANIES) + 1,
        })),
      },
    },
  ) as unknown as Datastore
}

const MIN = 500

const group = (
  id: string,
  title: string,
  notes: string[],
  ts: () => number,
  fourDRun: () => number,
): Group => {
  const cases: Case[] = [
    { kind: 'baseline', impl: 'TypeScript on core', run: ts },
    { kind: 'entistore', impl: '4D on the bridge', run: fourDRun, targeted: true },
  ]
  return { id, title, target: ORDA_TARGET, notes, cases }
}

/** The ORDA groups on a datastore of `employees`. */
export function ordaGroups(fd: FourD, employees: number, saves: number): Group[] {
  const ds = ordaDatastore(employees)
  const runtime = { ds: fd.ordaBridge(ds).ds }
  const Employee = ds.dataClass('Employee')
  const matching = `${Math.ceil(employees / 2).toLocaleString('en')} of ${employees.toLocaleString('en')} employees`

  const forEach = (): number => {
    let total = 0
    for (const e of Employee.query('salary >= :1', MIN)) {
      const employer = e.get('employer') as Entity | null
      total += (e.get('salary') as number) + String(e.get('lastName')).length
      if (employer !== null) total += String(employer.get('name')).length
    }
    return total
  }
  const forEach4D = fourD(
    fd,
    `#DECLARE($min : Real) -> $total : Real
var $e; $employer : Object
For each ($e; ds.Employee.query("salary >= :1"; $min))
  $employer:=$e.employer
  $total:=$total+$e.salary+Length($e.lastName)
  If ($employer#Null)
    $total:=$total+Length($employer.name)
  End if
End for each`,
    () => [MIN],
    { runtime },
  )

  const aggregates = (): number => {
    const s = Employee.query('salary >= :1', MIN)
    return s.sum('salary') + (s.orderBy('salary desc').first()!.get('ID') as number)
  }
  const aggregates4D = fourD(
    fd,
    `#DECLARE($min : Real) -> $r : Real
var $s : Object
$s:=ds.Employee.query("salary >= :1"; $min)
$r:=$s.sum("salary")+$s.orderBy("salary desc").first().ID`,
    () => [MIN],
    { runtime },
  )

  const save = (): number => {
    let saved = 0
    for (const e of Employee.query('ID <= :1', saves)) {
      const draft = e.edit()
      draft.set('salary', (e.get('salary') as number) + 1)
      if (draft.save().success) saved++
    }
    return saved
  }
  const save4D = fourD(
    fd,
    `#DECLARE($count : Integer) -> $saved : Integer
var $e : Object
For each ($e; ds.Employee.query("ID <= :1"; $count))
  $e.salary:=$e.salary+1
  If ($e.save().success)
    $saved:=$saved+1
  End if
End for each`,
    () => [saves],
    { runtime },
  )

  return [
    group(
      '4d-orda-foreach',
      `query, then For each over ${matching} reading three attributes and a relation`,
      ['check: the sum of the salaries, the names’ lengths and the employers’ names’ lengths'],
      forEach,
      forEach4D,
    ),
    group(
      '4d-orda-aggregates',
      `query, sum("salary") and orderBy("salary desc").first().ID over ${matching}`,
      ['check: the sum plus the first ID'],
      aggregates,
      aggregates4D,
    ),
    group(
      '4d-orda-save',
      `${saves.toLocaleString('en')} entities changed and saved one by one (For each, save())`,
      ['check: the saves that succeeded', 'runs last: it changes the salaries the others read'],
      save,
      save4D,
    ),
  ]
}
