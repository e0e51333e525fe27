/**
 * What public 4D and Qodly applications hold that once stopped `serve --project` at start-up or
 * failed at their first create (docs/4d-projects.md), in a small project of our own written their
 * way (test-projects/event-planner): text keys generated as UUIDs, an alias through a to-many
 * relation, computed attributes in every form 4D accepts, getters of an entity and of a selection,
 * a function named like a relation or with a `$`, a relation and a field of one name, two fields
 * of one name, and the change tracking tables. Each is tried over REST, and `check` says what
 * `serve` says.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli, startServe } from '../commands/cli-serve.fixture.js'
import { DOCS, projectCopy, served, type Json } from './four-d-rest.fixture.js'
import { smtpServer } from './smtp-server.fixture.js'

const PLANNER = fileURLToPath(new URL('test-projects/event-planner', import.meta.url))
const UUID = /^[0-9A-F]{32}$/

describe('a project written as public Qodly and 4D applications are', () => {
  it('starts, and its data generator creates every entity with a key the server makes', async () => {
    const notes: string[] = []
    const post = await served(PLANNER, { notes })
    const generated = await post('$catalog/generate', [3])
    expect(generated).toEqual({ status: 200, json: { result: 3 } })
    const client = post.client()
    const events = await client.get('Event?$orderby="title"')
    expect(events.json.__COUNT).toBe(3)
    // 4D's Auto UUID: 32 upper-case hex digits, for a text key marked autosequence (Qodly's)
    // and for a UUID key marked autogenerate alike.
    for (const e of events.json.__ENTITIES as Json[]) expect(e.UUID).toMatch(UUID)
    const employees = await client.get('Employee')
    for (const e of employees.json.__ENTITIES as Json[]) expect(e.ID).toMatch(UUID)
    // A create over REST gives no key either.
    const room = await client.post('Room?$method=update', { label: 'Annex', seats: 12 })
    expect(room.status).toBe(200)
    expect(room.json.__KEY).toMatch(UUID)
  })

  it('serves the alias through a to-many relation as the selection it reaches, and queries it', async () => {
    const post = await served(PLANNER)
    await post('$catalog/generate', [2])
    const client = post.client()
    const catalog = await client.get('$catalog/Event')
    const attendees = (catalog.json.attributes as Json[]).find((a) => a.name === 'attendees')
    expect(attendees).toMatchObject({
      kind: 'alias',
      type: 'EmployeeSelection',
      path: 'inscriptions.employee',
    })
    const first = await client.get('Event?$orderby="title"&$top=1&$attributes=attendees')
    const deferred = first.json.__ENTITIES[0].attendees.__deferred.uri as string
    const reached = await client.get(deferred.replace(/^\/rest\//, ''))
    expect(reached.json.__ENTITIES.map((e: Json) => e.name)).toEqual(['Guest 1'])
    const found = await client.get('Event?$filter="attendees.name=\'Guest 2\'"')
    expect(found.json.__ENTITIES.map((e: Json) => e.title)).toEqual(['Event 2'])
  })

  it('computes attributes declared in each form, getters of an entity and a selection included', async () => {
    const post = await served(PLANNER)
    await post('$catalog/generate', [1])
    const client = post.client()
    const catalog = await client.get('$catalog/Event')
    const typeOf = (name: string): unknown =>
      (catalog.json.attributes as Json[]).find((a) => a.name === name)?.type
    expect([typeOf('info'), typeOf('headline'), typeOf('people'), typeOf('firstAttendee')]).toEqual(
      ['object', 'string', 'EmployeeSelection', 'Employee'],
    )
    const event = (await client.get('Event?$attributes=info,headline,people,firstAttendee')).json
      .__ENTITIES[0] as Json
    expect(event.info).toEqual({ title: 'Event 1', attendees: 1 })
    expect(event.headline).toBe('EVENT 1')
    expect(event.people.__deferred.uri).toMatch(/^\/rest\/Event\[[0-9A-F]{32}\]\/people\?/)
    expect(event.firstAttendee.__deferred.__KEY).toMatch(UUID)
  })

  it('saves nothing when the reply of a create cannot be written (a getter that fails on a null)', async () => {
    const post = await served(PLANNER)
    const client = post.client()
    // `headline` is Uppercase(This.title): with no title, 4D's Uppercase refuses the null.
    const made = await client.post('Event?$method=update', { room: 'Annex' })
    expect(made.status).toBe(422)
    expect(made.json.__ERROR.map((e: Json) => e.errCode)).toEqual([9406, 9100, 1534])
    expect((await client.get('Event')).json.__COUNT).toBe(0)
    // One item of an array alike; the others are saved.
    const batch = await client.post('Event?$method=update', [{ title: 'Kept' }, { room: 'Annex' }])
    expect(batch.json.__ENTITIES.map((e: Json) => e.__ERROR?.[0].errCode ?? e.headline)).toEqual([
      'KEPT',
      9406,
    ])
    expect((await client.get('Event')).json.__COUNT).toBe(1)
  })

  it('calls a function whose name holds a $; leaves out one named like a relation, the relation kept', async () => {
    const post = await served(PLANNER)
    await post('$catalog/generate', [2])
    const client = post.client()
    const catalog = await client.get('$catalog/Event')
    const methods = (catalog.json.methods as Json[]).map((m) => m.name)
    expect(methods).toContain('$upcoming')
    expect(methods).not.toContain('inscriptions')
    const some = await client.get('Event?$top=1&$expand=inscriptions')
    expect(some.json.__ENTITIES[0].inscriptions.__ENTITIES).toHaveLength(1)
  })

  it('keeps the first of two fields of one name, and a field over a relation of its name', async () => {
    const post = await served(PLANNER)
    const catalog = await post.client().get('$catalog/Event')
    const names = (catalog.json.attributes as Json[]).map((a) => a.name)
    expect(names.filter((n) => n === 'weg')).toHaveLength(1)
    expect((catalog.json.attributes as Json[]).find((a) => a.name === 'room')).toMatchObject({
      kind: 'storage',
      type: 'string',
    })
  })

  it('serves the change tracking table, __DeletedRecords, and stamps each change', async () => {
    const post = await served(PLANNER)
    await post('$catalog/generate', [1])
    const client = post.client()
    const event = (await client.get('Event?$attributes=__GlobalStamp')).json.__ENTITIES[0] as Json
    expect(event.__GlobalStamp).toBeGreaterThan(0)
    const dropped = await client.post(`Event(${event.__KEY})?$method=delete`, {})
    expect(dropped.status).toBe(200)
    const deleted = await client.get('__DeletedRecords')
    expect(deleted.json.__ENTITIES).toEqual([
      expect.objectContaining({ __PrimaryKey: event.__KEY, __TableName: 'Event' }),
    ])
  })

  it('makes a thumbnail of a picture and converts it, as the code waits for each', async () => {
    const post = await served(PLANNER)
    expect(await post('$catalog/badge', [16])).toEqual({
      status: 200,
      json: { result: { width: 16, height: 16, jpeg: true } },
    })
  })

  it('hands work to a worker, which runs after the call as the caller, keeping its variables', async () => {
    const post = await served(PLANNER)
    const client = post.client()
    // The call answers before its worker runs; the next request sees the worker's event.
    expect(await post('$catalog/later', ['Later'])).toEqual({ status: 200, json: { result: 0 } })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect((await client.get('Event')).json.__COUNT).toBe(1)
    // A signal's wait runs the jobs queued before it, in order; the worker kept its count.
    expect(await post('$catalog/counted', ['Counted'])).toEqual({
      status: 200,
      json: { result: { before: 1, signaled: true, count: 2, jobs: 2 } },
    })
  })

  it('runs each worker job as the session that queued it, many sessions at once', async () => {
    // Only the planner privilege creates events: a guest's job is refused, a planner's is not,
    // whatever order the jobs of the two sessions run in.
    const guarded = projectCopy(PLANNER, {
      'Project/Sources/roles.json': JSON.stringify({
        privileges: [{ privilege: 'planner', includes: [] }],
        roles: [],
        permissions: {
          allowed: [{ applyTo: 'Event', type: 'dataclass', create: ['planner'] }],
        },
      }),
    })
    const post = await served(guarded)
    const planner = post.client()
    const login = await planner.post('$catalog/authentify', ['ada', 'secret'])
    expect(login.json).toEqual({ result: true })
    const guests = [post.client(), post.client(), post.client()]
    const calls = [
      ...guests.map((g, i) => g.post('$catalog/later', [`Guest ${i}`])),
      planner.post('$catalog/later', ['Planner']),
    ]
    for (const r of await Promise.all(calls)) expect(r.status).toBe(200)
    // One job a turn of the event loop: four turns for the four jobs.
    for (let i = 0; i < calls.length; i++) await new Promise((resolve) => setTimeout(resolve, 0))
    const titles = (await planner.get('Event')).json.__ENTITIES.map((e: Json) => e.title)
    expect(titles).toEqual(['Planner'])
  })

  it('loads a component of its Components folder as 4D does: cs.Notify, its shared method', async () => {
    const post = await served(PLANNER)
    await post('$catalog/generate', [2])
    // The component's classes see its own cs and variables, and the host's ds.
    expect(await post('$catalog/notice', ['Launch'])).toEqual({
      status: 200,
      json: {
        result: {
          text: '[planner] Launch',
          events: 2,
          sent: 1,
          version: 'Notify 1.0',
          hostSent: 100,
        },
      },
    })
  })

  it("holds a component's reads to the caller's view, many sessions at once", async () => {
    // Only the planner privilege reads events: the component's `ds.Event` is the caller's.
    const guarded = projectCopy(PLANNER, {
      'Project/Sources/roles.json': JSON.stringify({
        privileges: [{ privilege: 'planner', includes: [] }],
        roles: [],
        permissions: {
          allowed: [
            { applyTo: 'Event', type: 'dataclass', read: ['planner'], create: ['planner'] },
          ],
        },
      }),
    })
    const post = await served(guarded)
    const planner = post.client()
    expect((await planner.post('$catalog/authentify', ['ada', 'secret'])).json).toEqual({
      result: true,
    })
    await planner.post('$catalog/generate', [2])
    const guests = [post.client(), post.client(), post.client()]
    const replies = await Promise.all([
      ...guests.map((g) => g.post('$catalog/notice', ['Guest'])),
      planner.post('$catalog/notice', ['Planner']),
      ...guests.map((g) => g.post('$catalog/notice', ['Again'])),
    ])
    const planned = replies[3]!
    expect(planned.status).toBe(200)
    expect(planned.json.result.events).toBe(2)
    for (const r of [...replies.slice(0, 3), ...replies.slice(4)]) {
      expect(r.status).not.toBe(200)
      expect(r.json.__ERROR[0]).toMatchObject({ errCode: 1557 })
    }
  })

  it('answers what generic code asks of the server, served by entistore serve', async () => {
    const project = projectCopy(PLANNER, {})
    const s = await startServe(['serve', '--project', project, '--no-explorer', '--quiet'])
    try {
      const r = await fetch(`${s.url}/rest/$catalog/environment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[]',
      })
      expect(await r.json()).toEqual({
        result: {
          // The change tracking table is a table of the structure too.
          tables: ['Event', 'Employee', 'Inscription', 'Room', '__DeletedRecords'],
          during: 1,
          restored: 0,
          started: true,
          port: s.server.port,
          requests: true,
          // "a;b" CRLF "1;2": the break mode asked for.
          bytes: 8,
          chain: [
            {
              type: 'classFunction',
              name: 'DataStore.environment',
              // The statement's first line; the structure's name.
              line: 144,
              database: 'eventPlanner',
            },
          ],
        },
      })
      expect(readFileSync(join(project, 'Data/export.csv'), 'utf8')).toBe('a;b\r\n1;2')
    } finally {
      s.stop()
    }
  })

  it('runs the programs serve --allow-exec names, and no other', async () => {
    const allowed = await served(PLANNER, { allowExec: ['tr'] })
    expect(await allowed('$catalog/shout', ['ready'])).toEqual({
      status: 200,
      json: { result: { out: 'READY', ok: 1, started: true } },
    })
    const closed = await served(PLANNER)
    const refused = await closed('$catalog/shout', ['ready'])
    expect(refused.status).toBe(422)
    expect(refused.json.__ERROR[0]).toMatchObject({ errCode: 9437 })
  })

  it('is checked as it is served: each note at its line, and no failure', async () => {
    const run = await runCli(['check', '--project', PLANNER])
    expect(run.code).toBe(0)
    const lines = run.out.map((l) => (l.startsWith(PLANNER) ? l.slice(PLANNER.length + 1) : l))
    expect(lines).toEqual([
      'Project/Sources/catalog.4DCatalog:18:3: warning: fields named like an earlier field of their table are left out (the first keeps the name): Event.weg',
      'Project/Sources/catalog.4DCatalog:70:2: warning: relation attributes named like another attribute of their table are left out (the other keeps the name): Event.room',
      'Project/Sources/catalog.4DCatalog:70:2: warning: relation attributes named like another attribute of their table are left out (the other keeps the name): Room.events (its N→1 is)',
      'Project/Sources/Classes/EventEntity.4dm:25:1: warning: functions named like an attribute of their dataclass are left out (the attribute keeps the name): Event.inscriptions',
      "Components/Notify.4dbase: not checked: 2 class files of the component Notify, cs.Notify (a component's code is its authors' to check; it runs as 4D runs it)",
      '4 warnings of what is not served as 4D serves it; 5 files of 4D code: no problem',
    ])
  })
})

describe('Session.storage', () => {
  it("returns a shared object kept in the session's storage as its JSON", async () => {
    const post = await served(PLANNER)
    const client = post.client()
    expect(await client.post('$catalog/rememberRole', ['manager'])).toEqual({
      status: 200,
      json: { result: { role: 'manager', rooms: ['Main hall'] } },
    })
  })
})

describe("Qodly's server API for pages (WebFormClass.md, WebFormItemClass.md)", () => {
  it('answers a wrong password false, with the error the page shows (__WEBFORM.__NOTIFICATION)', async () => {
    const post = await served(PLANNER)
    const client = post.client()
    expect(await client.post('$catalog/authentify', ['ada', 'nope'])).toEqual({
      status: 200,
      json: {
        result: false,
        __WEBFORM: { __NOTIFICATION: { message: 'Wrong password for ada', type: 'error' } },
      },
    })
    expect(await client.post('$catalog/authentify', ['ada', 'secret'])).toEqual({
      status: 200,
      json: { result: true },
    })
  })

  it("keeps a handler's writes and tells the page its toast, components and states", async () => {
    const post = await served(PLANNER)
    const reply = await post.client().post('$catalog/publish', ['Launch'])
    expect(reply).toEqual({
      status: 200,
      json: {
        result: { saved: 1, caller: '' },
        __WEBFORM: {
          __NOTIFICATION: { message: 'Published', type: 'message' },
          __COMPONENTS: {
            publishButton: { visible: false },
            banner: { addCSSClass: ['highlight'] },
          },
          __STATES: { enable: ['published'], disable: [] },
        },
      },
    })
  })
})

describe('a roles.json that is not valid JSON', () => {
  it('starts with every dataclass and function closed, and says where the file is wrong', async () => {
    const broken = projectCopy(PLANNER, {
      'Project/Sources/roles.json': '{\n  "privileges": [\n    4. ]\n}\n',
    })
    const notes: string[] = []
    const post = await served(broken, { notes })
    expect(notes).toContainEqual(
      expect.stringMatching(
        /roles\.json:3:\d+: the roles file is not valid JSON: .*; every dataclass, attribute and function is closed until it is fixed/,
      ),
    )
    const client = post.client()
    expect((await client.get('$catalog')).status).toBe(200)
    const read = await client.get('Event')
    expect(read.status).toBeGreaterThanOrEqual(400)
    expect(read.json.__ERROR).toBeDefined()
    expect((await post('$catalog/generate', [1])).json.__ERROR).toBeDefined()
    // check says it at the file's line, as serve does, and does not fail for it.
    const run = await runCli(['check', '--project', broken])
    expect(run.out.join('\n')).toMatch(
      /roles\.json:3:\d+: warning: the roles file is not valid JSON/,
    )
  })
})

describe('forceLogin in roles.json with no authentify function', () => {
  it('starts, refuses guests as 4D does, describes the datastore, and says why', async () => {
    const project = projectCopy(DOCS, {
      'Project/Sources/roles.json': JSON.stringify({
        privileges: [{ privilege: 'staff', includes: [] }],
        roles: [],
        permissions: { allowed: [] },
        forceLogin: true,
      }),
    })
    const notes: string[] = []
    const post = await served(project, { notes })
    const guest = post.client()
    expect((await guest.get('$catalog')).status).toBe(200)
    const read = await guest.get('Employee')
    expect([read.status, read.json.__ERROR[0].errCode]).toEqual([401, 1557])
    expect(notes).toContainEqual(
      expect.stringMatching(/forceLogin is on and no exposed DataStore function authentify/),
    )
  })
})

describe('outgoing mail (SMTP New transporter, `serve --allow-smtp`)', () => {
  it('sends a notice through the server allowed, and answers its status', async () => {
    const server = await smtpServer({ refuse: ['nobody@example.org'] })
    try {
      const post = await served(PLANNER, { allowSmtp: ['127.0.0.1'] })
      expect(await post('$catalog/mailTo', ['ada@example.org', server.port])).toEqual({
        status: 200,
        json: { result: { success: true, status: 250, statusText: '2.0.0 Ok: queued as 42' } },
      })
      const [dialogue] = await server.sessions()
      expect(dialogue).toEqual(
        expect.arrayContaining([
          'C: MAIL FROM:<planner@example.com>',
          'C: RCPT TO:<ada@example.org>',
        ]),
      )
      const data = dialogue!.find((l) => l.startsWith('DATA: '))!
      expect(data).toContain('\r\nFrom: Planner <planner@example.com>\r\n')
      expect(data).toContain('\r\nSubject: Your inscription\r\n')
      expect(data).toContain('\r\n\r\nSee you on Monday.\r\n')
      // A refused recipient is the status the docs give, success False.
      expect(await post('$catalog/mailTo', ['nobody@example.org', server.port])).toEqual({
        status: 200,
        json: {
          result: {
            success: false,
            status: 550,
            statusText: '5.1.1 <nobody@example.org>: Recipient address rejected',
          },
        },
      })
      // None allowed by default: the error Try sees, and no connection.
      const closed = await served(PLANNER)
      expect(await closed('$catalog/mailTo', ['ada@example.org', server.port])).toEqual({
        status: 200,
        json: { result: { error: 9435 } },
      })
      expect(await server.sessions()).toHaveLength(2)
    } finally {
      await server.close()
    }
  })
})
