/**
 * Issue 46: the application a hostile 4D developer attacks, as a real 4D 20/21 project would hold
 * it. A roles file in 4D's format (privileges `reader`, `editor` ⊃ `reader`, `pricing`, `creator`,
 * `updater`, `admin`; a role `Manager`; `Employee.salary` readable by `pricing` only, `ssn` by
 * `admin` only; a `Secret` dataclass for `admin`; a promoted function and one without;
 * `restrictedByDefault`), a users table, a `restrict` event per company on Company, Employee and
 * Project, entity events, and class functions that do what an application's code does: query,
 * navigate, save, drop, take entity parameters, nest selections in their replies.
 *
 * Every value a session must never see is a canary: a salary is `7_1xx_xxx.25`, an ssn
 * `SSN-…`, a secret `SECRET-…`, a hidden company's name `HiddenCo-…` (hidden from a user of
 * another company by `restrict`), so that a test can look for them in any reply, header or error.
 *
 * Shared by the REST tests of issue 46 and its property test: change it with care.
 */
import {
  createDatastore,
  currentCall,
  defineFunctions,
  ManualClock,
  sessionUser,
  type AuthUser,
  type DataFile,
  type Datastore,
  type ModelJson,
  type RolesJson,
  type Session,
  type SessionStoreOptions,
} from '@entistore/core'
import { createRestHandler, type RestHandler, type RestHandlerOptions } from '../handler.js'

export const HOSTILE_MODEL: ModelJson = {
  __NAME: 'hostile',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'city', type: 'string' },
        { name: 'revenues', type: 'number' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
        { name: 'projects', kind: 'relatedEntities', path: 'company' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'firstName', type: 'string' },
        { name: 'lastName', type: 'string', indexed: true },
        { name: 'salary', type: 'number', indexed: true },
        { name: 'ssn', type: 'string' },
        { name: 'photo', type: 'image' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'managerID', type: 'long' },
        { name: 'manager', kind: 'relatedEntity', path: 'Employee', foreignKey: 'managerID' },
        { name: 'reports', kind: 'relatedEntities', path: 'manager' },
        { name: 'employerName', kind: 'alias', path: 'employer.name' },
        // An alias of an attribute only `pricing` reads: a write through it must tell nothing.
        { name: 'managerSalary', kind: 'alias', path: 'manager.salary' },
        // Computed from salary: its code runs as the caller.
        { name: 'yearly', kind: 'calculated', type: 'number' },
        // Computed from salary too, but readable by anyone: its code still reads as the caller.
        { name: 'band', kind: 'calculated', type: 'string' },
      ],
    },
    {
      name: 'Project',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'title', type: 'string' },
        { name: 'budget', type: 'number' },
        { name: 'companyID', type: 'long' },
        { name: 'company', kind: 'relatedEntity', path: 'Company', foreignKey: 'companyID' },
      ],
    },
    {
      name: 'Secret',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'code', type: 'string' },
        { name: 'text', type: 'string' },
      ],
    },
  ],
}

/** Companies 1 and 2 (each user sees one, by `restrict`), 3 (no user's: only `admin` sees it). */
export const COMPANIES = [1, 2, 3] as const
/** Employees per company. */
export const STAFF = 10

/** The salary of employee `id`: a canary no other number in a reply can equal. */
export const salaryOf = (id: number): number => 7_100_000 + id * 1_013 + 0.25
export const ssnOf = (id: number): string => `SSN-${String(id).padStart(3, '0')}-77-${1000 + id}`
export const secretOf = (id: number): string => `SECRET-${id}-${(id * 7919).toString(36)}`
/** A company's name: `Co-1` is seen by company 1's users, `HiddenCo-…` by nobody but admin. */
export const companyName = (id: number): string => (id === 1 ? 'Co-1' : `HiddenCo-${id}`)

export function hostileData(): DataFile {
  const Employee: Record<string, unknown>[] = []
  for (const company of COMPANIES)
    for (let i = 0; i < STAFF; i++) {
      const id = (company - 1) * STAFF + i + 1
      Employee.push({
        ID: id,
        firstName: `First${id}`,
        lastName: `Last${id}`,
        salary: salaryOf(id),
        ssn: ssnOf(id),
        employerID: company,
        // The first of each company manages the others.
        managerID: i === 0 ? null : (company - 1) * STAFF + 1,
      })
    }
  // Employee 12 (company 2) is managed across companies by employee 1: a relation that leads
  // from a hidden entity to a visible one, and the reverse.
  Employee[11]!.managerID = 1
  Employee[2]!.managerID = 12
  return {
    Company: COMPANIES.map((id) => ({
      ID: id,
      name: companyName(id),
      city: id === 1 ? 'Lyon' : `HiddenCity-${id}`,
      revenues: 1_000_000 * id,
    })),
    Employee,
    Project: COMPANIES.flatMap((company) =>
      [1, 2].map((n) => ({
        ID: (company - 1) * 2 + n,
        title: company === 1 ? `Project-${n}` : `HiddenProject-${company}-${n}`,
        budget: 10_000 * company + n,
        companyID: company,
      })),
    ),
    Secret: [1, 2, 3].map((id) => ({ ID: id, code: `S${id}`, text: secretOf(id) })),
  }
}

/** In 4D's format, as 4D 21 writes it (key order and tabs aside). */
export const HOSTILE_ROLES: RolesJson = {
  privileges: [
    { privilege: 'reader', includes: [] },
    { privilege: 'editor', includes: ['reader'] },
    { privilege: 'pricing', includes: [] },
    { privilege: 'creator', includes: [] },
    { privilege: 'updater', includes: [] },
    { privilege: 'admin', includes: ['editor', 'pricing'] },
  ],
  roles: [{ role: 'Manager', privileges: ['editor', 'pricing'] }],
  permissions: {
    allowed: [
      {
        applyTo: 'ds',
        type: 'datastore',
        read: ['reader'],
        create: ['editor'],
        update: ['editor'],
        drop: ['editor'],
        execute: ['reader'],
      },
      { applyTo: 'Employee.salary', type: 'attribute', read: ['pricing'] },
      { applyTo: 'Employee.ssn', type: 'attribute', read: ['admin'], update: ['admin'] },
      {
        applyTo: 'Secret',
        type: 'dataclass',
        read: ['admin'],
        create: ['admin'],
        update: ['admin'],
        drop: ['admin'],
      },
      {
        applyTo: 'Project',
        type: 'dataclass',
        create: ['creator', 'editor'],
        update: ['updater', 'editor'],
      },
      // Computed from salary: readable by whoever reads salary.
      { applyTo: 'Employee.yearly', type: 'attribute', read: ['pricing'] },
      { applyTo: 'Employee.payroll', type: 'method', execute: ['reader'], promote: ['pricing'] },
      {
        applyTo: 'Employee.payrollLater',
        type: 'method',
        execute: ['reader'],
        promote: ['pricing'],
      },
      { applyTo: 'ds.authentify', type: 'method', execute: ['guest'] },
    ],
  },
  restrictedByDefault: true,
  forceLogin: false,
}

/** A user of the users table: who they are, their privileges, the company they work for. */
export interface HostileUser extends AuthUser {
  readonly password: string
  /** The company whose entities `restrict` lets them see; undefined: every company (admin). */
  readonly company: number | undefined
}

/** The users, by name (a users file's entries, with the company `restrict` reads). */
export const HOSTILE_USERS: Readonly<Record<string, HostileUser>> = {
  // Reads company 1, no salaries.
  ann: { name: 'ann', password: 'ann', privileges: ['reader'], company: 1 },
  // The same rights in company 2: the other tenant.
  eve: { name: 'eve', password: 'eve', privileges: ['reader'], company: 2 },
  // Reads and writes company 1, salaries included.
  paula: { name: 'paula', password: 'paula', roles: ['Manager'], company: 1 },
  // Creates Projects and nothing else: not even reads.
  carl: { name: 'carl', password: 'carl', privileges: ['creator'], company: 1 },
  // Updates Projects and reads.
  uma: { name: 'uma', password: 'uma', privileges: ['updater', 'reader'], company: 1 },
  // Reads and writes company 1 without salaries: may write an Employee, not read its salary.
  ed: { name: 'ed', password: 'ed', privileges: ['editor'], company: 1 },
  // Everything, every company.
  root: { name: 'root', password: 'root', privileges: ['admin'], company: undefined },
}

/**
 * The company `restrict` lets `session` see: undefined for all (admin, and code outside any request,
 * which has no session), null for none (a guest).
 */
export function companyOf(session: Session | undefined): number | null | undefined {
  if (session === undefined) return undefined
  const user = sessionUser(session)
  if (!user) return null
  const known = HOSTILE_USERS[user.name]
  return known ? known.company : null
}

/** What the entity events saw: `event dataclass key`. */
export type EventLog = string[]

export function hostileFunctions(log: EventLog = []) {
  return defineFunctions({
    dataStore: {
      // 4D's login function: a guest calls it with a name and a password.
      authentify: {
        exposed: true,
        params: ['object'],
        call(who: { name?: unknown; password?: unknown }) {
          const user = typeof who?.name === 'string' ? HOSTILE_USERS[who.name] : undefined
          if (!user || user.password !== who.password) return false
          currentCall()!.setPrivileges({
            privileges: [...(user.privileges ?? [])],
            roles: [...(user.roles ?? [])],
            userName: user.name,
          })
          return true
        },
      },
      // A reply that nests a selection of a dataclass the caller may not read.
      report: {
        exposed: true,
        call() {
          return { secrets: this.dataClass('Secret').all(), at: 'report' }
        },
      },
    },
    dataClasses: {
      Company: {
        restrict({ session }) {
          const company = companyOf(session)
          if (company === undefined) return null
          return company === null ? this.query('ID = -1') : this.query('ID = :1', company)
        },
      },
      Employee: {
        restrict({ session }) {
          const company = companyOf(session)
          if (company === undefined) return null
          return company === null ? this.query('ID = -1') : this.query('employerID = :1', company)
        },
        computed: {
          yearly: {
            get() {
              const salary = this.get('salary') as number | null
              return salary === null ? null : salary * 12
            },
          },
          band: {
            get() {
              return (this.get('salary') as number) > 7_110_000 ? 'high' : 'low'
            },
          },
        },
        events: {
          validateSave() {
            // Only a salary being written: reading the stored one would need `pricing`.
            const salary = 'salary' in this.changes ? (this.get('salary') as number | null) : null
            if (salary !== null && salary < 0)
              return { errCode: 4601, message: 'A salary is not negative', seriousError: true }
          },
          afterSave() {
            log.push(`afterSave Employee ${String(this.getKey())}`)
          },
        },
        dataClass: {
          // Promoted: reads salaries for a reader, and says the total.
          payroll: {
            exposed: true,
            call() {
              return this.all().sum('salary')
            },
          },
          // Promoted, and async: the promotion holds after its await, and only for it.
          payrollLater: {
            exposed: true,
            async call() {
              await new Promise((resolve) => setImmediate(resolve))
              return this.all().sum('salary')
            },
          },
          // Not promoted: the same code must fail for a reader.
          payrollUnpromoted: {
            exposed: true,
            call() {
              return this.all().sum('salary')
            },
          },
          // Not promoted: reads a dataclass only admin reads.
          leakSecrets: {
            exposed: true,
            call() {
              return this.datastore
                .dataClass('Secret')
                .all()
                .toArray()
                .map((s) => s.get('text'))
            },
          },
          // Saves an entity it is given: the caller's own writes, checked as theirs.
          saveGiven: {
            exposed: true,
            params: [{ entity: 'Employee' }],
            call(employee: { saveOrFail(): unknown }) {
              employee.saveOrFail()
              return true
            },
          },
          // Creates an employee of `company`.
          hire: {
            exposed: true,
            params: ['number', 'string'],
            call(company: number, lastName: string) {
              return this.create({ lastName, employer: company })
            },
          },
          // Navigates from a visible entity to whatever its relations lead to.
          managersOf: {
            exposed: true,
            params: ['number'],
            call(id: number) {
              const e = this.get(id)
              return e ? e.get('reports') : null
            },
          },
        },
        entitySelection: {
          totalSalary: {
            exposed: true,
            call() {
              return this.sum('salary')
            },
          },
        },
        entity: {
          giveRaise: {
            exposed: true,
            params: ['number'],
            call(amount: number) {
              return this.edit({ salary: ((this.get('salary') as number | null) ?? 0) + amount })
                .saveOrFail()
                .get('ID')
            },
          },
        },
      },
      Project: {
        events: {
          // Reads a dataclass only admin reads: as the caller, like any code of a request.
          validateSave() {
            if (this.get('title') === 'peek')
              return {
                errCode: 4602,
                message: `${this.dataClass.datastore.dataClass('Secret').all().length} secrets`,
              }
          },
        },
        restrict({ session }) {
          const company = companyOf(session)
          if (company === undefined) return null
          return company === null ? this.query('ID = -1') : this.query('companyID = :1', company)
        },
      },
    },
  })
}

export interface HostileApp {
  readonly ds: Datastore
  readonly rest: RestHandler
  readonly clock: ManualClock
  /** What the entity events saw. */
  readonly log: EventLog
}

/**
 * The application, served by a REST handler that authenticates against `HOSTILE_USERS`; `sessions`
 * are the datastore's session options (its defaults when not given).
 */
export function hostileApp(
  options: RestHandlerOptions = {},
  sessions: SessionStoreOptions = {},
): HostileApp {
  const clock = new ManualClock(Date.UTC(2026, 10, 25))
  const log: EventLog = []
  const ds = createDatastore(HOSTILE_MODEL, {
    data: hostileData(),
    clock,
    functions: hostileFunctions(log),
    roles: HOSTILE_ROLES,
    sessions,
  })
  return { ds, rest: hostileRest(ds, options), clock, log }
}

/** The REST handler of the application over `ds`: it authenticates against `HOSTILE_USERS`. */
export function hostileRest(ds: Datastore, options: RestHandlerOptions = {}): RestHandler {
  return createRestHandler(ds, {
    authenticate: ({ user, password }) => {
      const known = HOSTILE_USERS[user]
      if (!known || known.password !== password) return null
      const { password: _, company: __, ...rest } = known
      return rest
    },
    loginThrottle: false,
    ...options,
  })
}

/** What a request answered: status, headers, the body's text and its JSON (if it is JSON). */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: any
  /** The first error's code, if the body holds an `__ERROR`. */
  readonly errCode: number | undefined
}

/** A client that keeps its session cookie, as 4D's clients do, logged in as `user` if given. */
export interface HostileClient {
  (
    path: string,
    body?: unknown,
    init?: { method?: string; headers?: Record<string, string> },
  ): Promise<Answer>
  /** The session cookie sent with each request (`4DSID_hostile=…`), once there is one. */
  readonly cookie: () => string | undefined
  /** Logs in as `name` through `$directory/login`. */
  readonly login: (name: string) => Promise<Answer>
}

export function hostileClient(rest: RestHandler): HostileClient {
  let cookie: string | undefined
  const send = async (
    path: string,
    body?: unknown,
    init: { method?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const res = await rest.request(path, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        'content-type': 'application/json',
        ...(cookie ? { cookie } : {}),
        ...init.headers,
      },
      body:
        body === undefined ? undefined : body instanceof Uint8Array ? body : JSON.stringify(body),
    })
    const set = res.headers.get('set-cookie')?.split(';')[0]
    if (set) cookie = set.endsWith('=') ? undefined : set
    const text = await res.text()
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const errCode = json?.__ERROR?.[0]?.errCode as number | undefined
    return { status: res.status, headers: res.headers, text, json, errCode }
  }
  const client = send as HostileClient
  Object.assign(client, {
    cookie: () => cookie,
    login: (name: string) =>
      send(
        '/rest/$directory/login',
        {},
        {
          method: 'POST',
          headers: {
            'username-4D': name,
            'password-4D': HOSTILE_USERS[name]?.password ?? 'wrong',
          },
        },
      ),
  })
  return client
}

/** A client logged in as `name` (a guest without one). */
export async function loggedIn(rest: RestHandler, name?: string): Promise<HostileClient> {
  const client = hostileClient(rest)
  if (name !== undefined) {
    const answer = await client.login(name)
    if (answer.status !== 200) throw new Error(`login of ${name}: ${answer.status} ${answer.text}`)
  }
  return client
}

/**
 * The canaries in `text` that `name` may not see: salaries without `pricing`, ssns without
 * `admin`, secrets without `admin`, and names of companies their `restrict` hides.
 */
export function leakedCanaries(text: string, name: string | undefined): string[] {
  const user = name === undefined ? undefined : HOSTILE_USERS[name]
  const privileges = new Set<string>()
  const add = (p: string): void => {
    if (privileges.has(p)) return
    privileges.add(p)
    for (const i of HOSTILE_ROLES.privileges.find((x) => x.privilege === p)?.includes ?? []) add(i)
  }
  for (const p of user?.privileges ?? []) add(p)
  for (const r of user?.roles ?? [])
    for (const p of HOSTILE_ROLES.roles?.find((x) => x.role === r)?.privileges ?? []) add(p)
  const found: string[] = []
  const look = (canary: string): void => {
    if (text.includes(canary)) found.push(canary)
  }
  const employees = COMPANIES.length * STAFF
  for (let id = 1; id <= employees; id++) {
    if (!privileges.has('pricing')) {
      look(String(salaryOf(id)))
      look(String(salaryOf(id) * 12))
    }
    if (!privileges.has('admin')) look(ssnOf(id))
  }
  if (!privileges.has('admin')) for (const id of [1, 2, 3]) look(secretOf(id))
  const company = user ? user.company : null
  for (const id of COMPANIES)
    if (company !== undefined && company !== id) {
      look(companyName(id) === 'Co-1' ? '"Co-1"' : companyName(id))
      if (id !== 1) look(`HiddenCity-${id}`)
    }
  return found
}
