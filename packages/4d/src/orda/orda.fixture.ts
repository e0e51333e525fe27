/**
 * @module For the ORDA bridge's tests (a fixture: not part of the built package): companies and
 * their employees (a Date, an object, a salary only the `payroll` privilege reads), and 4D code
 * run on them as a project's would be: its classes compiled into a class store whose ORDA classes
 * are the bridge's, `ds` and `Session` the bridge's.
 */
import { createDatastore, ManualClock, type Datastore, type RolesJson } from '@entistore/core'
import { ClassStore } from '../runtime/context/class-store.js'
import type { ClassObject } from '../runtime/context/class-object.js'
import { run4d } from '../compile/run4d.js'
import { ordaBridge } from './bridge.js'

export const model = {
  __NAME: 'orda4d',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number', indexed: true },
        { name: 'email', type: 'string', unique: true },
        { name: 'birthDate', type: 'date' },
        { name: 'extra', type: 'object' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
      ],
    },
  ],
} as const

export const roles: RolesJson = {
  privileges: [{ privilege: 'payroll' }],
  roles: [],
  permissions: {
    allowed: [{ applyTo: 'Employee.salary', type: 'attribute', read: ['payroll'] }],
  },
}

export const data = () => ({
  Company: [
    { ID: 1, name: 'Acme' },
    { ID: 2, name: 'Globex' },
  ],
  Employee: [
    {
      ID: 1,
      lastName: 'Lovelace',
      salary: 5000,
      email: 'ada@acme',
      birthDate: '1815-12-10',
      employer: 1,
    },
    {
      ID: 2,
      lastName: 'Turing',
      salary: 6000,
      email: 'alan@acme',
      birthDate: '1912-06-23',
      employer: 1,
    },
    {
      ID: 3,
      lastName: 'Hopper',
      salary: 7000,
      email: 'grace@globex',
      extra: { rank: 'admiral' },
      employer: 2,
    },
  ],
})

export function store(): Datastore {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9))
  return createDatastore(model, { data: data(), clock, roles }) as unknown as Datastore
}

export interface RunOptions {
  /** The project's classes by name: their 4D text. */
  readonly classes?: Readonly<Record<string, string>>
  readonly args?: readonly unknown[]
  /** Project methods by name: their 4D text. */
  readonly methods?: Readonly<Record<string, string>>
  /** Compiled as a call in slices runs it (generators driven to their end), or plain. */
  readonly steps?: boolean
}

/** Runs a 4D method on `ds` as a project's code (see the module's comment); its result as 4D has it. */
export function runOn(ds: Datastore, text: string, options: RunOptions = {}): unknown {
  const bridge = ordaBridge(ds)
  const classes = new ClassStore({
    builtinSuperclass: (path) => bridge.builtinSuperclass(path) as ClassObject | null,
  })
  const session = bridge.session() as object | null
  return run4d(text, options.args ?? [], {
    classes: options.classes,
    methods: options.methods,
    emit: options.steps === true ? { steps: true } : undefined,
    runtime: {
      ds: bridge.ds,
      classes,
      builtinClasses: bridge.fourD,
      ...(session === null ? {} : { session }),
    },
  })
}

/** The same, with the result as core and REST take it (`bridge.fromFourD`). */
export const runFor = (ds: Datastore, text: string, options?: RunOptions): unknown =>
  ordaBridge(ds).fromFourD(runOn(ds, text, options))
