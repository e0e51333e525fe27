/**
 * examples/helpdesk, the second example project, over REST (`serve --project`, issue 63): an
 * application whose behaviour is all in its class files — a login with bcrypt hashes and roles,
 * restricts reading the session, computed attributes with set/query/orderBy, aliases, entity
 * events, shared and session singletons, a transaction — served with no functions module. Each
 * test is a client's session (its own cookie), as a browser's.
 */
import { fileURLToPath } from 'node:url'
import type { Clock } from '@entistore/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { served, type Client, type Json } from './four-d-rest.fixture.js'

const HELPDESK = fileURLToPath(new URL('../../../../examples/helpdesk', import.meta.url))

/** 2026-12-01, a millisecond later at each reading: `Current date` is that day. */
class DecemberClock implements Clock {
  #t = Date.UTC(2026, 11, 1, 10)
  now(): number {
    return this.#t++
  }
}

type Serve = Awaited<ReturnType<typeof served>>
let serve: Serve
const notes: string[] = []

beforeAll(async () => {
  serve = await served(HELPDESK, { data: `${HELPDESK}/csv`, clock: new DecemberClock(), notes })
})

/** A client logged in with `credentials` (authentify's one parameter). */
async function login(credentials: Json): Promise<Client> {
  const c = serve.client()
  const reply = await c.post('$catalog/authentify', [credentials])
  expect(reply.json).toMatchObject({ result: expect.stringMatching(/^Welcome /) })
  return c
}
const agent = () => login({ login: 'grace', password: 'grace-pass' })
const lead = () => login({ login: 'ada', password: 'ada-pass' })
// Ana is a contact of Acme Tools (company 1).
const customer = () => login({ email: 'ana@acme.example', password: 'ana-pass' })

const keys = (json: Json): string[] => (json.__ENTITIES as Json[]).map((e) => String(e.__KEY))

describe('examples/helpdesk, served from its class files alone', () => {
  it('starts with its code and its roles.json naming only what it has', () => {
    expect(notes).toContain('11 files of 4D code: no problem')
    expect(notes.filter((n) => n.includes('protects nothing'))).toEqual([])
  })

  it('forceLogin: a guest reads nothing; a wrong password is 4D’s error from authentify', async () => {
    const guest = serve.client()
    expect((await guest.get('Ticket')).status).toBe(401)
    const wrong = await guest.post('$catalog/authentify', [{ login: 'ada', password: 'nope' }])
    expect(wrong.json.__ERROR[0]).toMatchObject({
      errCode: 401,
      message: 'Wrong login or password',
    })
    // An inactive agent's right password does not log in either.
    const off = await guest.post('$catalog/authentify', [
      { login: 'edsger', password: 'edsger-pass' },
    ])
    expect(off.json.__ERROR[0].errCode).toBe(401)
  })

  it('authentify verifies the bcrypt hashes it may read only while promoted', async () => {
    const c = await agent()
    expect((await c.get('$catalog/whoAmI')).json.result).toEqual({
      userName: 'Grace Hopper',
      agent: true,
      admin: false,
      customer: false,
    })
    const hash = await c.get('Agent(1)?$attributes=passwordHash')
    expect(hash.json.__ERROR[0].errCode).toBe(1607)
    expect((await (await lead()).get('$catalog/whoAmI')).json.result).toMatchObject({ admin: true })
  })

  it("restrict: an agent sees every ticket, a customer its company's alone", async () => {
    const all = await (await agent()).get('Ticket?$top=0')
    expect(all.json.__COUNT).toBe(48)
    const c = await customer()
    const own = await c.get('Ticket?$attributes=companyName&$top=100')
    expect(own.json.__COUNT).toBeGreaterThan(0)
    expect(own.json.__COUNT).toBeLessThan(48)
    expect(new Set((own.json.__ENTITIES as Json[]).map((e) => e.companyName))).toEqual(
      new Set(['Acme Tools']),
    )
    const other = await (await agent()).get('Ticket?$filter="company.ID=2"&$top=1')
    const foreign = keys(other.json)[0]!
    expect((await c.get(`Ticket(${foreign})`)).status).toBe(404)
    const stats = (await c.get('$catalog/stats')).json.result
    expect(stats.total).toBe(own.json.__COUNT)
    // Contacts: the company's own.
    const contacts = await c.get('Contact?$attributes=fullName,companyName')
    expect(contacts.json.__ENTITIES.map((e: Json) => e.companyName)).toEqual([
      'Acme Tools',
      'Acme Tools',
      'Acme Tools',
    ])
  })

  it('computed attributes: read, filtered by their query function, sorted by their orderBy', async () => {
    const c = await agent()
    const t = await c.get('Ticket(1)?$attributes=label,ageDays,overdue,subject,openedOn')
    expect(t.json.label).toBe(`#1 ${t.json.subject}`)
    expect(typeof t.json.ageDays).toBe('number')
    // overdue = true through its query function, and read on each entity: the same tickets.
    const viaQuery = await c.get('Ticket?$filter="overdue=true"&$top=100&$attributes=overdue')
    expect(viaQuery.json.__COUNT).toBeGreaterThan(0)
    expect((viaQuery.json.__ENTITIES as Json[]).every((e) => e.overdue === true)).toBe(true)
    const every = await c.get('Ticket?$top=100&$attributes=overdue')
    expect(viaQuery.json.__COUNT).toBe(
      (every.json.__ENTITIES as Json[]).filter((e) => e.overdue === true).length,
    )
    const sorted = await c.get('Ticket?$orderby=label desc&$top=3&$attributes=ID')
    expect(keys(sorted.json)).toEqual(['48', '47', '46'])
  })

  it('fullName: written through its setter, searched by its query function, an alias read', async () => {
    const c = await agent()
    const found = await c.get('Contact?$filter="fullName=\'Bo Berg\'"&$attributes=ID,companyName')
    expect(found.json.__ENTITIES).toMatchObject([{ ID: 2, companyName: 'Bluebird Travel' }])
    const oneWord = await c.get('Contact?$filter="fullName=\'Berg\'"&$top=0')
    expect(oneWord.json.__COUNT).toBe(1)
    const renamed = await c.post('Contact?$method=update', [
      { __KEY: '2', fullName: 'Bo  Van Berg' },
    ])
    expect(renamed.json.__ENTITIES[0]).toMatchObject({ firstName: 'Bo', lastName: 'Van Berg' })
    const bad = await c.post('Contact?$method=update', [{ __KEY: '2', email: 'bo.example' }])
    // 4D's answer to a batch update: the entity's status and error stack in its place.
    expect(bad.json.__ENTITIES[0].__STATUS).toMatchObject({ status: 7, success: false })
    expect(bad.json.__ENTITIES[0].__ERROR[0]).toMatchObject({
      errCode: 1003,
      message: 'The email bo.example is not valid',
    })
  })

  it('openTicket: saved with its first message in one transaction, its events filling it in', async () => {
    const c = await customer()
    const before = (await c.get('Ticket?$top=0')).json.__COUNT
    const opened = await c.post('$catalog/openTicket', ['Printer on fire', 'It smokes'])
    expect(opened.json).toMatchObject({
      subject: 'Printer on fire',
      status: 'new',
      priority: 2,
      openedOn: '!!2026-12-01!!',
      companyName: 'Acme Tools',
      label: `#${opened.json.__KEY} Printer on fire`,
      ageDays: 0,
    })
    const messages = await c.get(
      `Ticket(${opened.json.__KEY})/messages?$attributes=body,authorName,sentOn`,
    )
    expect(messages.json.__ENTITIES).toMatchObject([
      { body: 'It smokes', authorName: 'Ana Silva', sentOn: '!!2026-12-01!!' },
    ])
    // A subject of spaces: validateSave refuses it; an empty message: the transaction is cancelled.
    const blank = await c.post('$catalog/openTicket', ['   ', 'x'])
    expect(blank.json.__ERROR[0]).toMatchObject({ errCode: 422 })
    const empty = await c.post('$catalog/openTicket', ['Empty body', ''])
    expect(empty.json.__ERROR[0]).toMatchObject({ message: 'The message is empty' })
    expect((await c.get('Ticket?$top=0')).json.__COUNT).toBe(before + 1)
    expect((await c.get('Ticket?$filter="subject=\'Empty body\'"&$top=0')).json.__COUNT).toBe(0)
  })

  it('close: refused to a customer by roles.json; an agent closes, touched dates it, afterSave audits', async () => {
    const c = await customer()
    const mine = keys((await c.get('Ticket?$filter="status!=\'closed\'"&$top=1')).json)[0]!
    expect((await c.post(`Ticket(${mine})/close`, ['done'])).status).toBe(403)
    const a = await agent()
    expect((await a.post(`Ticket(${mine})/close`, ['Replaced the cable'])).json).toEqual({
      result: { success: true },
    })
    const closed = await a.get(`Ticket(${mine})?$attributes=status,closedOn,resolution,ageDays`)
    expect(closed.json).toMatchObject({
      status: 'closed',
      closedOn: '!!2026-12-01!!',
      resolution: 'Replaced the cable',
    })
    const audit = await (
      await lead()
    ).get(`AuditEntry?$filter="entityKey=${mine}"&$attributes=action,by`)
    expect(audit.json.__ENTITIES).toMatchObject([{ action: 'save', by: 'Grace Hopper' }])
    // AuditEntry is the admin's to read.
    expect((await a.get('AuditEntry')).status).toBe(403)
  })

  it('a ticket with messages is kept: validateDrop refuses its drop', async () => {
    const a = await lead()
    const drop = await a.post('Ticket(1)?$method=delete', {})
    expect(drop.json.__ERROR[0]).toMatchObject({
      errCode: 1002,
      message: 'A ticket with messages cannot be dropped',
    })
    expect((await a.get('Ticket(1)?$attributes=ID')).json.ID).toBe(1)
  })

  it('selection functions: late on a $filter, effort, byAgent', async () => {
    const a = await agent()
    const late = await a.post('Ticket/late?$filter="company.ID=1"', [])
    expect(late.json.__COUNT).toBeGreaterThan(0)
    const effort = await a.post('Ticket/effort?$filter="company.ID=1"', [])
    expect(typeof effort.json.result).toBe('number')
    const byAgent = (await a.post('Ticket/byAgent', [])).json.result as Json[]
    expect(byAgent.length).toBeGreaterThan(0)
    expect(byAgent.map((r) => r.tickets)).toEqual(
      [...byAgent.map((r) => r.tickets)].sort((x, y) => y - x),
    )
  })

  it('reassign takes entities as parameters and saves as the caller', async () => {
    const a = await lead()
    const from = (await a.get('Ticket?$filter="agent.ID=3 and status!=\'closed\'"&$top=0')).json
      .__COUNT
    const moved = await a.post('$catalog/reassign', [
      { __DATACLASS: 'Agent', __ENTITY: true, __KEY: 3 },
      { __DATACLASS: 'Agent', __ENTITY: true, __KEY: 2 },
    ])
    expect(moved.json.result).toBe(from)
    expect(
      (await a.get('Ticket?$filter="agent.ID=3 and status!=\'closed\'"&$top=0')).json.__COUNT,
    ).toBe(0)
  })

  it('singletons: the shared Sla for every session, a Workspace each session', async () => {
    const a = await agent()
    expect((await a.post('$singleton/Sla/days', [])).json.result).toBe(5)
    const refused = await a.post('$singleton/Sla/change', [0])
    expect(refused.json.__ERROR[0]).toMatchObject({ message: 'A service level is one day or more' })
    const first = await a.post('$singleton/Workspace/remember', [
      { __DATACLASS: 'Ticket', __ENTITY: true, __KEY: 7 },
    ])
    expect(first.json.result).toEqual([7])
    await a.post('$singleton/Workspace/remember', [
      { __DATACLASS: 'Ticket', __ENTITY: true, __KEY: 9 },
    ])
    const recent = await a.post('$singleton/Workspace/recentTickets', [])
    expect(keys(recent.json).sort()).toEqual(['7', '9'])
    const other = await agent()
    expect((await other.post('$singleton/Workspace/recentTickets', [])).json.__COUNT).toBe(0)
  })
})
