import { createDatastore, DatastoreError, ManualClock, type Clock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from './compile-project.js'
import { projectFunctions } from './project-functions.js'
import type { ProjectSource } from './sources.js'

const DATASTORE = `Class extends DataStoreImplementation

exposed Function sayHello($first : Text; $last : Text) : Text
\treturn "Hello "+$first+" "+$last

exposed Function names($people : Collection) : Collection
\tvar $names : Collection:=[]
\tFor each ($p; $people)
\t\t$names.push($p.name)
\tEnd for each
\treturn $names

exposed Function nextDay($d : Date) : Date
\treturn $d+1

exposed Function fail($n : Integer)
\tvar $o : Object
\t$o:=Null
\t$o.name:=$n

exposed Function spin()
\tWhile (True)
\tEnd while

Function hidden() : Text
\treturn "not exposed"

exposed Function broken()
\t$x:=(1+
`
const COUNTER = `shared singleton Class constructor()
\tThis.hits:=0

exposed Function hit() : Integer
\tThis.hits+=1
\treturn This.hits
`
const sources: ProjectSource[] = [
  { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
  { path: 'Sources/Classes/Counter.4dm', kind: 'class', text: COUNTER },
  { path: 'Sources/Classes/Plain.4dm', kind: 'class', text: 'Function f()\n' },
]

/** A clock one millisecond later at each read: a budget counts reads, not time. */
const tickingClock = (): Clock => {
  const clock = new ManualClock()
  return { now: () => clock.advance(1).now() }
}

const datastore = (clock?: Clock) =>
  createDatastore(
    { dataClasses: [] },
    {
      ...(clock ? { clock } : {}),
      functions: projectFunctions(compileProject(sources), {
        dataClasses: new Set(),
        budgetMs: 50,
      }),
    },
  )

const failure = (fn: () => unknown): DatastoreError => {
  try {
    fn()
  } catch (e) {
    if (DatastoreError.is(e)) return e
    throw e
  }
  throw new Error('no error')
}

describe('projectFunctions', () => {
  it('registers the DataStore class functions, exposed as the file says, and the singletons', () => {
    const ds = datastore()
    const names = ds.functions.list('dataStore').map((f) => [f.name, f.exposed])
    expect(names).toEqual([
      ['sayHello', true],
      ['names', true],
      ['nextDay', true],
      ['fail', true],
      ['spin', true],
      ['hidden', false],
      ['broken', true],
    ])
    expect(ds.functions.singletonNames()).toEqual(['Counter'])
  })

  it('runs them with their parameters made 4D values of the declared types, the result made JSON values', () => {
    const ds = datastore()
    expect(ds.call('sayHello', 'Ada', 'Lovelace')).toBe('Hello Ada Lovelace')
    expect(ds.call('names', [{ name: 'b' }, { name: 'a' }])).toEqual(['b', 'a'])
    expect(ds.call('nextDay', '2024-02-28')).toBe('2024-02-29')
    expect(ds.call('hidden')).toBe('not exposed')
  })

  it('keeps a shared singleton for the datastore', () => {
    const ds = datastore()
    expect(ds.singleton('Counter').call('hit')).toBe(1)
    expect(ds.singleton('Counter').call('hit')).toBe(2)
  })

  it("answers a 4D error as 4D's stack: the error, then the function, its file and line", () => {
    const e = failure(() => datastore().call('fail', 1))
    expect(e.stack4D().map((x) => [x.errCode, x.componentSignature, x.message])).toEqual([
      [
        e.errCode,
        e.componentSignature,
        'Cannot assign the "name" property of Null value: the object is not instantiated',
      ],
      [9100, 'enti', 'Error in DataStore.fail, line 19 of Sources/Classes/DataStore.4dm'],
    ])
    // A wrong parameter type is 4D's error too (Text := Number).
    expect(failure(() => datastore().call('sayHello', 1, 2)).componentSignature).toBe('4DRT')
    // A function whose line does not parse fails alone, naming its line.
    expect(failure(() => datastore().call('broken')).stack4D()[1]!.message).toMatch(/line 29 /)
  })

  it('stops a runaway loop at the budget, with an error that says so', () => {
    const e = failure(() => datastore(tickingClock()).call('spin'))
    expect(e.errCode).toBe(9410)
    expect(e.message).toMatch(/budget/)
  })
})
