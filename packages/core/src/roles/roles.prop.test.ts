/**
 * Issue 46, part one: core's `Roles` against a reference model written from the documents alone
 * (roles-reference.fixture.ts). Over generated roles files (privileges that include others, roles,
 * entries on the datastore, dataclasses, attributes, functions and singletons, empty lists, names
 * in other cases, undeclared names, `restrictedByDefault`) and generated sessions, both must agree
 * on the privileges a session holds, every action on every resource, and what a function's
 * `promote` adds while it runs.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { Roles, type RolesResource } from './roles.js'
import {
  RefRoles,
  rolesFileArb,
  type RefAction,
  type RefResource,
} from './roles-reference.fixture.js'

const UNIVERSE = {
  dataClasses: [
    { name: 'Farm', attributes: ['name', 'secretNote'] },
    { name: 'Tree', attributes: ['species'] },
  ],
  methods: ['ds.report', 'ds.authentify', 'Farm.harvest', 'Tree.prices'],
  singletonMethods: ['Stats.next'],
}

const RESOURCES: readonly RefResource[] = [
  ...UNIVERSE.dataClasses.flatMap((dc): RefResource[] => [
    { type: 'dataclass', dataClass: dc.name },
    ...dc.attributes.map((attribute): RefResource => ({
      type: 'attribute',
      dataClass: dc.name,
      attribute,
    })),
  ]),
  ...UNIVERSE.methods.map((m): RefResource => {
    const [owner, name] = m.split('.') as [string, string]
    return { type: 'method', dataClass: owner === 'ds' ? '' : owner, name }
  }),
  { type: 'singletonMethod', singleton: 'Stats', name: 'next' },
]
const ACTIONS: readonly RefAction[] = ['read', 'create', 'update', 'drop', 'execute']

/** Core's answer for the reference's question: an attribute is asked after its dataclass. */
function coreMay(roles: Roles, held: ReadonlySet<string>, action: RefAction, r: RefResource) {
  if (r.type === 'attribute')
    return (
      roles.allows(held, action, { type: 'dataclass', dataClass: r.dataClass }) &&
      roles.allows(held, action, r)
    )
  if ((r.type === 'method' || r.type === 'singletonMethod') && action !== 'execute') return false
  return roles.allows(held, action, r as RolesResource)
}

const given = fc.record({
  privileges: fc.uniqueArray(fc.constantFrom('p0', 'P1', 'p2', 'p3', 'guest', 'ghost')),
  roles: fc.uniqueArray(fc.constantFrom('R0', 'r1', 'R2', 'R9')),
})

const runs = process.env.ENTISTORE_LONG === '1' ? 50_000 : 4_000

describe('core Roles agrees with the reference model of 4D’s documented rules', () => {
  test.prop([rolesFileArb(UNIVERSE), given], { numRuns: runs })(
    'privileges held, every action on every resource, and promotions',
    ({ file }, session) => {
      const ref = new RefRoles(file)
      const roles = new Roles(file)
      const held = ref.held(session)
      expect([...roles.privilegesOf(session)].sort(), 'privileges held').toEqual([...held].sort())
      expect(roles.declared(held), 'declared').toEqual(ref.declared(held))
      for (const r of RESOURCES)
        for (const action of ACTIONS)
          expect(coreMay(roles, held, action, r), `${action} ${JSON.stringify(r)}`).toBe(
            ref.may(held, action, r),
          )
      for (const fn of RESOURCES)
        if (fn.type === 'method' || fn.type === 'singletonMethod') {
          const promoted = new Set([...held, ...roles.promoted(fn as RolesResource & typeof fn)])
          expect([...promoted].sort(), `promote ${JSON.stringify(fn)}`).toEqual(
            [...ref.whileRunning(held, fn)].sort(),
          )
        }
    },
  )
})
