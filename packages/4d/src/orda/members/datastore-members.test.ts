/**
 * `ds.validateTransaction()` in 4D code running in steps (issue 78): the after-events of the
 * transaction's writes, which wait for its validation, run there in steps (core's
 * `writeInSteps`), so that an `afterSave` that loops stops inside its loop; run once, after the
 * commit, as the plain validation runs them.
 */
import { createDatastore, saveInSteps, writeInSteps, type Datastore } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from '../../project/compile-project.js'
import { projectFunctions } from '../../project/project-functions.js'

const PASSES = 1_000_000

// An order's saving event logs it in a transaction of its own, validated there.
const ORDER = `Class extends Entity

Function event saving($event : Object)
\tvar $log : cs.LogEntity
\tvar $result : Object
\tds.startTransaction()
\t$log:=ds.Log.new()
\t$log.text:=This.name
\t$result:=$log.save()
\tds.validateTransaction()
`

// A log's afterSave loops, then counts its runs and the logs it saw saved.
const LOG = `Class extends Entity

Function event afterSave($event : Object)
\tvar $i; $n : Integer
\tFor ($i; 1; ${PASSES})
\t\t$n:=$n+($i%3)
\tEnd for
\tUse (Storage)
\t\tStorage.runs:=Num(Storage.runs)+1
\t\tStorage.seen:=ds.Log.all().length
\tEnd use
`

const DATASTORE = `Class extends DataStoreImplementation

Function runs() : Object
\treturn {runs: Num(Storage.runs); seen: Num(Storage.seen)}
`

function shop(): Datastore {
  const project = compileProject(
    [
      { path: 'Sources/Classes/OrderEntity.4dm', kind: 'class', text: ORDER },
      { path: 'Sources/Classes/LogEntity.4dm', kind: 'class', text: LOG },
      { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
    ],
    { dataClasses: ['Order', 'Log'] },
  )
  const attributes = (name: string) => [
    { name: 'ID', type: 'long', autosequence: true },
    { name, type: 'string' },
  ]
  return createDatastore(
    {
      dataClasses: [
        { name: 'Order', attributes: attributes('name') },
        { name: 'Log', attributes: attributes('text') },
      ],
    } as never,
    { functions: projectFunctions(project, { dataClasses: new Set(['Order', 'Log']) }) },
  ) as unknown as Datastore
}

describe('ds.validateTransaction() in code running in steps', () => {
  it('runs the afterSave of a write of the transaction in steps, once, after the commit', () => {
    const ds = shop()
    // An order saved as a REST save runs it: its saving event in steps.
    const work = (function* () {
      const write = yield* saveInSteps(ds.dataClass('Order'), undefined, { name: 'tea' })
      return yield* writeInSteps(write)
    })()
    let steps = 0
    for (let r = work.next(); r.done !== true; r = work.next()) steps++
    // A stop every 4,096 passes of the afterSave's loop: the validation's after-event stopped
    // inside it, where one run whole at the validation would have ended in one step.
    expect(steps).toBeGreaterThan(PASSES / 4_096 - 10)
    // Once, with the log committed.
    expect(ds.call('runs')).toEqual({ runs: 1, seen: 1 })
    expect(ds.dataClass('Log').all().toCollection('text')).toEqual([{ text: 'tea' }])
    expect(ds.transactionLevel()).toBe(0)
  })

  it('runs it once at the validation in code that runs plain, as before', () => {
    const ds = shop()
    ds.dataClass('Order').create({ name: 'rice' })
    expect(ds.call('runs')).toEqual({ runs: 1, seen: 1 })
    expect(ds.transactionLevel()).toBe(0)
  })
})
