/**
 * @module The checks of ORDA written from 4D's documentation (docs/API/DataClassClass.md,
 * EntityClass.md, EntitySelectionClass.md, DataStoreClass.md, docs/ORDA/*.md), one file a page:
 * each check is a documented example adapted to a small model that mirrors the pages' (employees,
 * their companies and managers, invoices keyed by text, a log), run by the compiler on core's
 * datastore through the bridge, and the result the page states for it. Each check has a fresh
 * datastore: a write of one never changes another.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore, ManualClock, type Datastore } from '@entistore/core'
import { FourDError } from '../../runtime/errors/fourd-error.js'
import { runFor, runOn } from '../orda.fixture.js'

export const docModel = {
  __NAME: 'ordadocs',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'city', type: 'string' },
        { name: 'revenues', type: 'number' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'firstName', type: 'string' },
        { name: 'lastName', type: 'string', indexed: true },
        { name: 'salary', type: 'number' },
        { name: 'birthDate', type: 'date' },
        { name: 'gender', type: 'string' },
        { name: 'active', type: 'bool' },
        { name: 'extra', type: 'object' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'manager', kind: 'relatedEntity', path: 'Employee' },
        { name: 'directReports', kind: 'relatedEntities', path: 'manager' },
      ],
    },
    {
      name: 'Invoice',
      key: [{ name: 'code' }],
      attributes: [
        { name: 'code', type: 'string' },
        { name: 'amount', type: 'number' },
      ],
    },
    {
      name: 'Log',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'info', type: 'string' },
      ],
    },
  ],
} as const

const hobbies = (a: number, b: number) => [
  { name: 'horsebackriding', level: a },
  { name: 'Tennis', level: b },
]

export const docData = () => ({
  Company: [
    { ID: 1, name: 'Acme', city: 'Paris', revenues: 12_000_000 },
    { ID: 2, name: 'Globex', city: 'Lyon', revenues: 5_000_000 },
    { ID: 3, name: 'Initech', city: 'Paris', revenues: 800_000 },
  ],
  Employee: [
    {
      ID: 1,
      firstName: 'Sarah',
      lastName: 'Smith',
      salary: 52000,
      birthDate: '1968-04-12',
      gender: 'F',
      active: true,
      extra: { eyeColor: 'blue', hobbies: hobbies(2, 5) },
      employer: 1,
    },
    {
      ID: 2,
      firstName: 'Kim',
      lastName: 'Martin',
      salary: 38000,
      birthDate: '1985-11-30',
      gender: 'F',
      active: true,
      extra: { eyeColor: 'green', hobbies: hobbies(5, 2) },
      employer: 1,
      manager: 1,
    },
    {
      ID: 3,
      firstName: 'Dixie',
      lastName: 'Rogers',
      salary: 41000,
      birthDate: '1990-07-14',
      gender: 'F',
      active: false,
      extra: { eyeColor: 'blue' },
      employer: 2,
      manager: 1,
    },
    {
      ID: 4,
      firstName: 'John',
      lastName: 'Kent',
      salary: 61000,
      birthDate: '1972-01-05',
      gender: 'M',
      active: true,
      employer: 2,
    },
    {
      ID: 5,
      firstName: 'Rob',
      lastName: 'Miller',
      salary: 29000,
      gender: 'M',
      active: true,
      manager: 4,
    },
  ],
  Invoice: [
    { code: 'DGGX20030', amount: 120 },
    { code: 'DGGX20031', amount: 80 },
  ],
  Log: [],
})

export function docStore(): Datastore {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9))
  return createDatastore(docModel, { data: docData(), clock }) as unknown as Datastore
}

export interface OrdaCheck {
  readonly name: string
  /** 4D code ending with `return <what the page shows>`. */
  readonly code: string
  /** The documented result as core and REST take it (dates `YYYY-MM-DD`). */
  readonly expected?: unknown
  /** Instead of a result: the 4D error the code raises. */
  readonly errCode?: number
  /** The project's classes (docs/ORDA/ordaClasses.md), by name. */
  readonly classes?: Readonly<Record<string, string>>
}

/** A check: the name, the code, the documented result. */
export const check = (name: string, code: string, expected: unknown): OrdaCheck => ({
  name,
  code,
  expected,
})

/** A check of the 4D error `code` raises. */
export const fails = (name: string, code: string, errCode: number): OrdaCheck => ({
  name,
  code,
  errCode,
})

/** The errCode of the 4D error `code` raises on a fresh datastore, or null. */
function errCodeOf(code: string, classes?: OrdaCheck['classes']): number | null {
  try {
    runOn(docStore(), code, { classes })
  } catch (e) {
    if (e instanceof FourDError) return e.errCode
    throw e
  }
  return null
}

/** The checks of one page (or part of it) as a `describe` of one `it` a check. */
export function page(title: string, checks: readonly OrdaCheck[]): void {
  describe(title, () => {
    for (const c of checks)
      it(c.name, () => {
        if (c.errCode !== undefined) expect(errCodeOf(c.code, c.classes)).toBe(c.errCode)
        else expect(runFor(docStore(), c.code, { classes: c.classes })).toEqual(c.expected)
      })
  })
}
