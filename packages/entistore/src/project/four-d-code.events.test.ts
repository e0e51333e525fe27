/**
 * Entity events, restrict and sessions written in 4D, over REST through `serve --project`
 * (test-projects/agency-events): AgencyEntity's constructor and events (docs/ORDA/orda-events.md),
 * Note's `Function event restrict` reading `Session`, DataStore's `authentify` with
 * `Session.setPrivileges`, roles.json's `promote` and `Session.promote`, and a component that is
 * not here (`cs.AIKit`) caught by 4D's `Try`/`Catch`.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { projectCopy, RENTAL, served, type Client, type Reply } from './four-d-rest.fixture.js'

const PROJECT = fileURLToPath(new URL('test-projects/agency-events', import.meta.url))
const DATA = `${PROJECT}/csv`
const serve = () => served(PROJECT, { data: DATA })

const logIn = async (c: Client, name: string): Promise<void> => {
  const r = await c.post('$catalog/authentify', [{ name, password: `${name}-secret` }])
  expect(r.json).toEqual({ result: 'Authentication successful' })
}

/** A write an event refused: 400, the save's status, the event's error first (DBEV). */
function refusedBy(
  reply: Reply,
  status: 7 | 8 | 4,
  error: { readonly errCode: number; readonly message: string },
): void {
  const texts = { 7: 'Mild Validation Error', 8: 'Serious Validation Error', 4: 'Other error' }
  expect(reply.status).toBe(400)
  expect(reply.json.__STATUS).toMatchObject({ status, statusText: texts[status] })
  expect(reply.json.__ERROR[0]).toEqual({ ...error, componentSignature: 'DBEV' })
}

describe('entity events written in 4D, over REST', () => {
  it('runs the constructor, touched, saving (the vector) and afterSave of a create', async () => {
    const post = await serve()
    const ada = post.client()
    await logIn(ada, 'ada')
    const r = await ada.post('Agency?$method=update', {
      name: 'Nice Port',
      address: '2 quai Lunel',
      category: 'sea',
      department: '06',
    })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      name: 'Nice Port',
      status: 'new', // the constructor's; touched address leaves a new agency new
      // 4D's Try/Catch caught the component's error: the local vector of the 7 words.
      vector: { words: 7 },
      vectorSource: 'local: The component "AIKit" is not here: cs.AIKit.OpenAI cannot run',
      updatedBy: 'ada',
    })
    expect((await ada.post('$catalog/log')).json.result.saved).toEqual(['afterSave Agency success'])
  })

  it('saves what saving sets on an update, and recomputes the vector only for the profile', async () => {
    const post = await serve()
    const moved = await post('Agency?$method=update', {
      __KEY: '1',
      __STAMP: 1,
      address: '10 rue Garibaldi',
    })
    expect(moved.status).toBe(200)
    expect(moved.json).toMatchObject({ status: 'moved', vector: { words: 7 } })
    const touched = await post('Agency?$method=update', {
      __KEY: '1',
      __STAMP: moved.json.__STAMP,
      status: 'open',
    })
    // Not a profile attribute: the vector stays as it was.
    expect(touched.json).toMatchObject({ status: 'open', vector: { words: 7 } })
  })

  it("refuses with the 4D error object: validate 7 or 8, saving 4, the event's error first", async () => {
    const post = await serve()
    const noName = await post('Agency?$method=update', { name: '', category: 'city' })
    refusedBy(noName, 7, { errCode: 101, message: 'An agency has a name' })
    expect(noName.json.__ERROR[1]).toMatchObject({ errCode: 1534 })
    const banned = await post('Agency?$method=update', {
      __KEY: '1',
      __STAMP: 1,
      category: 'banned',
    })
    expect(banned.json.__ERROR[0]).toMatchObject({ errCode: 102 })
    expect(banned.json.__STATUS).toMatchObject({
      status: 8,
      statusText: 'Serious Validation Error',
    })
    const zero = await post('Agency?$method=update', { __KEY: '1', __STAMP: 1, department: '00' })
    expect(zero.json.__ERROR[0]).toMatchObject({ errCode: 103 })
    expect(zero.json.__STATUS).toMatchObject({ status: 4, statusText: 'Other error' })
    // Nothing was written.
    expect((await post.client().get('Agency(1)')).json).toMatchObject({
      __STAMP: 1,
      category: 'city',
    })
  })

  it('refuses a whole $atomic batch for one entity its 4D event refuses', async () => {
    const post = await serve()
    const r = await post('Agency?$method=update&$atomic=true', [
      { name: 'Brest', category: 'sea' },
      { __KEY: '1', __STAMP: 1, department: '00' },
    ])
    expect(r.status).toBe(400)
    expect(r.json.__ERROR.map((e: { errCode: number }) => e.errCode)).toContain(103)
    expect((await post.client().get('Agency?$filter="name=Brest"')).json.__COUNT).toBe(0)
  })

  it('runs validateDrop, dropping and afterDrop', async () => {
    const post = await serve()
    const flagship = await post('Agency(2)?$method=delete', {})
    expect(flagship.status).toBe(400)
    expect(flagship.json.__ERROR[0]).toMatchObject({ errCode: 104, componentSignature: 'DBEV' })
    const locked = await post('Agency?$method=update', { __KEY: '1', __STAMP: 1, status: 'locked' })
    expect(locked.status).toBe(200)
    expect((await post('Agency(1)?$method=delete', {})).json.__ERROR[0]).toMatchObject({
      errCode: 105,
    })
    await post('Agency?$method=update', { __KEY: '1', __STAMP: 2, status: 'open' })
    expect((await post('Agency(1)?$method=delete', {})).status).toBe(200)
    expect((await post('$catalog/log')).json.result.dropped).toBe('Lyon Part-Dieu')
  })
})

describe('an entity event written in 4D that raises an error', () => {
  it('fails the write with the 4D error stack, nothing written', async () => {
    const dir = projectCopy(PROJECT, {
      'Project/Sources/Classes/AgencyEntity.4dm': `Class extends Entity

Function event saving($event : Object)
\tthrow(88; "The vector service is down")
`,
    })
    const post = await served(dir, { data: DATA })
    const r = await post('Agency?$method=update', { __KEY: '1', __STAMP: 1, name: 'Lyon' })
    expect(r.status).toBe(422)
    expect(r.json.__STATUS).toMatchObject({ status: 4 })
    expect(r.json.__ERROR[0]).toEqual({
      errCode: 88,
      message: 'The vector service is down',
      componentSignature: 'host',
    })
    expect(r.json.__ERROR[1].message).toMatch(/^Error in AgencyEntity\.saving, line 4 of /)
    expect((await post.client().get('Agency(1)')).json).toMatchObject({
      __STAMP: 1,
      name: 'Lyon Part-Dieu',
    })
  })
})

describe('an event of an attribute the dataclass does not have', () => {
  it('is left out and said at start-up; the other events run', async () => {
    const dir = projectCopy(PROJECT, {
      'Project/Sources/Classes/AgencyEntity.4dm': `Class extends Entity

Function event touched nosuch($event : Object)
\tThis.status:="never"

Function event saving($event : Object)
\tThis.status:="saved"
`,
    })
    const notes: string[] = []
    const post = await served(dir, { data: DATA, notes })
    expect(notes).toContain(
      'entity events of an attribute the dataclass does not have are not run: AgencyEntity: touched nosuch',
    )
    const r = await post('Agency?$method=update', { name: 'Brest' })
    expect(r.json).toMatchObject({ name: 'Brest', status: 'saved' })
  })
})

describe('the car-rental example, with its class files alone', () => {
  it("refuses a negative mileage by CarEntity's validateSave, and saves a good one", async () => {
    const post = await served(RENTAL, { data: `${RENTAL}/csv` })
    const refused = await post('Car?$method=update', { __KEY: '1', __STAMP: 1, mileage: -5 })
    refusedBy(refused, 7, { errCode: 1, message: 'negative mileage' })
    const saved = await post('Car?$method=update', { __KEY: '1', __STAMP: 1, mileage: 42100 })
    expect(saved.json).toMatchObject({ __STAMP: 2, mileage: 42100 })
  })
})

describe("a restrict written in 4D, reading the caller's Session", () => {
  it('narrows every read to what the session may see: own notes, all for an admin', async () => {
    const post = await serve()
    const ada = post.client()
    const root = post.client()
    await logIn(ada, 'ada')
    await logIn(root, 'root')
    expect((await ada.get('Note')).json.__COUNT).toBe(2)
    expect((await ada.get('Note(3)')).status).toBe(404)
    expect((await root.get('Note')).json.__COUNT).toBe(3)
    // A guest has no user name: no note.
    expect((await post.client().get('Note')).json.__COUNT).toBe(0)
  })

  it("keeps an answer of the session's storage to that session alone", async () => {
    const post = await serve()
    const one = post.client()
    const two = post.client()
    await logIn(one, 'ada')
    await logIn(two, 'ada')
    await one.post('$catalog/mute')
    expect((await one.get('Note')).json.__COUNT).toBe(0)
    expect((await two.get('Note')).json.__COUNT).toBe(2)
  })

  it("sees a function's promotion: roles.json's promote, Session.promote and demote", async () => {
    const post = await serve()
    const bob = post.client()
    await logIn(bob, 'bob')
    expect((await bob.get('Note')).json.__COUNT).toBe(1)
    expect((await bob.post('$catalog/auditCount')).json.result).toEqual({
      notes: 3,
      auditor: true,
    })
    expect((await bob.post('$catalog/promotedCount')).json.result).toEqual({
      during: 3,
      after: 1,
      promoted: true,
    })
    expect((await bob.post('$catalog/who')).json.result).toMatchObject({
      user: 'bob',
      admin: false,
      auditor: false,
    })
  })

  it('runs once for the sessions of one view (user and privileges), again for another', async () => {
    const own = readFileSync(`${PROJECT}/Project/Sources/Classes/DataStore.4dm`, 'utf8')
    const dir = projectCopy(PROJECT, {
      'Project/Sources/Classes/DataStore.4dm': `${own}\nexposed Function runs() : Integer\n\treturn Storage.runs\n`,
      'Project/Sources/Classes/Note.4dm': `Class extends DataClass

Function event restrict() -> $result : cs.NoteSelection
\tUse (Storage)
\t\tStorage.runs:=Num(Storage.runs)+1
\tEnd use
\t$result:=This.query("owner = :1"; Session.userName)
`,
    })
    const post = await served(dir, { data: DATA })
    const [one, two, bob] = [post.client(), post.client(), post.client()]
    await logIn(one, 'ada')
    await logIn(two, 'ada')
    await logIn(bob, 'bob')
    for (const c of [one, two, one]) expect((await c.get('Note')).json.__COUNT).toBe(2)
    expect((await one.post('$catalog/runs')).json).toEqual({ result: 1 })
    expect((await bob.get('Note')).json.__COUNT).toBe(1)
    expect((await one.post('$catalog/runs')).json).toEqual({ result: 2 })
  })

  it('fails closed when its code raises: the read fails with the error, nothing is seen', async () => {
    const broken = projectCopy(PROJECT, {
      'Project/Sources/Classes/Note.4dm': `Class extends DataClass

Function event restrict() : cs.NoteSelection
\tthrow(77; "No rule for "+Session.userName)
`,
    })
    const post = await served(broken, { data: DATA })
    const r = await post.client().get('Note')
    expect(r.status).toBe(422)
    expect(r.json.__ENTITIES).toBeUndefined()
    expect(r.json.__ERROR[0]).toEqual({
      errCode: 77,
      message: 'No rule for ',
      componentSignature: 'host',
    })
    expect(r.json.__ERROR[1].message).toContain('Note.restrict')
  })
})

describe('sessions as 4D code sees them', () => {
  it('logs in with authentify and Session.setPrivileges({privileges; roles; userName})', async () => {
    const post = await serve()
    const root = post.client()
    const wrong = await root.post('$catalog/authentify', [{ name: 'root', password: 'x' }])
    expect(wrong.json).toEqual({ result: 'Wrong name or password' })
    expect((await root.post('$catalog/who')).json.result).toMatchObject({ user: '', admin: false })
    await logIn(root, 'root')
    expect((await root.post('$catalog/who')).json.result).toEqual({
      user: 'root',
      reader: false,
      admin: true, // through the role Manager
      auditor: false,
      logins: 1,
      type: 'rest',
    })
  })
})

describe('forceLogin (roles.json) with an authentify written in 4D', () => {
  it('lets a guest call authentify alone, then the session reads as its user', async () => {
    const dir = projectCopy(PROJECT, {
      'Project/Sources/roles.json': JSON.stringify({
        forceLogin: true,
        privileges: [{ privilege: 'reader' }, { privilege: 'admin' }],
        roles: [{ role: 'Manager', privileges: ['admin'] }],
        permissions: { allowed: [] },
      }),
    })
    const post = await served(dir, { data: DATA })
    const ada = post.client()
    const refused = await ada.get('Note')
    expect(refused.status).toBe(401)
    expect((await ada.post('$catalog/who')).status).toBe(401)
    await logIn(ada, 'ada')
    expect((await ada.get('Note')).json.__COUNT).toBe(2)
  })
})

describe('what cannot run here', () => {
  it("raises a 4D error naming the component or command, which 4D's Try/Catch catches", async () => {
    const post = await serve()
    const r = await post('$catalog/unavailable')
    expect(r.status).toBe(200)
    const [component, command, smtp, ui] = r.json.result
    expect(component).toEqual({
      errCode: 9424,
      componentSignature: 'enti',
      message: 'The component "AIKit" is not here: cs.AIKit.OpenAI cannot run',
    })
    // HTTP Request runs, to the hosts --allow-http names: none here.
    expect(command).toMatchObject({
      errCode: 9432,
      message: expect.stringContaining('not allowed'),
    })
    // So does mail, to the hosts --allow-smtp names: none here.
    expect(smtp).toMatchObject({ errCode: 9435, message: expect.stringContaining('not allowed') })
    expect(ui.message).toContain('ALERT')
  })

  it('fails a call that does not catch it with the error stack', async () => {
    const post = await serve()
    const r = await post('$catalog/uncaught')
    expect(r.status).toBe(422)
    expect(JSON.stringify(r.json.__ERROR)).toContain('AIKit')
  })
})
