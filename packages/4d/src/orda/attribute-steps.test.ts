/**
 * A read of a computed attribute by 4D code running in steps (issue 78): when the getter has
 * steps (a project's), the read is its call in steps, which the reading code's generator goes
 * into (attribute-steps.ts `getterAhead`), so that a getter that loops stops inside its loop; the
 * read's value is the one that call returned, the getter called once.
 */
import { createDatastore, DatastoreError, type Datastore, type RolesJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { getterInSteps } from './getter-steps.fixture.js'
import { compileProject } from '../project/compile-project.js'
import { ordaBridge } from './bridge.js'
import { ENTITY_MEMBERS } from './members/entity-members.js'
import { SELECTION_MEMBERS } from './members/selection-members.js'
import { projectFunctions } from '../project/project-functions.js'

const PASSES = 1_000_000

// `heavy` loops, and counts its calls in Storage; the others read it as 4D code does.
const TASK = `Class extends Entity

Function get heavy() : Integer
\tvar $i; $n : Integer
\tUse (Storage)
\t\tStorage.calls:=Num(Storage.calls)+1
\tEnd use
\tFor ($i; 1; ${PASSES})
\t\t$n:=$n+($i%3)
\tEnd for
\treturn $n+This.ID

Function get outer() : Integer
\treturn This.heavy+1

Function get fetched() : Integer
\treturn ds.Task.get(This.ID).heavy+2

Function get indexed() : Integer
\treturn This["heavy"]+3

Function get named() : Integer
\tvar $name : Text
\t$name:="heav"+"y"
\treturn This[$name]+4

Function get queried() : Integer
\treturn ds.Task.query("heavy > :1"; 100).length+5

Function get maxed() : Integer
\treturn ds.Task.all().max("heavy")+6

Function get ordered() : Integer
\treturn ds.Task.all().orderBy("heavy desc").first().ID+7

Function get listed() : Text
\treturn JSON Stringify(ds.Task.all().orderBy("ID desc").heavy)

Function get collected() : Text
\treturn JSON Stringify(ds.Task.all().orderBy("ID desc").toCollection("ID, heavy"))

Function get windowed() : Text
\treturn JSON Stringify(ds.Task.all().orderBy("ID desc").toCollection(New collection("heavy"); 0; 1; 1))

Function get objected() : Text
\treturn JSON Stringify(ds.Task.get(This.ID).toObject("heavy"))

Function get extracted() : Text
\treturn JSON Stringify(ds.Task.all().orderBy("ID desc").extract("heavy"))

Function get mapped() : Text
\treturn JSON Stringify(New collection(ds.Task.get(3); ds.Task.get(1)).map(Formula($1.value.heavy)))

Function get sorted() : Text
\tvar $c : Collection:=New collection(ds.Task.get(3); ds.Task.get(1); ds.Task.get(2))
\treturn JSON Stringify($c.sort(Formula($1.value.heavy<$1.value2.heavy)).map(Formula($1.value.ID)))
`

const DATASTORE = `Class extends DataStoreImplementation

Function calls() : Integer
\treturn Num(Storage.calls)
`

// The computed attributes: eight numbers, then texts.
const COMPUTED = [
  'heavy',
  'outer',
  'fetched',
  'indexed',
  'named',
  'queried',
  'maxed',
  'ordered',
  'listed',
  'collected',
  'windowed',
  'objected',
  'extracted',
  'mapped',
  'sorted',
] as const

function tasks(roles?: RolesJson): Datastore {
  const project = compileProject(
    [
      { path: 'Sources/Classes/TaskEntity.4dm', kind: 'class', text: TASK },
      { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
    ],
    { dataClasses: ['Task'] },
  )
  const computed = new Set([...COMPUTED].map((a) => `Task.${a}`))
  return createDatastore(
    {
      dataClasses: [
        {
          name: 'Task',
          attributes: [
            { name: 'ID', kind: 'storage', type: 'long', primKey: true, autosequence: true },
            ...[...COMPUTED].slice(0, 8).map((name) => ({
              name,
              kind: 'calculated' as const,
              type: 'long' as const,
            })),
            ...[...COMPUTED].slice(8).map((name) => ({
              name,
              kind: 'calculated' as const,
              type: 'string' as const,
            })),
          ],
        },
      ],
    },
    {
      functions: projectFunctions(project, { dataClasses: new Set(['Task']), computed }),
      data: { Task: [{ ID: 1 }, { ID: 2 }, { ID: 3 }] },
      ...(roles === undefined ? {} : { roles }),
    },
  ) as unknown as Datastore
}

// The heavy getter's value for task 1: the sum of i%3 for i in 1..PASSES, plus the ID.
const HEAVY = (() => {
  let n = 0
  for (let i = 1; i <= PASSES; i++) n += i % 3
  return n + 1
})()

// A stop every 4,096 passes of a loop: code read in one piece ends in one step.
const STOPS = PASSES / 4_096 - 10

describe('a getter read by 4D code running in steps', () => {
  for (const [how, name, plus] of [
    ['This.heavy', 'outer', 1],
    ['ds.Task.get(This.ID).heavy', 'fetched', 2],
  ] as const)
    it(`goes into the getter's steps (${how}): stops inside its loop, its value kept`, () => {
      const ds = tasks()
      const task = ds.dataClass('Task').get(1)!
      const { value, steps } = getterInSteps(task, name)
      expect(value).toBe(HEAVY + plus)
      // The reading code stopped inside the getter's loop.
      expect(steps).toBeGreaterThan(STOPS)
      // The getter ran once: its value is the read's, not asked again.
      expect(ds.call('calls')).toBe(1)
      // As a read in one piece answers.
      expect(task.get(name)).toBe(HEAVY + plus)
      expect(ds.call('calls')).toBe(2)
    })

  for (const name of ['outer', 'indexed', 'listed'])
    it(`asks the session first (${name}): a read refused calls no getter`, () => {
      const ds = tasks({
        privileges: [{ privilege: 'planner' }],
        roles: [],
        permissions: {
          allowed: [{ applyTo: 'Task.heavy', type: 'attribute', read: ['planner'] }],
        },
      })
      const task = ds.dataClass('Task').get(1)!
      let error: unknown
      try {
        ds.actAs(ds.sessions.openGuest(), () => getterInSteps(task, name))
      } catch (e) {
        error = e
      }
      expect(DatastoreError.is(error) && error.category).toBe('forbidden')
      expect(ds.call('calls')).toBe(0)
    })

  // A read by a literal text key is the member read it names (compile/emit/expressions.ts).
  it('goes into the getter\'s steps by a literal text key (This["heavy"])', () => {
    const ds = tasks()
    const { value, steps } = getterInSteps(ds.dataClass('Task').get(1)!, 'indexed')
    expect(value).toBe(HEAVY + 3)
    expect(steps).toBeGreaterThan(STOPS)
    expect(ds.call('calls')).toBe(1)
  })

  // A key known only as it runs asks the host once known (step-calls.ts `getSteps`).
  it("goes into the getter's steps by a key known as it runs (This[$name])", () => {
    const ds = tasks()
    const { value, steps } = getterInSteps(ds.dataClass('Task').get(1)!, 'named')
    expect(value).toBe(HEAVY + 4)
    expect(steps).toBeGreaterThan(STOPS)
    expect(ds.call('calls')).toBe(1)
  })

  // A query, an aggregate or an ordering of it is a read in steps (core's readInSteps): its calls
  // stop.
  for (const [how, name, value] of [
    ['ds.Task.query("heavy > :1")', 'queried', 3 + 5],
    ['$sel.max("heavy")', 'maxed', HEAVY + 2 + 6],
    ['$sel.orderBy("heavy desc")', 'ordered', 3 + 7],
  ] as const)
    it(`goes into each row's getter through ${how}`, () => {
      const ds = tasks()
      const { value: read, steps } = getterInSteps(ds.dataClass('Task').get(2)!, name)
      expect(read).toBe(value)
      expect(steps).toBeGreaterThan(STOPS)
      // Once for each task: the read run again finds its work's result.
      expect(ds.call('calls')).toBe(3)
    })

  // A formula that reads a member of its elements (compile/emit/expressions.ts `forHosts`): a
  // loop over entities goes into it, each getter call in steps.
  it("goes into each element's getter through a formula ($c.map(Formula($1.value.heavy)))", () => {
    const ds = tasks()
    const { value, steps } = getterInSteps(ds.dataClass('Task').get(1)!, 'mapped')
    expect(value).toBe(JSON.stringify([HEAVY + 2, HEAVY]))
    expect(steps).toBeGreaterThan(2 * STOPS)
    expect(ds.call('calls')).toBe(2)
  })

  // So does a sort by such a formula: each comparison's two getter calls in steps.
  it("goes into each element's getter through a sort by formula ($c.sort(Formula(…)))", () => {
    const ds = tasks()
    const { value, steps } = getterInSteps(ds.dataClass('Task').get(1)!, 'sorted')
    expect(value).toBe(JSON.stringify([1, 2, 3]))
    const calls = ds.call('calls') as number
    expect(calls).toBeGreaterThanOrEqual(4)
    expect(steps).toBeGreaterThan(calls * STOPS)
  })

  // Through a selection (attribute-steps.ts `gettersOfSelection`): each member's call in steps.
  it("goes into each member's getter through a selection ($sel.heavy)", () => {
    const ds = tasks()
    const task = ds.dataClass('Task').get(1)!
    const { value, steps } = getterInSteps(task, 'listed')
    // The collection the plain read gives, in the selection's order.
    const plain = JSON.stringify([HEAVY + 2, HEAVY + 1, HEAVY])
    expect(value).toBe(plain)
    expect(steps).toBeGreaterThan(3 * STOPS)
    // Once for each member.
    expect(ds.call('calls')).toBe(3)
    expect(task.get('listed')).toBe(plain)
    expect(ds.call('calls')).toBe(6)
  })

  // Through a member that reads attributes by their names (attribute-steps.ts `gettersOfPaths`):
  // the getters its names end on, called in steps for the entities it reads, then the member.
  for (const [how, name, plain, calls] of [
    [
      'toCollection("ID, heavy")',
      'collected',
      [3, 2, 1].map((ID) => ({ ID, heavy: HEAVY - 1 + ID })),
      3,
    ],
    // Its window alone: the second member of three, in the selection's order.
    ['toCollection(filter; 0; 1; 1)', 'windowed', [{ heavy: HEAVY + 1 }], 1],
    ['toObject("heavy")', 'objected', { heavy: HEAVY }, 1],
    ['extract("heavy")', 'extracted', [HEAVY + 2, HEAVY + 1, HEAVY], 3],
  ] as const)
    it(`goes into the getters a member reads by name (${how})`, () => {
      const ds = tasks()
      const task = ds.dataClass('Task').get(1)!
      const { value, steps } = getterInSteps(task, name)
      expect(JSON.parse(value as string)).toEqual(plain)
      expect(steps).toBeGreaterThan(calls * STOPS)
      // Once for each entity read: the member finds their values.
      expect(ds.call('calls')).toBe(calls)
      expect(JSON.parse(task.get(name) as string)).toEqual(plain)
      expect(ds.call('calls')).toBe(2 * calls)
    })

  // A member whose names end on no getter with steps has no steps for the call (member-kit.ts:
  // `OptionalStepsImpl`): it runs at once, no generator made for it.
  it('makes no steps of a member that names no getter with steps', () => {
    const ds = tasks()
    const bridge = ordaBridge(ds)
    const task = bridge.toFourD(ds.dataClass('Task').get(1))
    const tasks3 = bridge.toFourD(ds.dataClass('Task').all())
    const rt = undefined as never
    const [toObject, toCollection] = [
      ENTITY_MEMBERS.get('toObject')!,
      SELECTION_MEMBERS.get('toCollection')!,
    ]
    expect(toObject.steps(rt, task, ['ID'])).toBeUndefined()
    expect(toCollection.steps(rt, tasks3, ['ID'])).toBeUndefined()
    expect(toCollection.steps(rt, tasks3, [])).toBeUndefined()
    expect(toObject.steps(rt, task, ['ID, heavy'])).toBeDefined()
    expect(toCollection.steps(rt, tasks3, ['heavy'])).toBeDefined()
    expect(ds.call('calls')).toBe(0)
  })
})
