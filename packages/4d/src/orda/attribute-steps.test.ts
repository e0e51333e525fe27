/**
 * A read of a computed attribute by 4D code running in steps (issue 78): when the getter has
 * steps (a project's), the read is its call in steps, which the reading code's generator goes
 * into (attribute-steps.ts `getterAhead`), so that a getter that loops stops inside its loop; the
 * read's value is the one that call returned, the getter called once.
 */
import {
  createDatastore,
  DatastoreError,
  getterSteps,
  type Datastore,
  type Entity,
  type RolesJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from '../project/compile-project.js'
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

Function get listed() : Text
\treturn JSON Stringify(ds.Task.all().orderBy("ID desc").heavy)
`

const DATASTORE = `Class extends DataStoreImplementation

Function calls() : Integer
\treturn Num(Storage.calls)
`

function tasks(roles?: RolesJson): Datastore {
  const project = compileProject(
    [
      { path: 'Sources/Classes/TaskEntity.4dm', kind: 'class', text: TASK },
      { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
    ],
    { dataClasses: ['Task'] },
  )
  const computed = new Set(
    ['heavy', 'outer', 'fetched', 'indexed', 'listed'].map((a) => `Task.${a}`),
  )
  return createDatastore(
    {
      dataClasses: [
        {
          name: 'Task',
          attributes: [
            { name: 'ID', kind: 'storage', type: 'long', primKey: true, autosequence: true },
            { name: 'heavy', kind: 'calculated', type: 'long' },
            { name: 'outer', kind: 'calculated', type: 'long' },
            { name: 'fetched', kind: 'calculated', type: 'long' },
            { name: 'indexed', kind: 'calculated', type: 'long' },
            { name: 'listed', kind: 'calculated', type: 'string' },
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

/** `name` of `entity` read by its getter's call in steps, driven a step at a time. */
function inSteps(entity: Entity, name: string): { value: unknown; steps: number } {
  const attr = entity.dataClass.def.attributesByName.get(name)!
  if (attr.kind !== 'calculated') throw new Error(`${name} is no computed attribute`)
  const work = getterSteps(attr.compute, entity)!
  let steps = 0
  for (;;) {
    const r = work.next()
    if (r.done === true) return { value: r.value, steps }
    steps++
  }
}

describe('a getter read by 4D code running in steps', () => {
  for (const [how, name, plus] of [
    ['This.heavy', 'outer', 1],
    ['ds.Task.get(This.ID).heavy', 'fetched', 2],
  ] as const)
    it(`goes into the getter's steps (${how}): stops inside its loop, its value kept`, () => {
      const ds = tasks()
      const task = ds.dataClass('Task').get(1)!
      const { value, steps } = inSteps(task, name)
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
        ds.actAs(ds.sessions.openGuest(), () => inSteps(task, name))
      } catch (e) {
        error = e
      }
      expect(DatastoreError.is(error) && error.category).toBe('forbidden')
      expect(ds.call('calls')).toBe(0)
    })

  // A read by a literal text key is the member read it names (compile/emit/expressions.ts).
  it('goes into the getter\'s steps by a literal text key (This["heavy"])', () => {
    const ds = tasks()
    const { value, steps } = inSteps(ds.dataClass('Task').get(1)!, 'indexed')
    expect(value).toBe(HEAVY + 3)
    expect(steps).toBeGreaterThan(STOPS)
    expect(ds.call('calls')).toBe(1)
  })

  // Through a selection (attribute-steps.ts `gettersOfSelection`): each member's call in steps.
  it("goes into each member's getter through a selection ($sel.heavy)", () => {
    const ds = tasks()
    const task = ds.dataClass('Task').get(1)!
    const { value, steps } = inSteps(task, 'listed')
    // The collection the plain read gives, in the selection's order.
    const plain = JSON.stringify([HEAVY + 2, HEAVY + 1, HEAVY])
    expect(value).toBe(plain)
    expect(steps).toBeGreaterThan(3 * STOPS)
    // Once for each member.
    expect(ds.call('calls')).toBe(3)
    expect(task.get('listed')).toBe(plain)
    expect(ds.call('calls')).toBe(6)
  })
})
