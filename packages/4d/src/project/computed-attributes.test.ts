import { createDatastore, DatastoreError, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from './compile-project.js'
import { projectFunctions } from './project-functions.js'

const PERSON = `Class extends Entity

exposed Function get fullName($event : Object) -> $result : Text
\tCase of
\t\t: (This.first="") & (This.last="")
\t\t\t$event.result:=Null
\t\t: ($event.kind#"get") | ($event.attributeName#"fullName") | ($event.dataClassName#"Person")
\t\t\t$result:="wrong event"
\t\tElse
\t\t\t$result:=This.first+" "+This.last
\tEnd case

Function set fullName($value : Text; $event : Object)
\tvar $p : Integer:=Position(" "; $value)
\tThis.first:=Substring($value; 1; $p-1)
\tThis.last:=Substring($value; $p+1)

Function query fullName($event : Object) -> $result : Object
\tIf ($event.operator="==")
\t\t$result:={query: "first = :1 and last = :2"; parameters: Split string($event.value; " ")}
\tEnd if

Function orderBy fullName($event : Object) -> $result : Text
\t$result:="last "+$event.operator+", first "+$event.operator

Function get initial() : Text
\treturn Substring(This.first; 1; 1)

Function query initial($event : Object)
\t$event.result:=Null

Function get broken() : Text
\tASSERT(False; "no value")

Function get twice($event : Object) -> $n : Integer
\treturn Length(This.fullName)*2

// A process variable: one process a request, as in 4D.
Function get reads() : Integer
\tvReads:=Num(vReads)+1
\treturn vReads

Function get boss() : cs.PersonEntity
\treturn This
`

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Person',
      attributes: [
        { name: 'ID', kind: 'storage', type: 'long', primKey: true, autosequence: true },
        { name: 'first', kind: 'storage', type: 'string' },
        { name: 'last', kind: 'storage', type: 'string' },
        { name: 'note', kind: 'storage', type: 'string' },
        { name: 'fullName', kind: 'calculated', type: 'string' },
        { name: 'initial', kind: 'calculated', type: 'string' },
        { name: 'broken', kind: 'calculated', type: 'string' },
        { name: 'twice', kind: 'calculated', type: 'long' },
        { name: 'reads', kind: 'calculated', type: 'long' },
      ],
    },
  ],
}

const COMPUTED = new Set(
  ['fullName', 'initial', 'broken', 'twice', 'reads'].map((a) => `Person.${a}`),
)

function people() {
  const project = compileProject(
    [{ path: 'Sources/Classes/PersonEntity.4dm', kind: 'class', text: PERSON }],
    { dataClasses: ['Person'] },
  )
  const functions = projectFunctions(project, {
    dataClasses: new Set(['Person']),
    computed: COMPUTED,
  })
  const ds = createDatastore(MODEL, { functions })
  const P = ds.dataClass('Person')
  for (const [first, last] of [
    ['Ada', 'Lovelace'],
    ['Alan', 'Turing'],
    ['', ''],
    ['Grace', 'Hopper'],
  ])
    P.create({ first, last })
  return { ds, P, functions }
}

describe("an Entity class's computed attributes, run by core as a functions module's", () => {
  it('reads the getter with This the entity and $event as 4D gives it; $event.result wins', () => {
    const { P } = people()
    expect(P.get(1)!.get('fullName')).toBe('Ada Lovelace')
    // `$event.result:=Null` reads Null.
    expect(P.get(3)!.get('fullName')).toBeNull()
    // A getter declared without $event, and one reading another computed attribute.
    expect(P.get(2)!.get('initial')).toBe('A')
    expect(P.get(4)!.get('twice')).toBe(24)
    expect(
      P.all()
        .toCollection('fullName')
        .map((r) => r['fullName']),
    ).toEqual(['Ada Lovelace', 'Alan Turing', null, 'Grace Hopper'])
  })

  it('leaves out a getter of no catalog type (an entity)', () => {
    const { functions } = people()
    expect(Object.keys(functions.dataClasses!['Person']!.computed!)).toEqual([
      'fullName',
      'initial',
      'broken',
      'twice',
      'reads',
    ])
  })

  it("runs a request's reads in one running context (its process), a read outside any in its own", () => {
    const { ds, P } = people()
    const reads = () =>
      P.all()
        .toCollection('reads')
        .map((r) => r['reads'])
    // Within a request's budget, the process variable counts on; without, each read starts anew.
    expect(ds.withBudget(60_000, reads)).toEqual([1, 2, 3, 4])
    expect(ds.withBudget(60_000, reads)).toEqual([1, 2, 3, 4])
    expect(reads()).toEqual([1, 1, 1, 1])
  })

  it("writes through the setter: what it assigns to This is the write's", () => {
    const { ds, P } = people()
    const updated = P.update(2, { fullName: 'Alan Kay' })
    expect([updated.get('first'), updated.get('last')]).toEqual(['Alan', 'Kay'])
    // A create has no entity to tell its datastore: the write does (core's writing.ts), outside
    // any request as inside one (here actAs's).
    const alone = P.create({ fullName: 'Grace Hopper' })
    expect([alone.get('first'), alone.get('last')]).toEqual(['Grace', 'Hopper'])
    const made = ds.actAs(ds.sessions.open(), () => P.create({ fullName: 'Edsger Dijkstra' }))
    expect([made.get('first'), made.get('last'), made.get('fullName')]).toEqual([
      'Edsger',
      'Dijkstra',
      'Edsger Dijkstra',
    ])
  })

  it("returns what the setter assigns, not what a new entity's constructor event set", () => {
    const project = compileProject(
      [{ path: 'Sources/Classes/PersonEntity.4dm', kind: 'class', text: PERSON }],
      { dataClasses: ['Person'] },
    )
    const own = projectFunctions(project, { dataClasses: new Set(['Person']), computed: COMPUTED })
    const set = own.dataClasses!['Person']!.computed!['fullName']!.set!
    let constructed = 0
    const ds = createDatastore(MODEL, {
      functions: {
        dataClasses: {
          Person: {
            ...own.dataClasses!['Person'],
            events: {
              constructor(this: { set(name: string, value: unknown): void }) {
                constructed++
                this.set('note', 'constructed')
              },
            },
          },
        },
      },
    })
    const event = { attributeName: 'fullName', dataClassName: 'Person', kind: 'set' as const }
    const assigned = ds.actAs(ds.sessions.open(), () =>
      set.call(null, 'Ada Lovelace', { ...event, value: 'Ada Lovelace' }),
    )
    expect(assigned).toEqual({ first: 'Ada', last: 'Lovelace' })
    const single = ds.actAs(ds.sessions.open(), () =>
      set.call(null, 'Ada', { ...event, value: 'Ada' }),
    )
    expect(single).toEqual({ first: '', last: 'Ada' })
    expect(constructed).toBe(2)
  })

  it('filters through the query function, and by the getter where it answers Null', () => {
    const { P } = people()
    const ids = (filter: string, ...params: unknown[]) =>
      P.query(filter, ...params)
        .toArray()
        .map((e) => e.getKey())
    expect(ids('fullName = :1', 'Grace Hopper')).toEqual([4])
    // No answer for `!=`: the default, the getter on every entity.
    expect(ids('fullName != :1', 'Grace Hopper')).toEqual([1, 2])
    expect(ids('initial = :1', 'A')).toEqual([1, 2])
  })

  it('sorts through the orderBy function, and by the getter without one', () => {
    const { P } = people()
    const keys = (order: string) =>
      P.all()
        .orderBy(order)
        .toArray()
        .map((e) => e.getKey())
    expect(keys('fullName desc')).toEqual([2, 1, 4, 3])
    expect(keys('initial asc')).toEqual([3, 1, 2, 4])
  })

  it("answers a 4D error in a getter with 4D's error stack, when it is read only", () => {
    const { P } = people()
    const ada = P.get(1)!
    let error: unknown
    try {
      ada.get('broken')
    } catch (e) {
      error = e
    }
    expect(DatastoreError.is(error)).toBe(true)
    expect((error as DatastoreError).cause).toMatchObject({
      message: expect.stringMatching(/PersonEntity\.broken.*PersonEntity\.4dm/),
    })
    expect(ada.get('fullName')).toBe('Ada Lovelace')
  })
})
