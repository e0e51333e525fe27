import { createDatastore, DatastoreError, Roles, type Datastore } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from './compile-project.js'
import { projectFunctions } from './project-functions.js'

// Outside a request there is no Session: code that asks for none is told so.
const NOTE = `Class extends DataClass

Function event restrict() -> $result : cs.NoteSelection
\tCase of
\t\t: (Session=Null)
\t\t\t$result:=This.query("owner = :1"; "nobody")
\t\t: (Session.hasPrivilege("admin"))
\t\t\t$result:=Null
\t\t: (Session.userName="boom")
\t\t\tthrow(77; "No rule for boom")
\t\t: (Session.userName="spy")
\t\t\t$result:=(ds.Secret.all().length>0) ? Null : This.newSelection()
\t\tElse
\t\t\t$result:=This.query("owner = :1"; Session.userName)
\tEnd case
`

function datastore(note = NOTE): Datastore {
  const dataClasses = ['Note', 'Secret']
  const project = compileProject(
    [{ path: 'Sources/Classes/Note.4dm', kind: 'class', text: note }],
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
        { name: 'Secret', attributes: [{ name: 'ID', type: 'long' }] },
      ],
    },
    {
      functions: projectFunctions(project, { dataClasses: new Set(dataClasses) }),
      roles: new Roles({
        privileges: [{ privilege: 'admin' }, { privilege: 'reader' }],
        roles: [],
        permissions: {
          allowed: [
            { applyTo: 'Note', type: 'dataclass', read: ['reader', 'admin'] },
            { applyTo: 'Secret', type: 'dataclass', read: ['admin'] },
          ],
        },
      }),
      data: {
        Note: [
          { ID: 1, owner: 'ada' },
          { ID: 2, owner: 'bob' },
          { ID: 3, owner: 'nobody' },
        ],
        Secret: [{ ID: 1 }],
      },
    },
  ) as unknown as Datastore
}

/** The notes a session of `user` holding `privileges` sees. */
function seen(ds: Datastore, user: string, privileges: string[]): unknown[] {
  const session = ds.sessions.renew(ds.sessions.open().id, { user: { name: user, privileges } })!
  return ds.actAs(session, () =>
    ds
      .dataClass('Note')
      .all()
      .toArray()
      .map((e) => e.get('ID')),
  )
}

describe("a DataClass class's Function event restrict, as core's restrict", () => {
  it("narrows every read to what the caller's Session may see", () => {
    const ds = datastore()
    expect(seen(ds, 'ada', ['reader'])).toEqual([1])
    expect(seen(ds, 'root', ['admin'])).toEqual([1, 2, 3])
    // Code outside a request: Session is Null.
    expect(
      ds
        .dataClass('Note')
        .all()
        .toArray()
        .map((e) => e.get('ID')),
    ).toEqual([3])
  })

  it('fails the read with the 4D error stack when its code raises: nothing is seen', () => {
    const ds = datastore()
    let error: unknown
    try {
      seen(ds, 'boom', ['reader'])
    } catch (e) {
      error = e
    }
    expect(DatastoreError.is(error) && [error.errCode, error.message]).toEqual([
      77,
      'No rule for boom',
    ])
  })

  it('closes the dataclass to a view its code may not read for (as a JavaScript restrict)', () => {
    // The spy's restrict reads Secret, which a reader may not read (1557): the rule cannot
    // apply, and would have answered Null (everything) had it been allowed.
    expect(seen(datastore(), 'spy', ['reader'])).toEqual([])
  })

  it('gives none to a DataClass class without a restrict event', () => {
    const functions = projectFunctions(
      compileProject(
        [{ path: 'Sources/Classes/Note.4dm', kind: 'class', text: 'Class extends DataClass\n' }],
        { dataClasses: ['Note'] },
      ),
      { dataClasses: new Set(['Note']) },
    )
    expect(functions.dataClasses?.Note?.restrict).toBeUndefined()
  })
})
