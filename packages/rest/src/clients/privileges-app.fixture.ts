/**
 * Issue 46: the small application the generated roles files protect (privileges.prop.test.ts).
 *
 * Three dataclasses with relations both ways (Company.staff ↔ Employee.employer, Company.projects ↔
 * Project.company), an alias across each relation (Employee.employerName, Project.companyCity), a
 * computed attribute (Employee.yearly), a picture (Employee.photo), entity events (a Project's
 * constructor fills `note`; a validateSave refuses some names), a `restrict` per user and per
 * dataclass given by the test, and class functions of every kind that read, query, navigate and
 * save, one of them returning a plain object that nests a selection.
 *
 * Every stored value is a canary that names its owner, so that its appearance anywhere in a reply
 * says whose value leaked: strings `c~Employee.ssn~3`, numbers from an injective formula with a
 * fractional part (`120_030_000.25` is Employee 3's salary) that no key, stamp, count or time can
 * equal, pictures whose bytes end with their canary. Values written by the test are fresh
 * canaries of the same forms (`c~Employee.name~w7`, or a number of version 1 and up).
 */
import {
  createDatastore,
  defineFunctions,
  ManualClock,
  sessionUser,
  type ComputedAttributeFunctions,
  type DataClassFunctionDefs,
  type DataFile,
  type Datastore,
  type DatastoreOptions,
  type FunctionsDef,
  type ModelJson,
  type RolesJson,
} from '@entistore/core'
import { createRestHandler, type RestHandler } from '../handler.js'

export const DATACLASSES = ['Company', 'Employee', 'Project'] as const
export type DcName = (typeof DATACLASSES)[number]

export const PRIV_MODEL: ModelJson = {
  __NAME: 'priv',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'city', type: 'string' },
        { name: 'revenue', type: 'number' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
        { name: 'projects', kind: 'relatedEntities', path: 'company' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'salary', type: 'number', indexed: true },
        { name: 'ssn', type: 'string' },
        { name: 'photo', type: 'image' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'employerName', kind: 'alias', path: 'employer.name' },
        { name: 'yearly', kind: 'calculated', type: 'number' },
      ],
    },
    {
      name: 'Project',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'title', type: 'string' },
        { name: 'budget', type: 'number' },
        { name: 'note', type: 'string' },
        { name: 'company', kind: 'relatedEntity', path: 'Company' },
        { name: 'companyCity', kind: 'alias', path: 'company.city' },
      ],
    },
  ],
}

/** What an attribute is, for the decision and the walk of replies. */
export interface AttrInfo {
  readonly kind: 'storage' | 'relatedEntity' | 'relatedEntities' | 'alias' | 'calculated'
  readonly type?: 'string' | 'number' | 'image' | 'long'
  /** A relation's dataclass. */
  readonly target?: DcName
  /** An alias's path. */
  readonly path?: readonly string[]
}

export const ATTRS: Readonly<Record<DcName, Readonly<Record<string, AttrInfo>>>> = {
  Company: {
    ID: { kind: 'storage', type: 'long' },
    name: { kind: 'storage', type: 'string' },
    city: { kind: 'storage', type: 'string' },
    revenue: { kind: 'storage', type: 'number' },
    staff: { kind: 'relatedEntities', target: 'Employee' },
    projects: { kind: 'relatedEntities', target: 'Project' },
  },
  Employee: {
    ID: { kind: 'storage', type: 'long' },
    name: { kind: 'storage', type: 'string' },
    salary: { kind: 'storage', type: 'number' },
    ssn: { kind: 'storage', type: 'string' },
    photo: { kind: 'storage', type: 'image' },
    employer: { kind: 'relatedEntity', target: 'Company' },
    employerName: { kind: 'alias', path: ['employer', 'name'] },
    yearly: { kind: 'calculated', type: 'number' },
  },
  Project: {
    ID: { kind: 'storage', type: 'long' },
    title: { kind: 'storage', type: 'string' },
    budget: { kind: 'storage', type: 'number' },
    note: { kind: 'storage', type: 'string' },
    company: { kind: 'relatedEntity', target: 'Company' },
    companyCity: { kind: 'alias', path: ['company', 'city'] },
  },
}

/** The inverse of each to-many relation: Company.staff is Employee.employer. */
export const INVERSE: Readonly<Record<string, string>> = {
  'Company.staff': 'employer',
  'Company.projects': 'company',
}

/** The scalar attributes stored (and so canaries), per dataclass, key aside. */
export const STORED: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['name', 'city', 'revenue'],
  Employee: ['name', 'salary', 'ssn', 'photo'],
  Project: ['title', 'budget', 'note'],
}

/** The keys the data file holds. */
export const INITIAL_KEYS: Readonly<Record<DcName, readonly number[]>> = {
  Company: [1, 2, 3],
  Employee: [1, 2, 3, 4, 5, 6],
  Project: [1, 2, 3, 4],
}

// ---- canaries

const ATTR_INDEX: Readonly<Record<string, number>> = {
  'Company.revenue': 1,
  'Employee.salary': 2,
  'Project.budget': 3,
}

/**
 * The number stored in `dc.attr` of entity `key` at `version` (0: the data file's; a write's
 * counter after): (10 + a)·10⁷ + key·10⁴ + version·10 + 0.25, a the attribute's index, the key
 * and the version below 1,000: no two canaries, and no key, stamp, count or time, are equal, and
 * the fraction survives JSON as it is.
 */
export function numberCanary(dc: DcName, attr: string, key: number, version = 0): number {
  const a = ATTR_INDEX[`${dc}.${attr}`]
  if (a === undefined) throw new Error(`no number canary for ${dc}.${attr}`)
  return (10 + a) * 10_000_000 + key * 10_000 + version * 10 + 0.25
}

/** Employee.yearly, computed: 12 salaries and a half, a canary of its own. */
export const yearlyOf = (salary: number | null): number | null =>
  salary === null ? null : salary * 12 + 0.5

export const stringCanary = (dc: DcName, attr: string, key: number | string): string =>
  `c~${dc}.${attr}~${key}`

/** Finds every string canary in a text (the regular expression takes the whole token). */
export const STRING_CANARY = /c~[A-Za-z]+\.[A-Za-z]+~[A-Za-z0-9]+/g
/** Finds every number in a text, whole: a canary is found as a token, never inside another. */
export const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g

// A 1×1 PNG: its type is read from its first bytes; the canary follows its end.
const PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  ),
  (c) => c.charCodeAt(0),
)

/** A picture whose bytes carry `canary` after the PNG's end. */
export function pictureWith(canary: string): Uint8Array {
  const tail = new TextEncoder().encode(canary)
  const out = new Uint8Array(PNG.length + tail.length)
  out.set(PNG)
  out.set(tail, PNG.length)
  return out
}

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes))

/** The data file: every value a canary. */
export function privData(): DataFile {
  return {
    Company: INITIAL_KEYS.Company.map((k) => ({
      ID: k,
      name: stringCanary('Company', 'name', k),
      city: stringCanary('Company', 'city', k),
      revenue: numberCanary('Company', 'revenue', k),
    })),
    Employee: INITIAL_KEYS.Employee.map((k) => ({
      ID: k,
      name: stringCanary('Employee', 'name', k),
      salary: numberCanary('Employee', 'salary', k),
      ssn: stringCanary('Employee', 'ssn', k),
      // Odd keys have a picture, even keys none.
      photo:
        k % 2 === 1
          ? {
              $base64: base64(pictureWith(stringCanary('Employee', 'photo', k))),
              type: 'image/png',
            }
          : null,
      // Employee 6 has no employer: a relation and an alias that lead nowhere.
      employer: k === 6 ? null : ((k - 1) % 3) + 1,
    })),
    Project: INITIAL_KEYS.Project.map((k) => ({
      ID: k,
      title: stringCanary('Project', 'title', k),
      budget: numberCanary('Project', 'budget', k),
      note: stringCanary('Project', 'note', k),
      company: (k % 3) + 1,
    })),
  } as unknown as DataFile
}

// ---- the application's code

/** The functions, by the name a roles file gives them (`applyTo`), and how REST calls them. */
export const FUNCTIONS = {
  // A plain object nesting a selection of Project.
  'ds.report': { kind: 'dataStore' },
  // Plain values read from Company.city.
  'ds.cities': { kind: 'dataStore' },
  // An entity found by a query on Company.revenue.
  'Company.richest': { kind: 'dataClass', dc: 'Company' },
  // A plain object nesting the entity's staff and its name.
  'Company.staffOf': { kind: 'entity', dc: 'Company' },
  // A selection queried on Employee.salary.
  'Employee.top': { kind: 'dataClass', dc: 'Employee' },
  // The sum of the selection's salaries.
  'Employee.total': { kind: 'entitySelection', dc: 'Employee' },
  // Saves a new name and returns the entity.
  'Employee.rename': { kind: 'entity', dc: 'Employee' },
  // Plain values read from Project.note.
  'Project.notes': { kind: 'dataClass', dc: 'Project' },
} as const satisfies Record<
  string,
  { kind: 'dataStore' | 'dataClass' | 'entity' | 'entitySelection'; dc?: DcName }
>
export type FnName = keyof typeof FUNCTIONS

/** Which keys of each dataclass a user's `restrict` lets through; absent or null: all of them. */
export type Restrictions = Readonly<
  Record<string, Partial<Record<DcName, readonly number[] | null>> | undefined>
>

/** The name `restrict` gives a session without a user. */
export const GUEST = '(guest)'

/** The refusal of Employee's validateSave: a name that starts with `bad`. */
export const BAD_NAME_CODE = 4601

/** A dataclass's `restrict` event, as `defineFunctions` takes it. */
export type RestrictFn = NonNullable<DataClassFunctionDefs['restrict']>

/** The `restrict` of issue 46: the keys `restrictions` gives the session's user. */
function keysRestrict(restrictions: Restrictions): (dc: DcName) => RestrictFn {
  // Each user's keys; the TypeScript API outside a request (no session) sees everything, so that
  // the test reads the data with full rights.
  return (dc) =>
    function ({ session }) {
      if (!session) return null
      const who = sessionUser(session)?.name ?? GUEST
      const keys = restrictions[who]?.[dc]
      if (keys === undefined || keys === null) return null
      return keys.length === 0 ? this.query('ID = -1') : this.query('ID in :1', [...keys])
    }
}

/**
 * The application's code: its functions, events and computed attributes, with the `restrict` of
 * each dataclass `restrictOf` gives and `computed`'s computed attributes of Employee besides
 * `yearly` (the differential oracle, oracle-app.fixture.ts, adds its own).
 */
export function privFunctions(
  restrictOf: (dc: DcName) => RestrictFn | undefined,
  notes: { next: number },
  computed: Readonly<Record<string, ComputedAttributeFunctions>> = {},
) {
  return defineFunctions({
    dataStore: {
      report: {
        exposed: true,
        call() {
          return { projects: this.dataClass('Project').all(), at: 'report' }
        },
      },
      cities: {
        exposed: true,
        call() {
          return this.dataClass('Company')
            .all()
            .toArray()
            .map((c) => c.get('city'))
        },
      },
    },
    dataClasses: {
      Company: {
        restrict: restrictOf('Company'),
        dataClass: {
          richest: {
            exposed: true,
            call() {
              return this.query('revenue > 0').orderBy('revenue desc').at(0) ?? null
            },
          },
        },
        entity: {
          staffOf: {
            exposed: true,
            call() {
              return { staff: this.get('staff'), name: this.get('name') }
            },
          },
        },
      },
      Employee: {
        restrict: restrictOf('Employee'),
        computed: {
          yearly: { get: (e) => yearlyOf(e.get('salary') as number | null) },
          ...computed,
        },
        events: {
          validateSave() {
            const name = this.get('name')
            if (typeof name === 'string' && name.startsWith('bad'))
              return { errCode: BAD_NAME_CODE, message: 'A name may not start with bad' }
          },
        },
        dataClass: {
          top: {
            exposed: true,
            params: ['number'],
            call(min: number) {
              return this.query('salary > :1', min).orderBy('salary desc')
            },
          },
        },
        entitySelection: {
          total: {
            exposed: true,
            call() {
              return this.sum('salary')
            },
          },
        },
        entity: {
          rename: {
            exposed: true,
            params: ['string'],
            call(name: string) {
              return this.edit({ name }).saveOrFail()
            },
          },
        },
      },
      Project: {
        restrict: restrictOf('Project'),
        events: {
          // The application fills a value the creating session may not read.
          constructor() {
            this.set('note', stringCanary('Project', 'note', `e${++notes.next}`))
          },
        },
        dataClass: {
          notes: {
            exposed: true,
            call() {
              return this.all()
                .toArray()
                .map((p) => p.get('note'))
            },
          },
        },
      },
    },
  })
}

/** A user: the privileges and roles a login gives. */
export interface PrivUser {
  readonly name: string
  readonly privileges: readonly string[]
  readonly roles: readonly string[]
}

export interface PrivApp {
  readonly ds: Datastore
  readonly rest: RestHandler
}

/** The application under `roles`, its users logging in with their name as password. */
export function privApp(
  roles: RolesJson,
  users: readonly PrivUser[],
  restrictions: Restrictions,
): PrivApp {
  return appOf(PRIV_MODEL, privFunctions(keysRestrict(restrictions), { next: 0 }), roles, users)
}

/** The time every datastore of these tests is made at (their clocks never move). */
export const APP_TIME = Date.UTC(2026, 0, 5, 9)

/**
 * A datastore of `model` with the data file's data, `functions` and `roles`, and its REST handler,
 * `users` logging in with their name as password.
 */
export function appOf(
  model: ModelJson,
  functions: FunctionsDef,
  roles: RolesJson | undefined,
  users: readonly PrivUser[],
  data: DataFile = privData(),
  options: Pick<DatastoreOptions, 'entitySets'> = {},
): PrivApp {
  const ds = createDatastore(model, {
    ...options,
    data,
    clock: new ManualClock(APP_TIME),
    functions,
    ...(roles ? { roles } : {}),
  })
  const rest = createRestHandler(ds, {
    authenticate: ({ user, password }) => {
      const u = users.find((x) => x.name === user)
      return u && password === user
        ? { name: u.name, privileges: [...u.privileges], roles: [...u.roles] }
        : null
    },
    loginThrottle: false,
  })
  return { ds, rest }
}
