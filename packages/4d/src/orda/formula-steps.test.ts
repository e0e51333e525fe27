/**
 * `orderByFormula()` and a query by formula called by 4D code running in steps (issue 78): the
 * formula's value for each entity is its call in steps (formula-steps.ts), so that a formula that
 * loops, calls a method that loops or reads a getter that loops stops inside its loop; the
 * member's value is the one its plain call gives, the formula called once for each entity.
 */
import { createDatastore, getterSteps, ManualClock, type Datastore } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { getterInSteps } from './getter-steps.fixture.js'
import { compileProject } from '../project/compile-project.js'
import { projectFunctions } from '../project/project-functions.js'
import { FourDFunction } from '../runtime/context/function-object.js'
import { ordaBridge } from './bridge.js'
import { SELECTION_MEMBERS } from './members/selection-members.js'
import { formulaAhead } from './formula-steps.js'
import type { EntityHandle } from './handles/entity-handle.js'
import type { Runtime } from '../runtime/context/runtime.js'

const PASSES = 1_000_000

// `slowly` and `heavy` loop, and count their calls in Storage.
const SLOWLY = `#DECLARE($value : Integer) : Integer
var $i; $n : Integer
Use (Storage)
\tStorage.calls:=Num(Storage.calls)+1
End use
For ($i; 1; ${PASSES})
\t$n:=$n+1
End for
return $value+$n-${PASSES}
`

// The members read: the IDs of the tasks ordered or found, or a count.
// Each with what 4D answers (the plain call's value).
const READS: readonly (readonly [string, string, string, string])[] = [
  [
    'byGetter',
    'orderByFormula(Formula(This.heavy); dk descending): a getter that loops',
    'JSON Stringify(ds.Task.all().orderByFormula(Formula(This.heavy); dk descending).ID)',
    '[3,2,1]',
  ],
  [
    'byMethod',
    'orderByFormula(Formula(slowly(…))): a method that loops',
    'JSON Stringify(ds.Task.all().orderByFormula(Formula(slowly(0-This.ID))).ID)',
    '[3,2,1]',
  ],
  [
    'byArgs',
    // Keys 1%2, 2%2, 3%2 in the selection's order 3, 2, 1: 0 first, then 3 before 1.
    'orderByFormula(…; dk ascending; {args}): $1 the args, ties in the selection’s order',
    'JSON Stringify(ds.Task.all().orderBy("ID desc").orderByFormula(Formula(slowly(This.ID%$1.m)); dk ascending; New object("args"; New object("m"; 2))).ID)',
    '[2,3,1]',
  ],
  [
    'queried',
    'ds.Task.query(Formula(…); {args})',
    'JSON Stringify(ds.Task.query(Formula(slowly(This.ID)>$1.min); New object("args"; New object("min"; 1))).ID)',
    '[2,3]',
  ],
  [
    'selQueried',
    // A selection's query keeps its order (core's).
    '$sel.query(Formula(…))',
    'JSON Stringify(ds.Task.all().orderBy("ID desc").query(Formula(slowly(This.ID)#2)).ID)',
    '[3,1]',
  ],
  [
    'notBoolean',
    'a query whose formula answers a number: none found',
    'String(ds.Task.query(Formula(slowly(This.ID))).length)',
    '0',
  ],
  [
    'byFunction',
    'a formula calling the entity’s function that loops',
    'JSON Stringify(ds.Task.all().orderByFormula(Formula(This.slowID()); dk descending).ID)',
    '[3,2,1]',
  ],
]

const TASK = `Class extends Entity

Function get heavy() : Integer
\treturn slowly(This.ID)

Function slowID() : Integer
\treturn slowly(This.ID)

${READS.map(([name, , code]) => `Function get ${name}() : Text\n\treturn ${code}\n`).join('\n')}
Function get cheap() : Text
\treturn JSON Stringify(ds.Task.all().orderByFormula(Formula(0-This.ID)).ID)

Function get refused() : Text
\treturn String(ds.Task.query(Formula(slowly(This.ID)>0); New object("allowFormulas"; False)).length)

Function get failing() : Text
\treturn JSON Stringify(ds.Task.query(Formula(slowly(This.ID)>This.unknownMember())).ID)
`

const DATASTORE = `Class extends DataStoreImplementation

Function calls() : Integer
\treturn Num(Storage.calls)
`

const COMPUTED = [...READS.map(([name]) => name), 'cheap', 'refused', 'failing']

function tasks(count = 3): Datastore {
  const project = compileProject(
    [
      { path: 'Sources/Methods/slowly.4dm', kind: 'method', text: SLOWLY },
      { path: 'Sources/Classes/TaskEntity.4dm', kind: 'class', text: TASK },
      { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
    ],
    { dataClasses: ['Task'] },
  )
  const computed = new Set(['heavy', ...COMPUTED].map((a) => `Task.${a}`))
  return createDatastore(
    {
      dataClasses: [
        {
          name: 'Task',
          attributes: [
            { name: 'ID', kind: 'storage', type: 'long', primKey: true, autosequence: true },
            { name: 'title', kind: 'storage', type: 'string' },
            { name: 'heavy', kind: 'calculated', type: 'long' },
            ...COMPUTED.map((name) => ({
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
      data: { Task: Array.from({ length: count }, (_, i) => ({ ID: i + 1 })) },
      // The code's budget (2 s by default) is read on this clock, which does not move: what these
      // tests count is steps, and 70,000 entities ordered in steps took longer than 2 s of wall
      // clock on a busy CI machine.
      clock: new ManualClock(Date.UTC(2026, 0, 1)),
    },
  ) as unknown as Datastore
}

// A stop every 4,096 passes of a loop: code read in one piece ends in one step.
const STOPS = PASSES / 4_096 - 10

// What a call throws, as its message.
function thrown(fn: () => unknown): string {
  try {
    fn()
  } catch (e) {
    return (e as Error).message
  }
  return 'nothing thrown'
}

describe('a member that calls a formula for each entity, from 4D code running in steps', () => {
  for (const [name, how, , answer] of READS)
    it(`goes into the formula's steps for each entity (${how})`, () => {
      const ds = tasks()
      const task = ds.dataClass('Task').get(1)!
      const { value, steps } = getterInSteps(task, name)
      expect(value).toBe(answer)
      // Once for each task: the member reads the values computed ahead.
      expect(ds.call('calls')).toBe(3)
      // The code stopped inside each call's loop.
      expect(steps).toBeGreaterThan(3 * STOPS)
      // As a read in one piece answers, which calls the formula as many times.
      expect(task.get(name)).toBe(value)
      expect(ds.call('calls')).toBe(6)
    })

  it('throws what the plain call throws when the formula fails, after the values before it', () => {
    const ds = tasks()
    const task = ds.dataClass('Task').get(1)!
    let steps = 0
    const inPieces = thrown(() => {
      const work = getterSteps(
        (task.dataClass.def.attributesByName.get('failing') as unknown as { compute: never })
          .compute,
        task,
      )!
      while (work.next().done !== true) steps++
    })
    // The first entity's call failed, after its loop, which stopped: no other was called.
    expect(steps).toBeGreaterThan(STOPS)
    expect(ds.call('calls')).toBe(1)
    expect(inPieces).toBe(thrown(() => task.get('failing')))
    expect(inPieces).toMatch(/unknownMember/)
    // A formula the settings refuse (`allowFormulas: False`) is never called: core's 1278.
    const before = ds.call('calls')
    const refused = thrown(() => getterInSteps(task, 'refused'))
    expect(refused).toBe(thrown(() => task.get('refused')))
    expect(refused).toMatch(/not allowed/i)
    expect(ds.call('calls')).toBe(before)
  })

  // A formula without steps (none of 4D code) makes no steps of the member (member-kit.ts
  // `OptionalStepsImpl`): it runs at once, no generator made for it or for each entity. One of 4D
  // code that calls no loop stops nowhere.
  it('keeps a formula that calls no loop cheap', () => {
    const ds = tasks()
    const selection = ordaBridge(ds).toFourD(ds.dataClass('Task').all())
    const rt = undefined as never
    const orderByFormula = SELECTION_MEMBERS.get('orderByFormula')!
    const one = (): number => 1
    const plain = new FourDFunction('Formula', one)
    const stepped = new FourDFunction('Formula', {
      build: () => one,
      buildSteps: () =>
        function* () {
          return 1
        },
    })
    expect(orderByFormula.steps(rt, selection, [plain])).toBeUndefined()
    expect(orderByFormula.steps(rt, selection, [stepped])).toBeDefined()
    const { value, steps } = getterInSteps(ds.dataClass('Task').get(1)!, 'cheap')
    expect(value).toBe('[3,2,1]')
    expect(steps).toBeLessThan(10)
    expect(ds.call('calls')).toBe(0)
  })

  // Another client writes between two slices: the values are kept by entity version, and the
  // entities asked again until none is new, so core finds each value kept for the version it
  // reads, none computed at once.
  it('computes in steps the value of a version saved or an entity created between two slices', () => {
    const ds = tasks()
    const dc = ds.dataClass('Task')
    const world = ordaBridge(ds)
    const rt = { ticks: Infinity } as unknown as Runtime
    let [inSteps, atOnce] = [0, 0]
    const titleOf = (self: unknown): unknown => (self as EntityHandle).core().get('title')
    const formula = new FourDFunction('Formula', {
      build: () => (_rt, self) => (atOnce++, titleOf(self)),
      buildSteps: () =>
        function* (_rt, self) {
          inSteps++
          yield
          return titleOf(self)
        },
    })
    const work = formulaAhead(rt, world, { formula, settings: {}, params: [] }, () =>
      dc.all().members(),
    )
    work.next()
    const draft = dc.get(2)!.edit() as unknown as { title: string; save(): unknown }
    draft.title = 'saved'
    draft.save()
    dc.fromCollection([{ ID: 4, title: 'created' }])
    let r = work.next()
    while (r.done !== true) r = work.next()
    const kept = r.value
    // 1, 2, 3, then the new version of 2 and the new 4.
    expect(inSteps).toBe(5)
    expect(
      dc
        .all()
        .members()
        .map((e) => kept(e!)),
    ).toEqual([null, 'saved', null, 'created'])
    expect(atOnce).toBe(0)
  })

  // A table loaded in bulk makes the entities of its rows as they are read, and forgets them past
  // 65,536: the same version is then another object at each read. Its values are kept by version
  // all the same, not asked again and again.
  it('orders 70,000 entities loaded in bulk in steps, as the plain call does', () => {
    const ds = tasks(70_000)
    const task = ds.dataClass('Task').get(1)!
    const { value } = getterInSteps(task, 'cheap')
    expect(JSON.parse(value as string)).toHaveLength(70_000)
    expect(value).toBe(task.get('cheap'))
  })
})
