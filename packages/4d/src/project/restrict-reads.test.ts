/**
 * Issue 78, in process: a restrict written in 4D tells core what it read besides the data
 * (runtime/context/outside-state.ts), so that its answer never outlives it: interprocess
 * variables (assigned, or an object in one changed in place), a process variable and a process
 * singleton (the request's own), a session singleton changed by its shared function. REST tests
 * of Storage, Session.storage, a shared singleton and the clock: entistore's
 * restrict-outside-state.test.ts.
 */
import { createDatastore, type Datastore, type Session } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from './compile-project.js'
import { projectFunctions } from './project-functions.js'

const DATASTORE = `Class extends DataStoreImplementation

exposed Function close($closed : Boolean)
\t<>closed:=$closed

exposed Function closeConfig($closed : Boolean)
\tIf (<>config=Null)
\t\t<>config:=New object
\tEnd if
\t<>config.closed:=$closed

exposed Function closeHere($closed : Boolean)
\tclosedHere:=$closed

exposed Function closeLocal($closed : Boolean)
\tcs.Local.me.close($closed)

exposed Function hide($hidden : Boolean)
\tcs.Prefs.me.hide($hidden)
`
const LOCAL = `property closed : Boolean

singleton Class constructor()
\tThis.closed:=False

Function close($closed : Boolean)
\tThis.closed:=$closed
`
const PREFS = `property hidden : Boolean

session singleton Class constructor()
\tThis.hidden:=False

shared Function hide($hidden : Boolean)
\tThis.hidden:=$hidden
`

/** A datastore whose Note restrict hides every note when `closed` (a 4D expression) is true. */
function datastore(closed: string): Datastore {
  const dataClasses = ['Note']
  const note = `Class extends DataClass

Function event restrict() -> $result : cs.NoteSelection
\t$result:=(${closed}) ? This.newSelection() : This.all()
`
  const project = compileProject(
    [
      { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
      { path: 'Sources/Classes/Note.4dm', kind: 'class', text: note },
      { path: 'Sources/Classes/Local.4dm', kind: 'class', text: LOCAL },
      { path: 'Sources/Classes/Prefs.4dm', kind: 'class', text: PREFS },
    ],
    { dataClasses },
  )
  return createDatastore(
    {
      dataClasses: [
        {
          name: 'Note',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'owner', type: 'string' },
          ],
        },
      ],
    },
    {
      functions: projectFunctions(project, { dataClasses: new Set(dataClasses) }),
      data: { Note: [{ ID: 1 }, { ID: 2 }] },
    },
  ) as unknown as Datastore
}

/** How many notes `session` sees, in a request of its own (an Actor, a budget). */
const count = (ds: Datastore, session: Session): number =>
  ds.actAs(session, () => ds.withBudget(1000, () => ds.dataClass('Note').all().length))

describe('a restrict written in 4D, reading state outside the data (issue 78)', () => {
  it('follows an interprocess variable both ways', () => {
    const ds = datastore('Bool(<>closed)')
    const session = ds.sessions.open()
    expect(count(ds, session)).toBe(2)
    ds.call('close', true)
    expect(count(ds, session)).toBe(0)
    expect(count(ds, ds.sessions.open())).toBe(0)
    ds.call('close', false)
    expect(count(ds, session)).toBe(2)
  })

  it('follows an object of an interprocess variable changed in place', () => {
    const ds = datastore('(<>config#Null) && Bool(<>config.closed)')
    const session = ds.sessions.open()
    ds.call('closeConfig', false)
    expect(count(ds, session)).toBe(2)
    ds.call('closeConfig', true)
    expect(count(ds, session)).toBe(0)
  })

  it("follows the request's process variable and process singleton within the request", () => {
    for (const closed of ['Bool(closedHere)', 'cs.Local.me.closed']) {
      const ds = datastore(closed)
      const fn = closed.startsWith('cs') ? 'closeLocal' : 'closeHere'
      const seen = ds.actAs(ds.sessions.open(), () =>
        ds.withBudget(1000, () => {
          const notes = () => ds.dataClass('Note').all().length
          const before = notes()
          ds.call(fn, true)
          const during = notes()
          ds.call(fn, false)
          return [before, during, notes()]
        }),
      )
      expect(seen, closed).toEqual([2, 0, 2])
    }
  })

  it('follows a session singleton set by its shared function, for that session alone', () => {
    const ds = datastore('cs.Prefs.me.hidden')
    const [one, two] = [ds.sessions.open(), ds.sessions.open()]
    expect(count(ds, one)).toBe(2)
    expect(count(ds, two)).toBe(2)
    ds.actAs(one, () => ds.call('hide', true))
    expect(count(ds, one)).toBe(0)
    expect(count(ds, two)).toBe(2)
    ds.actAs(one, () => ds.call('hide', false))
    expect(count(ds, one)).toBe(2)
  })
})
