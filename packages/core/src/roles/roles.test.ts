import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import { GUEST_PRIVILEGE, Roles, type RolesJson } from './roles.js'

const file = (over: Partial<RolesJson> = {}): RolesJson => ({
  privileges: [
    { privilege: 'simple', includes: [] },
    { privilege: 'Medium', includes: ['simple'] },
    { privilege: 'admin', includes: ['medium'] },
    { privilege: 'vip' },
  ],
  roles: [{ role: 'Manager', privileges: ['medium', 'undeclared'] }],
  permissions: {
    allowed: [
      { applyTo: 'ds', type: 'datastore', read: ['simple'], execute: ['simple'] },
      { applyTo: 'People', type: 'dataclass', read: ['medium'], update: ['admin'], drop: ['vip'] },
      { applyTo: 'People.salary', type: 'attribute', read: ['admin'] },
      { applyTo: 'People.raise', type: 'method', execute: ['admin'], promote: ['vip'] },
      { applyTo: 'ds.report', type: 'method', execute: ['vip'] },
      { applyTo: 'Counter', type: 'singleton', execute: ['medium'] },
      { applyTo: 'Counter.reset', type: 'singletonMethod', execute: ['admin'] },
    ],
  },
  ...over,
})

const held = (roles: Roles, ...privileges: string[]) => roles.privilegesOf({ privileges })

describe('Roles', () => {
  it('holds guest, the privileges given, their includes and a role’s, without regard to case', () => {
    const roles = new Roles(file())
    expect([...held(roles)]).toEqual([GUEST_PRIVILEGE])
    expect([...held(roles, 'ADMIN')].sort()).toEqual(['admin', 'guest', 'medium', 'simple'])
    expect([...roles.privilegesOf({ roles: ['manager'] })].sort()).toEqual([
      'guest',
      'medium',
      'simple',
    ])
    expect(roles.declared(held(roles, 'admin'))).toEqual(['simple', 'Medium', 'admin'])
  })

  it('lets a dataclass entry override the datastore’s, and falls back to it', () => {
    const roles = new Roles(file())
    const people = { type: 'dataclass', dataClass: 'People' } as const
    const city = { type: 'dataclass', dataClass: 'City' } as const
    expect(roles.allows(held(roles, 'simple'), 'read', people)).toBe(false)
    expect(roles.allows(held(roles, 'medium'), 'read', people)).toBe(true)
    expect(roles.allows(held(roles, 'simple'), 'read', city)).toBe(true)
    expect(roles.allows(held(roles), 'read', city)).toBe(false)
    // No entry anywhere for create: open unless restrictedByDefault.
    expect(roles.allows(held(roles), 'create', city)).toBe(true)
    const closed = new Roles(file({ restrictedByDefault: true }))
    expect(closed.allows(held(closed, 'admin'), 'create', city)).toBe(false)
  })

  it('asks read before update and drop', () => {
    const roles = new Roles(file())
    const people = { type: 'dataclass', dataClass: 'People' } as const
    expect(roles.allows(held(roles, 'admin'), 'update', people)).toBe(true)
    // vip may drop, but not read: so not drop.
    expect(roles.allows(held(roles, 'vip'), 'drop', people)).toBe(false)
    expect(roles.allows(held(roles, 'vip', 'medium'), 'drop', people)).toBe(true)
  })

  it('adds an attribute’s entry to its dataclass’s; an attribute without one follows it', () => {
    const roles = new Roles(file({ restrictedByDefault: true }))
    const salary = { type: 'attribute', dataClass: 'People', attribute: 'salary' } as const
    const name = { type: 'attribute', dataClass: 'People', attribute: 'name' } as const
    expect(roles.allows(held(roles, 'medium'), 'read', salary)).toBe(false)
    expect(roles.allows(held(roles, 'admin'), 'read', salary)).toBe(true)
    expect(roles.allows(held(roles), 'read', name)).toBe(true)
  })

  it('decides a function by its own entry, else its dataclass’s, singleton’s or the datastore’s', () => {
    const roles = new Roles(file())
    const fn = (dataClass: string, name: string) => ({ type: 'method', dataClass, name }) as const
    expect(roles.allows(held(roles, 'medium'), 'execute', fn('People', 'raise'))).toBe(false)
    expect(roles.allows(held(roles, 'admin'), 'execute', fn('People', 'raise'))).toBe(true)
    expect(roles.allows(held(roles, 'simple'), 'execute', fn('City', 'grow'))).toBe(true)
    expect(roles.allows(held(roles, 'admin'), 'execute', fn('', 'report'))).toBe(false)
    expect(roles.allows(held(roles), 'execute', fn('', 'other'))).toBe(false)
    // 4D's login function runs for guests whatever the file says.
    expect(roles.allows(held(roles), 'execute', fn('', 'authentify'))).toBe(true)
    const single = (name: string) =>
      ({ type: 'singletonMethod', singleton: 'Counter', name }) as const
    expect(roles.allows(held(roles, 'medium'), 'execute', single('next'))).toBe(true)
    expect(roles.allows(held(roles, 'medium'), 'execute', single('reset'))).toBe(false)
  })

  it('promotes a function’s listed privileges with what they include', () => {
    const roles = new Roles(
      file({
        permissions: {
          allowed: [{ applyTo: 'People.raise', type: 'method', promote: ['admin'] }],
        },
      }),
    )
    expect(
      [...roles.promoted({ type: 'method', dataClass: 'People', name: 'RAISE' })].sort(),
    ).toEqual(['admin', 'medium', 'simple'])
    expect(roles.promoted({ type: 'method', dataClass: 'People', name: 'other' }).size).toBe(0)
  })

  it('reads forceLogin and restrictedByDefault, false when absent', () => {
    expect(new Roles(file())).toMatchObject({ forceLogin: false, restrictedByDefault: false })
    expect(new Roles(file({ forceLogin: true, restrictedByDefault: true }))).toMatchObject({
      forceLogin: true,
      restrictedByDefault: true,
    })
  })

  const refusals: [string, unknown, string][] = [
    ['not an object', [], 'the file: expected an object'],
    ['no privileges', { permissions: { allowed: [] } }, 'privileges: expected an array'],
    ['no permissions', { privileges: [] }, 'permissions: expected an object'],
    [
      'a privilege twice',
      { privileges: [{ privilege: 'a' }, { privilege: 'A' }], permissions: { allowed: [] } },
      'privileges[1]: the privilege "A" is declared twice',
    ],
    [
      'an unknown type',
      {
        privileges: [],
        permissions: { allowed: [{ applyTo: 'People', type: 'table', read: [] }] },
      },
      'permissions.allowed[0].type: "table" is not one of',
    ],
    [
      'an unknown action',
      {
        privileges: [],
        permissions: { allowed: [{ applyTo: 'People', type: 'dataclass', write: ['a'] }] },
      },
      'permissions.allowed[0]: "write" is not an action',
    ],
    [
      'a name that is not text',
      {
        privileges: [],
        permissions: { allowed: [{ applyTo: 'People', type: 'dataclass', read: [3] }] },
      },
      'permissions.allowed[0].read[0]: expected a name',
    ],
    [
      'forceLogin not a boolean',
      { privileges: [], permissions: { allowed: [] }, forceLogin: 'yes' },
      'forceLogin: expected true or false',
    ],
  ]
  it.each(refusals)('refuses a file with %s (9137, naming where)', (_, json, message) => {
    let caught: unknown
    try {
      new Roles(json)
    } catch (e) {
      caught = e
    }
    expect(DatastoreError.is(caught)).toBe(true)
    expect((caught as DatastoreError).errCode).toBe(9137)
    expect((caught as DatastoreError).message).toContain(message)
  })

  it('accepts describe and Qodly’s ids, and ignores describe', () => {
    const roles = new Roles({
      privileges: [{ privilege: 'a', id: 'x1' }],
      permissions: { allowed: [{ applyTo: 'ds', type: 'datastore', describe: ['a'] }] },
    })
    expect(roles.allows(held(roles), 'read', { type: 'dataclass', dataClass: 'X' })).toBe(true)
  })
})
