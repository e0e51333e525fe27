/**
 * A project's 4D code and the sessions of REST (docs/API/SessionClass.md, docs/Concepts/classes.md
 * "Singleton classes"): `Session` is the caller's session — its user and privileges once its
 * `authentify` function set them, its `storage` kept from call to call —; `Storage` is the
 * application's, kept for every client; a session singleton is
 * one instance a session, a shared singleton one for every client; over `/rest/$singleton`, only
 * their exposed functions answer, and a process singleton not at all.
 */
import { describe, expect, it } from 'vitest'
import { DOCS, projectCopy, served } from './four-d-rest.fixture.js'

const DATASTORE = `Class extends DataStoreImplementation

exposed Function authentify($user : Text) : Text
\tSession.setPrivileges({privileges: "reader"; userName: $user})
\treturn Session.userName

exposed Function who() : Object
\treturn {user: Session.userName; reader: Session.hasPrivilege("reader"); \\
\t\tadmin: Session.hasPrivilege("admin"); guest: Session.isGuest()}

exposed Function count() : Integer
	Use (Storage)
		Storage.counter:=Num(Storage.counter)+1
	End use
	return Storage.counter

exposed Function visits() : Integer
\tUse (Session.storage)
\t\tSession.storage.visits:=Num(Session.storage.visits)+1
\tEnd use
\treturn Session.storage.visits
`

const CART = `session singleton Class constructor()
\tThis.items:=New shared collection()

exposed Function add($item : Text) : Collection
\tUse (This.items)
\t\tThis.items.push($item)
\tEnd use
\treturn This.items

Function clear()
\tUse (This.items)
\t\tThis.items.clear()
\tEnd use
`

const COUNTER = `shared singleton Class constructor()
\tThis.hits:=0

exposed Function hit() : Integer
\tUse (This)
\t\tThis.hits+=1
\tEnd use
\treturn This.hits
`

const PROCESS = `singleton Class constructor()

exposed Function ping() : Text
\treturn "pong"
`

const ROLES = JSON.stringify({
  privileges: [{ privilege: 'reader' }, { privilege: 'admin' }],
  roles: [],
  permissions: { allowed: [] },
})

describe("a project's 4D code and the REST sessions", () => {
  const dir = projectCopy(DOCS, {
    'Project/Sources/roles.json': ROLES,
    'Project/Sources/Classes/DataStore.4dm': DATASTORE,
    'Project/Sources/Classes/Cart.4dm': CART,
    'Project/Sources/Classes/Counter.4dm': COUNTER,
    'Project/Sources/Classes/Lonely.4dm': PROCESS,
  })

  it("reads the logged-in user and privileges from Session, the caller's session", async () => {
    const post = await served(dir)
    const ada = post.client()
    const guest = post.client()
    expect((await ada.post('$catalog/authentify', ['ada'])).json).toEqual({ result: 'ada' })
    expect((await ada.post('$catalog/who')).json).toEqual({
      result: { user: 'ada', reader: true, admin: false, guest: false },
    })
    expect((await guest.post('$catalog/who')).json).toEqual({
      result: { user: '', reader: false, admin: false, guest: true },
    })
  })

  it("keeps Session.storage from one call of a session to the next, each session's its own", async () => {
    const post = await served(dir)
    const one = post.client()
    const two = post.client()
    expect((await one.post('$catalog/visits')).json).toEqual({ result: 1 })
    expect((await one.post('$catalog/visits')).json).toEqual({ result: 2 })
    expect((await two.post('$catalog/visits')).json).toEqual({ result: 1 })
  })

  it('keeps Storage from one request to the next, one for the whole application', async () => {
    const post = await served(dir)
    expect((await post.client().post('$catalog/count')).json).toEqual({ result: 1 })
    expect((await post.client().post('$catalog/count')).json).toEqual({ result: 2 })
  })

  it('gives each session its own session singleton, and every client the one shared singleton', async () => {
    const post = await served(dir)
    const one = post.client()
    const two = post.client()
    expect((await one.post('$singleton/Cart/add', ['tea'])).json).toEqual({ result: ['tea'] })
    // A login keeps the session (under a new id): its singleton stays.
    expect((await one.post('$catalog/authentify', ['ada'])).json).toEqual({ result: 'ada' })
    expect((await one.post('$singleton/Cart/add', ['jam'])).json).toEqual({
      result: ['tea', 'jam'],
    })
    expect((await two.post('$singleton/Cart/add', ['milk'])).json).toEqual({ result: ['milk'] })
    expect((await one.post('$singleton/Counter/hit')).json).toEqual({ result: 1 })
    expect((await two.post('$singleton/Counter/hit')).json).toEqual({ result: 2 })
  })

  it('answers only exposed singleton functions, and no process singleton', async () => {
    const post = await served(dir)
    const hidden = await post('$singleton/Cart/clear')
    expect(hidden.status).toBeGreaterThanOrEqual(400)
    expect(hidden.status).toBeLessThan(500)
    expect(hidden.json.__ERROR).toBeDefined()
    const lonely = await post('$singleton/Lonely/ping')
    expect(lonely.status).toBeGreaterThanOrEqual(400)
    expect(lonely.status).toBeLessThan(500)
    const catalog = (await post.client().get('$catalog')).json
    expect(catalog.singletons.map((s: { name: string }) => s.name).sort()).toEqual([
      'Cart',
      'Counter',
    ])
  })
})
