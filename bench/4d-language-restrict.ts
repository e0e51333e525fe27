/**
 * @module The 4D language suite's restrict group (issue 63's goal: a `restrict` written in 4D
 * within 1.5× the same restrict in TypeScript, on 100k rows): a dataclass `Note` of `rows` rows,
 * each of one of 100 owners, restricted to the session's own notes — in TypeScript (a functions
 * module's `restrict`) on one datastore, in 4D (a DataClass class's `Function event restrict`,
 * run by `projectFunctions` as `serve --project` runs it) on another.
 *
 * One call: a write elsewhere (a new data version, untimed), then a session of one of the owners
 * counts its notes (`Note.query("ID >= :1"; 0).length`): its restrict is asked again for the new
 * version, as after any write on a live server, and the query reads what it lets through.
 */
import {
  createDatastore,
  sessionUser,
  type Datastore,
  type FunctionsDef,
  type Session,
} from '@entistore/core'
import type { Group } from './suites/query.bench.ts'
import type { FourD } from './4d-code.ts'

export const RESTRICT_TARGET = { max: 1.5, label: '≤1.5× TS' }
const OWNERS = 100

const RESTRICT_4D = `Class extends DataClass

Function event restrict() -> $result : cs.NoteSelection
\t$result:=This.query("owner = :1"; Session.userName)
`

const restrictTs: FunctionsDef = {
  dataClasses: {
    Note: {
      restrict({ session }) {
        return this.query('owner = :1', (session && sessionUser(session)?.name) ?? '')
      },
    },
  },
}

function notes(rows: number, functions: FunctionsDef): Datastore {
  return createDatastore(
    {
      __NAME: 'bench',
      dataClasses: [
        {
          name: 'Note',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'owner', type: 'string' },
          ],
        },
        { name: 'Tick', attributes: [{ name: 'ID', type: 'long', autosequence: true }] },
      ],
    },
    {
      functions,
      data: {
        Note: Array.from({ length: rows }, (_, i) => ({ ID: i + 1, owner: `u${i % OWNERS}` })),
      },
    },
  ) as unknown as Datastore
}

/** A call's work on `ds`: a write (prepare), then an owner's session counting its notes. */
function calls(ds: Datastore): { prepare: () => void; run: () => number } {
  const sessions: Session[] = Array.from({ length: OWNERS }, (_, i) =>
    ds.sessions.renew(ds.sessions.open().id, { user: { name: `u${i}` } })!,
  )
  const Note = ds.dataClass('Note')
  const Tick = ds.dataClass('Tick')
  let k = 0
  return {
    prepare: () => void Tick.create({}),
    run: () => ds.actAs(sessions[k++ % OWNERS]!, () => Note.query('ID >= :1', 0).length),
  }
}

export function restrictGroup(fd: FourD, rows: number): Group {
  const project = fd.compileProject(
    [{ path: 'Sources/Classes/Note.4dm', kind: 'class', text: RESTRICT_4D }],
    { dataClasses: ['Note', 'Tick'] },
  )
  const restrict4D = fd.projectFunctions(project, { dataClasses: new Set(['Note', 'Tick']) })
  const ts = calls(notes(rows, restrictTs))
  const fourD = calls(notes(rows, restrict4D))
  return {
    id: '4d-restrict',
    title: `restrict, ${rows.toLocaleString('en')} rows: after a write, a session counts its notes (${(rows / OWNERS).toLocaleString('en')})`,
    target: RESTRICT_TARGET,
    notes: [
      'both: the restrict asked again for the new data version, its query kept between writes (orda/restrict/restrict-queries.ts)',
      '4D: This.query("owner = :1"; Session.userName) in Note.4dm, run as serve --project runs it',
    ],
    cases: [
      { kind: 'baseline', impl: 'TypeScript restrict', ...ts },
      { kind: 'entistore', impl: '4D restrict', targeted: true, ...fourD },
    ],
  }
}
