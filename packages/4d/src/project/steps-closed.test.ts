/**
 * Issue 78: a project's code that core drives in steps (a restrict in a read's slices, a getter's
 * call) and that its driver closes before its end (the read's request gone: core's
 * `SliceScope.cancel` closes the read's work) is closed where it stopped, its `finally` blocks run
 * at once: a `Use` block it stopped inside lets go of its lock then, not once its generator is
 * collected, so the next call that takes the lock is not refused meanwhile.
 */
import {
  createDatastore,
  DatastoreError,
  getterSteps,
  ManualClock,
  type Datastore,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from './compile-project.js'
import { projectFunctions } from './project-functions.js'

// Each loops inside a `Use` of Storage, far past its first stops.
const DOC = `Class extends DataClass

Function event restrict() -> $result : cs.DocSelection
\tUse (Storage)
\t\tFor ($i; 1; 100000000)
\t\tEnd for
\tEnd use
\t$result:=This.all()
`

const DOC_ENTITY = `Class extends Entity

Function get slow() : Integer
\tUse (Storage)
\t\tFor ($i; 1; 100000000)
\t\tEnd for
\tEnd use
\treturn 1
`

// A plain call, which cannot wait for the lock: refused (9441) while a call in steps holds it.
const DATASTORE = `Class extends DataStoreImplementation

exposed Function poke() : Integer
\tUse (Storage)
\t\tStorage.n:=Num(Storage.n)+1
\tEnd use
\treturn Storage.n
`

// `restricted`: Doc's restrict is the one above; else Doc has none.
function datastore(restricted = true): Datastore {
  const project = compileProject(
    [
      ...(restricted
        ? [{ path: 'Sources/Classes/Doc.4dm', kind: 'class' as const, text: DOC }]
        : []),
      { path: 'Sources/Classes/DocEntity.4dm', kind: 'class', text: DOC_ENTITY },
      { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
    ],
    { dataClasses: ['Doc'] },
  )
  return createDatastore(
    {
      dataClasses: [
        {
          name: 'Doc',
          attributes: [
            { name: 'ID', kind: 'storage', type: 'long', primKey: true },
            { name: 'slow', kind: 'calculated', type: 'long' },
          ],
        },
      ],
    },
    {
      // No time passes: the budget never ends a call, whatever the machine's load.
      clock: new ManualClock(Date.UTC(2026, 0, 1)),
      data: { Doc: [{ ID: 1 }, { ID: 2 }] },
      functions: projectFunctions(project, {
        dataClasses: new Set(['Doc']),
        computed: new Set(['Doc.slow']),
      }),
    },
  ) as unknown as Datastore
}

// The error code of a 4D error `fn` throws through core.
function refusal(fn: () => unknown): unknown {
  try {
    fn()
  } catch (e) {
    if (DatastoreError.is(e)) return e.errCode
    throw e
  }
  return 'none'
}

describe('code in steps closed by its driver inside a Use block', () => {
  it('lets go of the lock at once when the read running its restrict is dropped', () => {
    const ds = datastore()
    const scope = ds.sliceScope(() => true)
    const session = ds.sessions.open()
    expect(() =>
      ds.actAs(session, () => scope.run(() => ds.dataClass('Doc').all().length)),
    ).toThrow(expect.objectContaining({ name: 'QuerySuspended' }))
    expect(scope.drive()).toBe(false)
    expect(refusal(() => ds.call('poke'))).toBe(9441)
    scope.close()
    expect(ds.call('poke')).toBe(1)
  })

  it("lets go of the lock at once when the read whose filter went into a getter's call is dropped", () => {
    const ds = datastore(false)
    const scope = ds.sliceScope(() => true)
    // The read stops once the call's first step has run, inside its Use (row-steps.ts rowsAlone).
    expect(() => scope.run(() => ds.dataClass('Doc').query('slow = 1').length)).toThrow(
      expect.objectContaining({ name: 'QuerySuspended' }),
    )
    expect(refusal(() => ds.call('poke'))).toBe(9441)
    scope.close()
    expect(ds.call('poke')).toBe(1)
  })

  it("lets go of the lock at once when a getter's call is closed", () => {
    const ds = datastore()
    const entity = ds.dataClass('Doc').get(1)!
    const attr = ds.dataClass('Doc').def.attributesByName.get('slow')!
    const work = getterSteps(attr.kind === 'calculated' ? attr.compute : undefined, entity)!
    expect(work.next().done).toBe(false)
    expect(work.next().done).toBe(false)
    expect(refusal(() => ds.call('poke'))).toBe(9441)
    work.return(undefined)
    expect(ds.call('poke')).toBe(1)
  })
})
