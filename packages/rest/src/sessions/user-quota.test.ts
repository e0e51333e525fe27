/**
 * Issue 46, item 6: one user logs the others out. A `creator` logging in over and over filled the
 * session store and evicted the least recently used sessions, an admin's among them, its lock
 * released for someone else. Sessions per user are bounded (`maxSessionsPerUser`): a login past
 * its user's quota evicts that user's own oldest session (or is refused), and a login never evicts
 * another user's session: when only theirs would make room, it is refused (402, 9080).
 * In-process (`rest.request`), on the hostile application of issue 46.
 */
import { describe, expect, it } from 'vitest'
import type { RestHandler } from '../handler.js'
import { HOSTILE_USERS, hostileApp, loggedIn } from '../clients/hostile-app.fixture.js'

/** A cookie-less login of `name` through `$directory/login`: its status and errCode. */
async function login(rest: RestHandler, name: string): Promise<number> {
  const res = await rest.request('/rest/$directory/login', {
    method: 'POST',
    headers: { 'username-4D': name, 'password-4D': HOSTILE_USERS[name]!.password },
  })
  await res.arrayBuffer()
  return res.status
}

/** The session id a client's cookie carries. */
const idOf = (cookie: string | undefined): string | undefined => cookie?.split('=')[1]

describe('one user logging in over and over', () => {
  it("10,050 logins of a creator leave an admin's session logged in and its lock held", async () => {
    const { ds, rest } = hostileApp()
    const root = await loggedIn(rest, 'root')
    expect((await root('/rest/Employee(1)?$lock=true')).json.result).toBe(true)
    const statuses: Record<number, number> = {}
    const started = performance.now()
    for (let i = 0; i < 10_050; i++) {
      const status = await login(rest, 'carl')
      statuses[status] = (statuses[status] ?? 0) + 1
    }
    const ms = performance.now() - started
    console.log(
      `10,050 logins of carl: ${Math.round(ms)} ms, ${Math.round(10_050 / (ms / 1000))} logins/s`,
    )
    // Each login succeeds: past carl's quota, it logs carl's own oldest session out.
    expect(statuses).toEqual({ 200: 10_050 })
    expect(ds.sessions.sessionsOf?.('carl')).toBe(100)
    expect(ds.sessions.counts).toMatchObject({ established: 101, users: 101 })
    // root's session is still there, its lock held: another session is refused it (status 3).
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(idOf(root.cookie()))
    const other = await loggedIn(rest, 'root')
    expect((await other('/rest/Employee(1)?$lock=true')).json).toMatchObject({
      result: false,
      __STATUS: { status: 3 },
    })
    // And root's next request is still logged in.
    expect((await root('/rest/$directory/currentUser')).json.result).toMatchObject({
      userName: 'root',
    })
  })
})

describe('a full store', () => {
  it('a login evicts a session without a user, then its own user’s oldest; never another user’s', async () => {
    const { ds, rest } = hostileApp({}, { maxSessions: 4 })
    const root = await loggedIn(rest, 'root')
    expect((await root('/rest/Employee(1)?$lock=true')).json.result).toBe(true)
    const ann = await loggedIn(rest, 'ann')
    const anonymous = ds.sessions.open() // established without a user (a lock, a login without one)
    const firstCarl = await loggedIn(rest, 'carl') // the fourth
    for (let i = 0; i < 20; i++) expect(await login(rest, 'carl')).toBe(200)
    expect(ds.sessions.peek(anonymous.id)).toBeUndefined() // evicted first
    expect((await firstCarl('/rest/$directory/currentUser')).json.result).toBeNull()
    expect(ds.sessions.counts).toMatchObject({ established: 4, users: 4 })
    expect(ds.sessions.sessionsOf?.('carl')).toBe(2)
    // eve has no session of her own to give up: refused, nobody else logged out.
    const eve = await loggedIn(rest)
    const refused = await eve.login('eve')
    expect(refused.status).toBe(402)
    expect(refused.json.__ERROR[0]).toMatchObject({
      errCode: 9080,
      message: 'Maximum number of sessions has been reached (4)',
    })
    expect((await eve('/rest/$directory/currentUser')).json.result).toBeNull()
    // The same through 4D's login function (setPrivileges with a user name).
    const viaFunction = await eve('/rest/$catalog/authentify', [{ name: 'eve', password: 'eve' }])
    expect(viaFunction.status).toBe(402)
    expect(viaFunction.errCode).toBe(9080)
    expect((await root('/rest/$directory/currentUser')).json.result).toMatchObject({
      userName: 'root',
    })
    expect((await ann('/rest/$directory/currentUser')).json.result).toMatchObject({
      userName: 'ann',
    })
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(idOf(root.cookie()))
    // carl logging in through the function also gives up only his own.
    const carl = await loggedIn(rest)
    expect(
      (await carl('/rest/$catalog/authentify', [{ name: 'carl', password: 'carl' }])).json,
    ).toEqual({ result: true })
    expect(ds.sessions.sessionsOf?.('carl')).toBe(2)
    expect((await root('/rest/$directory/currentUser')).json.result).not.toBeNull()
  })

  it("refuse mode: a login is refused when full, whoever's sessions fill it", async () => {
    const { ds, rest } = hostileApp({}, { maxSessions: 2, whenFull: 'refuse' })
    await loggedIn(rest, 'root')
    await loggedIn(rest, 'carl')
    expect(await login(rest, 'carl')).toBe(402)
    expect(await login(rest, 'ann')).toBe(402)
    expect(ds.sessions.counts).toMatchObject({ established: 2, users: 2 })
  })
})

describe('maxSessionsPerUser', () => {
  it("evicts the user's own least recently used session past it (its locks released)", async () => {
    const { ds, rest } = hostileApp({}, { maxSessionsPerUser: 2 })
    const first = await loggedIn(rest, 'root')
    expect((await first('/rest/Employee(1)?$lock=true')).json.result).toBe(true)
    const second = await loggedIn(rest, 'root')
    await first('/rest/$directory/currentUser') // first is now the more recent of the two
    await loggedIn(rest, 'root')
    expect((await second('/rest/$directory/currentUser')).json.result).toBeNull()
    expect((await first('/rest/$directory/currentUser')).json.result).toMatchObject({
      userName: 'root',
    })
    await loggedIn(rest, 'root') // the third's turn (first was asked for since)
    await loggedIn(rest, 'root') // first's turn: its lock goes with it
    expect((await first('/rest/$directory/currentUser')).json.result).toBeNull()
    expect(ds.locks.holder('Employee', 1)).toBeUndefined()
    expect(ds.sessions.sessionsOf?.('root')).toBe(2)
  })

  it("refuse mode: a login past it is 402 with 9082; other users' logins go on", async () => {
    const { ds, rest } = hostileApp({}, { maxSessionsPerUser: 2, whenFull: 'refuse' })
    const kept = await loggedIn(rest, 'carl')
    await loggedIn(rest, 'carl')
    const third = await loggedIn(rest)
    const refused = await third.login('carl')
    expect(refused.status).toBe(402)
    expect(refused.json.__ERROR[0]).toMatchObject({
      errCode: 9082,
      message: 'Maximum number of sessions per user has been reached (2)',
    })
    expect(await login(rest, 'ann')).toBe(200)
    expect((await kept('/rest/$directory/currentUser')).json.result).toMatchObject({
      userName: 'carl',
    })
    expect(ds.sessions.sessionsOf?.('carl')).toBe(2)
  })
})
