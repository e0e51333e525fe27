/**
 * Issue 61: an application whose `restrict` is written the 4D way, with `Session` (here
 * `currentSession()`): each user sees their own notes, an `admin` every note. Functions promoted
 * to `admin` (one awaiting a gate the test opens), change tracking (`__DeletedRecords`), and a
 * `reader` privilege that reads and executes: what a hostile 4D developer attacks for one view per
 * request.
 *
 * Notes 1–12 belong to four users, three each (ann 1–3, bob 4–6, cid 7–9, dan 10–12). Every text is
 * a canary: `Note-<owner>-<ID>`.
 */
import {
  createDatastore,
  currentSession,
  defineFunctions,
  ManualClock,
  type ChangeFeedOptions,
  type Datastore,
  type ModelJson,
  type RolesJson,
} from '@entistore/core'
import { createRestHandler, type RestHandler, type RestHandlerOptions } from '../handler.js'
import { hostileClient, type HostileClient } from './hostile-app.fixture.js'

export const NOTES_MODEL: ModelJson = {
  __NAME: 'notes',
  dataClasses: [
    {
      name: 'Note',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'owner', type: 'string', indexed: true },
        { name: 'text', type: 'string' },
        { name: '__GlobalStamp', type: 'long64', indexed: true },
      ],
    },
  ],
}

export const OWNERS = ['ann', 'bob', 'cid', 'dan'] as const
export const noteText = (owner: string, id: number): string => `Note-${owner}-${id}`

export const NOTES_ROLES: RolesJson = {
  privileges: [
    { privilege: 'reader', includes: [] },
    { privilege: 'admin', includes: ['reader'] },
  ],
  roles: [],
  permissions: {
    allowed: [
      {
        applyTo: 'ds',
        type: 'datastore',
        read: ['reader'],
        create: ['reader'],
        update: ['reader'],
        drop: ['reader'],
        execute: ['reader'],
      },
      { applyTo: 'Note.everyone', type: 'method', execute: ['reader'], promote: ['admin'] },
      { applyTo: 'Note.everyoneLater', type: 'method', execute: ['reader'], promote: ['admin'] },
    ],
  },
  restrictedByDefault: true,
  forceLogin: false,
}

/** The users: each reads and writes their own notes; `root` is an admin. */
const USERS: Readonly<Record<string, { password: string; privileges: string[] }>> = {
  ann: { password: 'ann', privileges: ['reader'] },
  bob: { password: 'bob', privileges: ['reader'] },
  cid: { password: 'cid', privileges: ['reader'] },
  dan: { password: 'dan', privileges: ['reader'] },
  root: { password: 'root', privileges: ['admin'] },
}

export interface NotesApp {
  readonly ds: Datastore
  readonly rest: RestHandler
  /** Opens the gate `everyoneLater` awaits (each call awaits the gate open at its start). */
  readonly open: () => void
  /** How many times the restrict ran. */
  readonly runs: () => number
  /** A client logged in as `name`. */
  readonly client: (name: string) => Promise<HostileClient>
}

export function notesApp(
  options: RestHandlerOptions = {},
  notes = 12,
  changeHistory: ChangeFeedOptions = {},
): NotesApp {
  let release = (): void => {}
  const newGate = () => new Promise<void>((resolve) => (release = resolve))
  let gate = newGate()
  let runs = 0
  const functions = defineFunctions({
    dataClasses: {
      Note: {
        // 4D: `Function event restrict` reading `Session`.
        restrict() {
          runs++
          const session = currentSession()
          if (session === null) return null
          if (session.hasPrivilege('admin')) return this.all()
          return this.query('owner = :1', session.userName)
        },
        dataClass: {
          everyone: {
            exposed: true,
            call() {
              return this.all().length
            },
          },
          everyoneLater: {
            exposed: true,
            async call() {
              const before = this.all().length
              await gate
              return [before, this.all().length]
            },
          },
        },
      },
    },
  })
  const ds = createDatastore(NOTES_MODEL, {
    clock: new ManualClock(Date.UTC(2026, 10, 26)),
    data: {
      Note: Array.from({ length: notes }, (_, i) => {
        const owner = OWNERS[Math.floor(i / 3) % OWNERS.length]!
        return { ID: i + 1, owner, text: noteText(owner, i + 1) }
      }),
    },
    functions,
    roles: NOTES_ROLES,
    changeHistory,
  })
  const rest = createRestHandler(ds, {
    authenticate: ({ user, password }) =>
      USERS[user]?.password === password
        ? { name: user, privileges: USERS[user]!.privileges }
        : null,
    loginThrottle: false,
    ...options,
  })
  return {
    ds,
    rest,
    open: () => {
      release()
      gate = newGate()
    },
    runs: () => runs,
    client: async (name) => {
      const client = hostileClient(rest)
      const answer = await client(
        '/rest/$directory/login',
        {},
        { method: 'POST', headers: { 'username-4D': name, 'password-4D': name } },
      )
      if (answer.status !== 200) throw new Error(`login of ${name}: ${answer.status}`)
      return client
    },
  }
}
