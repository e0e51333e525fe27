/**
 * @module The files of the views suite (issue 61, break 5): an application whose `Employee`
 * dataclass has a `restrict` written in a functions module the way a 4D developer writes it
 * (`Function event restrict` reading `Session`): an `admin` sees every employee, any other user the
 * employees of their own department, looked up from their user name. Two models, one with `dept`
 * indexed and one without (the restrict's query then scans the table), a data file, a users file
 * (`serve --users`) and a roles file (`serve --roles`).
 *
 * Departments are interleaved (row `ID` is in department `(ID - 1) % DEPARTMENTS`), as rows of many
 * departments are when they are entered over time: a department's rows are spread over the table.
 *
 * The files go under the checkout whose CLI serves them (`tree`), so that the functions module's
 * `import … from 'entistore'` finds that checkout's package: a module that imported another copy
 * would read `currentSession()` from a core the server does not run.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ModelJson, RolesJson } from '@entistore/core'
import { nameOf, prng } from './data.ts'

/** Departments, `D0` to `D19`: 5,000 employees each at 100k rows. */
export const DEPARTMENTS = 20

export interface User {
  readonly name: string
  readonly password: string
}

/**
 * The readers whose sessions read Employee and follow its feed, all of department D0: `ann`, or
 * with more than one, `ann1` … `annN`, each a view of its own (a view is a user and its
 * privileges: its restrict answer is its own, while the query under it is the same).
 */
export function readers(n: number): User[] {
  const name = (i: number): string => (n === 1 ? 'ann' : `ann${i + 1}`)
  return Array.from({ length: n }, (_, i) => ({ name: name(i), password: `${name(i)}-pw` }))
}

/** The prober's reader and the admin (the writer). */
export const USERS = {
  /** The prober's reader (department D1): a user of another department, reading one employee. */
  prober: { name: 'bob', password: 'bob-pw', dept: 'D1' },
  /** Writes and deletes; sees every employee. */
  admin: { name: 'root', password: 'root-pw' },
} as const

export const RESTRICT_ON = ['indexed', 'unindexed'] as const
export type RestrictOn = (typeof RESTRICT_ON)[number]

/** The department of row `ID`. */
export const deptOf = (id: number): string => `D${(id - 1) % DEPARTMENTS}`

/** The model: `dept`, what the restrict queries, indexed or not. */
export function viewsModel(on: RestrictOn): ModelJson {
  return {
    __NAME: 'views',
    dataClasses: [
      {
        name: 'Employee',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'lastName', type: 'string' },
          { name: 'dept', type: 'string', ...(on === 'indexed' ? { indexed: true } : {}) },
          { name: 'salary', type: 'number' },
          { name: 'email', type: 'string' },
        ],
        key: [{ name: 'ID' }],
      },
    ],
  }
}

/** `reader` reads and may subscribe; `admin` includes it and writes. */
export const VIEWS_ROLES: RolesJson = {
  privileges: [
    { privilege: 'reader', includes: [] },
    { privilege: 'admin', includes: ['reader'] },
  ],
  roles: [],
  permissions: {
    allowed: [
      {
        applyTo: 'ds',
        type: 'datastore',
        read: ['reader'],
        create: ['admin'],
        update: ['admin'],
        drop: ['admin'],
      },
    ],
  },
  restrictedByDefault: true,
  forceLogin: true,
}

const usersFile = (
  reading: readonly User[],
): Record<string, { password: string; privileges: string[] }> => ({
  ...Object.fromEntries(
    reading.map((u) => [u.name, { password: u.password, privileges: ['reader'] }]),
  ),
  [USERS.prober.name]: { password: USERS.prober.password, privileges: ['reader'] },
  [USERS.admin.name]: { password: USERS.admin.password, privileges: ['admin'] },
})

/**
 * The functions module: 4D's
 * ```4d
 * Function event restrict() : cs.EmployeeSelection
 *   If (Session.hasPrivilege("admin"))
 *     return This.all()
 *   End if
 *   return This.query("dept = :1"; $deptOf[Session.userName])
 * ```
 */
const functions = (
  reading: readonly User[],
): string => `// The views suite's restrict (bench/views-data.ts): an admin sees every employee, a reader
// the employees of their department.
import { currentSession } from 'entistore'

const DEPT_OF = ${JSON.stringify({ ...Object.fromEntries(reading.map((u) => [u.name, 'D0'])), [USERS.prober.name]: USERS.prober.dept })}

export default {
  dataClasses: {
    Employee: {
      restrict() {
        const session = currentSession()
        // Code of the server itself (no session): everything.
        if (session === null) return null
        if (session.hasPrivilege('admin')) return this.all()
        return this.query('dept = :1', DEPT_OF[session.userName] ?? '')
      },
    },
  },
}
`

export interface ViewsFiles {
  readonly model: string
  readonly data: string
  readonly users: string
  readonly roles: string
  readonly functions: string
  readonly dataBytes: number
}

/** `rows` employees: `ID` 1 to `rows`, their department interleaved (module note). */
function employees(rows: number): string {
  const r = prng(61)
  const parts: string[] = []
  for (let i = 0; i < rows; i++) {
    const ID = i + 1
    parts.push(
      JSON.stringify({
        ID,
        lastName: nameOf(i),
        dept: deptOf(ID),
        salary: 20_000 + Math.floor(r() * 180_000),
        email: `employee${ID}@example.com`,
      }),
    )
  }
  return `{"Employee":[\n${parts.join(',\n')}\n]}`
}

/**
 * The suite's files under `tree` for `reading` (the data file written once per size, then
 * reused).
 */
export function viewsFiles(
  tree: string,
  rows: number,
  on: RestrictOn,
  reading: readonly User[],
): ViewsFiles {
  const dir = join(tree, 'node_modules/.cache/entistore-bench/views')
  mkdirSync(dir, { recursive: true })
  const file = (name: string, text: string): string => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }
  const data = join(dir, `employees-${rows}.json`)
  if (!existsSync(data)) writeFileSync(data, employees(rows))
  return {
    model: file(`model-${on}.json`, JSON.stringify(viewsModel(on), null, 2)),
    data,
    users: file('users.json', JSON.stringify(usersFile(reading), null, 2)),
    roles: file('roles.json', JSON.stringify(VIEWS_ROLES, null, 2)),
    functions: file('functions.mjs', functions(reading)),
    dataBytes: statSync(data).size,
  }
}
