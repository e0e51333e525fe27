/**
 * An assignment of a computed attribute whose class has a `Function set` (issue 78): by 4D code
 * running in steps, the setter's call in steps, which the assigning code's generator goes into
 * (attribute-steps.ts `setAhead`, handle.ts `classSetterSteps`); by a write in steps of core (the
 * REST interface's `$method=update`: core's `saveInSteps`), the setter's steps form
 * (project/computed-attributes.ts `setSteps`), called before the write. A setter that loops
 * stops inside its loop; what it leaves is what the plain assignment leaves: `This` the entity,
 * the `touched` events of its own assignments run, its error caught by the code's `Try`.
 */
import {
  createDatastore,
  DatastoreError,
  getterSteps,
  saveInSteps,
  type Datastore,
  type Entity,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from '../project/compile-project.js'
import { projectFunctions } from '../project/project-functions.js'

const PASSES = 1_000_000

// `slow`'s setter loops, counts its calls in Storage, fails for "fail", then assigns `note` (whose
// `touched` event marks `log`) and marks `log`; the getters assign it as 4D code does.
const TASK = `Class extends Entity

Function get slow() : Text
\treturn This.note

Function set slow($value : Text)
\tvar $i; $n : Integer
\tUse (Storage)
\t\tStorage.sets:=Num(Storage.sets)+1
\tEnd use
\tFor ($i; 1; ${PASSES})
\t\t$n:=$n+($i%3)
\tEnd for
\tASSERT($value#"fail"; "no such value")
\tThis.note:=$value
\tThis.log:=String(This.log)+"s"+String($n%7)

Function event touched note($event : Object)
\tThis.log:=String(This.log)+"t"

Function get assigned() : Text
\tvar $e : cs.TaskEntity:=ds.Task.get(This.ID)
\t$e.slow:="x"+String(This.ID)
\treturn $e.note+" "+$e.log

Function get caught() : Text
\tvar $e : cs.TaskEntity:=ds.Task.get(This.ID)
\tvar $r : Text
\tTry
\t\t$e.slow:="fail"
\t\t$r:="not thrown"
\tCatch
\t\t$r:="caught "+String(Last errors[0].errCode)+" ["+$e.note+"]"
\tEnd try
\treturn $r
`

const DATASTORE = `Class extends DataStoreImplementation

Function sets() : Integer
\treturn Num(Storage.sets)
`

function tasks(): Datastore {
  const project = compileProject(
    [
      { path: 'Sources/Classes/TaskEntity.4dm', kind: 'class', text: TASK },
      { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
    ],
    { dataClasses: ['Task'] },
  )
  const computed = new Set(['slow', 'assigned', 'caught'].map((a) => `Task.${a}`))
  return createDatastore(
    {
      dataClasses: [
        {
          name: 'Task',
          attributes: [
            { name: 'ID', kind: 'storage', type: 'long', primKey: true, autosequence: true },
            { name: 'note', kind: 'storage', type: 'string' },
            { name: 'log', kind: 'storage', type: 'string' },
            ...['slow', 'assigned', 'caught'].map((name) => ({
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
      data: { Task: [1, 2, 3].map((ID) => ({ ID, note: `n${ID}`, log: '' })) },
    },
  ) as unknown as Datastore
}

// The loop's value as the setter marks it.
const MARK = (() => {
  let n = 0
  for (let i = 1; i <= PASSES; i++) n += i % 3
  return `s${n % 7}`
})()

// A stop every 4,096 passes of a loop: code run in one piece ends in one step.
const STOPS = PASSES / 4_096 - 10

/** Work in steps driven to its end, a step at a time: its value, and how many times it stopped. */
function driven<T>(work: Generator<unknown, T, void>): { value: T; steps: number } {
  let steps = 0
  for (;;) {
    const r = work.next()
    if (r.done === true) return { value: r.value, steps }
    steps++
  }
}

/** `name` of `entity` read by its getter's call in steps (4D code running in steps). */
function readInSteps(entity: Entity, name: string): { value: unknown; steps: number } {
  const attr = entity.dataClass.def.attributesByName.get(name)!
  if (attr.kind !== 'calculated') throw new Error(`${name} is no computed attribute`)
  return driven(getterSteps(attr.compute, entity)!)
}

describe('a setter assigned by 4D code running in steps', () => {
  it("goes into the setter's steps: stops inside its loop, leaves what the plain one leaves", () => {
    const ds = tasks()
    const task = ds.dataClass('Task').get(1)!
    const { value, steps } = readInSteps(task, 'assigned')
    // This is the entity assigned; the touched event of note ran before the setter's mark.
    expect(value).toBe(`x1 t${MARK}`)
    expect(steps).toBeGreaterThan(STOPS)
    expect(ds.call('sets')).toBe(1)
    // As the assignment run at once leaves it.
    expect(task.get('assigned')).toBe(value)
    expect(ds.call('sets')).toBe(2)
  })

  it("has the setter's error caught by the code's Try, nothing assigned", () => {
    const ds = tasks()
    const task = ds.dataClass('Task').get(2)!
    const { value, steps } = readInSteps(task, 'caught')
    expect(value).toBe('caught -10518 [n2]')
    expect(steps).toBeGreaterThan(STOPS)
    expect(task.get('caught')).toBe(value)
  })
})

describe('a setter in a write in steps of core (a REST write)', () => {
  it('is called in steps before the write, once: the entity written as the plain write writes it', () => {
    const ds = tasks()
    const Task = ds.dataClass('Task')
    const { value: write, steps } = driven(saveInSteps(Task, 1, { slow: 'y' }))
    expect(steps).toBeGreaterThan(STOPS)
    // Nothing written before the write runs.
    expect(Task.get(1)!.get('note')).toBe('n1')
    write()
    const written = Task.get(1)!
    expect([written.get('note'), written.get('log'), written.getStamp()]).toEqual([
      'y',
      `t${MARK}`,
      2,
    ])
    expect(ds.call('sets')).toBe(1)
    const twin = tasks()
    const plain = twin.dataClass('Task').update(1, { slow: 'y' })
    expect([plain.get('note'), plain.get('log')]).toEqual([written.get('note'), written.get('log')])
  })

  // A create's setter has no entity to find its datastore by: the request's (its session acting).
  it('is called in steps for a create, its assignments the new entity’s', () => {
    const ds = tasks()
    ds.actAs(ds.sessions.openGuest(), () => {
      const Task = ds.dataClass('Task')
      const { value: write, steps } = driven(saveInSteps(Task, undefined, { slow: 'z' }))
      expect(steps).toBeGreaterThan(STOPS)
      const made = write()
      expect(made.get('note')).toBe('z')
      expect(made.get('log')).toMatch(`t${MARK}`)
      // As the plain create writes it.
      const twin = tasks()
      const plain = twin.actAs(twin.sessions.openGuest(), () =>
        twin.dataClass('Task').create({ slow: 'z' }),
      )
      expect([plain.get('note'), plain.get('log')]).toEqual([made.get('note'), made.get('log')])
    })
    expect(ds.call('sets')).toBe(1)
  })

  it('leaves nothing written when the setter fails: the write throws its error', () => {
    const ds = tasks()
    const Task = ds.dataClass('Task')
    const { value: write, steps } = driven(saveInSteps(Task, 3, { slow: 'fail', log: 'kept?' }))
    expect(steps).toBeGreaterThan(STOPS)
    let error: unknown
    try {
      write()
    } catch (e) {
      error = e
    }
    expect(DatastoreError.is(error)).toBe(true)
    expect(JSON.stringify((error as DatastoreError).stack4D().map((e) => e.message))).toContain(
      'no such value',
    )
    const kept = Task.get(3)!
    expect([kept.get('note'), kept.get('log'), kept.getStamp()]).toEqual(['n3', '', 1])
    expect(ds.call('sets')).toBe(1)
  })
})
