/**
 * The session calls of 4D 20 R7 – 21 over HTTP, each from its page in repository 4d/docs:
 * - API/SessionClass.md: `.promote()` / `.demote()` (20 R10), `.createOTP()` / `.restore()` (20 R9),
 *   `.storage`;
 * - WebServer/sessions.md, "Session Token (OTP)": `$4DSID=<token>` in a URL restores the session
 *   that made the token, once, within its lifespan, while that session lives;
 * - REST/$singleton.md and Concepts/classes.md ("Singleton classes"): `session singleton` classes,
 *   one instance per session, their exposed functions called at `/rest/$singleton/{class}/{fn}`.
 * Clients keep their own cookie; time moves on a manual clock.
 */
import {
  createDatastore,
  currentCall,
  defineFunctions,
  ManualClock,
  sessionSingleton,
  singleton,
  use,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import {
  payrollData,
  payrollModel,
  payrollRoles,
} from '../../../core/src/orda/calls/session-calls.fixture.js'
import { createRestHandler } from '../handler.js'

type Json = Record<string, any>

const functions = defineFunctions({
  dataStore: {
    // SessionClass.md, `.promote()`: the privilege for the calling function only.
    payroll: {
      exposed: true,
      call() {
        const call = currentCall()!
        const id = call.promote('payroll')
        const total = call.datastore.dataClass('Employee').all().sum('salary')
        call.demote(id)
        return { id: id > 0, total }
      },
    },
    // WebServer/sessions.md's email validation: a status in the storage, then an OTP.
    startValidation: {
      exposed: true,
      call(lifespan?: number) {
        const call = currentCall()!
        use(call.storage!, (s) => (s.status = { step: 'Waiting for validation email' }))
        return call.createOTP(lifespan)
      },
    },
    whoami: {
      exposed: true,
      onHTTPGet: true,
      call() {
        return currentCall()!.storage?.status?.step ?? null
      },
    },
    // The REST way of the same callback: the token as a parameter, then `Session.restore()`.
    callback: {
      exposed: true,
      onHTTPGet: true,
      params: ['string'],
      call(token: string) {
        const call = currentCall()!
        const restored = call.restore(token)
        return { restored, step: call.storage?.status?.step ?? null }
      },
    },
    writeOutsideUse: {
      exposed: true,
      call() {
        currentCall()!.storage!.step = 'no'
      },
    },
  },
  singletons: {
    Cart: sessionSingleton(() => ({ items: [] as string[] }), {
      add: {
        exposed: true,
        params: ['string'],
        call(item: string) {
          this.items.push(item)
          return this.items
        },
      },
    }),
    Hits: singleton(() => ({ n: 0 }), {
      hit: {
        exposed: true,
        call() {
          return ++this.n
        },
      },
    }),
  },
})

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 2, 10))
  const ds = createDatastore(payrollModel, {
    clock,
    roles: payrollRoles,
    functions,
    data: payrollData(),
  })
  const rest = createRestHandler(ds)
  /** A browser: it keeps the session cookie the replies set. */
  const browser = () => {
    const jar: { cookie?: string } = {}
    const send = async (path: string, method = 'GET', body?: unknown) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (jar.cookie) headers.cookie = jar.cookie
      const res = await rest.request(path, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const set = res.headers.get('set-cookie')?.split(';')[0]
      if (set) jar.cookie = set
      const text = await res.text()
      return { status: res.status, json: JSON.parse(text) as Json, set }
    }
    return {
      get: (path: string) => send(path),
      post: (path: string, body?: unknown) => send(path, 'POST', body),
      get session() {
        return jar.cookie?.split('=')[1]
      },
    }
  }
  return { ds, clock, browser }
}

const errCodes = (json: Json) => (json.__ERROR as { errCode: number }[]).map((e) => e.errCode)

describe('Session.promote() over REST (SessionClass.md, 20 R10)', () => {
  it('gives the calling function the privilege, never the session: the next read is refused', async () => {
    const { browser } = setup()
    const a = browser()
    expect((await a.post('/rest/$catalog/payroll')).json).toEqual({
      result: { id: true, total: 300 },
    })
    const after = await a.get('/rest/Employee?$filter="salary>0"')
    expect([after.status, errCodes(after.json)[0]]).toEqual([403, 1607])
  })
})

describe('OTP tokens and $4DSID (WebServer/sessions.md, "Session Token (OTP)")', () => {
  it('a callback URL with $4DSID=<token> restores the session that made it, its storage, and sets its cookie', async () => {
    const { browser } = setup()
    const a = browser()
    const token = (await a.post('/rest/$catalog/startValidation')).json.result as string
    expect(token).toMatch(/^[0-9A-F]{32}$/)
    // Another device, without a's cookie.
    const phone = browser()
    const callback = await phone.get(`/rest/$catalog/whoami?$4DSID=${token}`)
    expect(callback.json).toEqual({ result: 'Waiting for validation email' })
    expect(phone.session).toBe(a.session)
    // "An OTP token can only be used once": a third device gets a guest session of its own.
    const other = browser()
    expect((await other.get(`/rest/$catalog/whoami?$4DSID=${token}`)).json).toEqual({
      result: null,
    })
    expect(other.session).not.toBe(a.session)
  })

  it('an invalid token leaves the current session unchanged: no cookie is set', async () => {
    const { browser } = setup()
    const a = browser()
    await a.post('/rest/$catalog/startValidation')
    const before = a.session
    const reply = await a.get('/rest/$catalog/whoami?$4DSID=0123456789ABCDEF0123456789ABCDEF')
    expect(reply.json).toEqual({ result: 'Waiting for validation email' })
    expect([reply.set, a.session]).toEqual([undefined, before])
  })

  it('restores nothing once the token’s lifespan or the session itself has expired (Lifespan)', async () => {
    const { browser, clock, ds } = setup()
    const a = browser()
    const short = (await a.post('/rest/$catalog/startValidation', [10])).json.result as string
    const long = (await a.post('/rest/$catalog/startValidation', [3600])).json.result as string
    clock.advance(10_000)
    const late = browser()
    expect((await late.get(`/rest/$catalog/whoami?$4DSID=${short}`)).json.result).toBeNull()
    ds.sessions.close(a.session!)
    const closed = browser()
    expect((await closed.get(`/rest/$catalog/whoami?$4DSID=${long}`)).json.result).toBeNull()
    expect(closed.session).not.toBe(a.session)
  })

  it('a REST callback passes the token in $params and calls Session.restore(): the reply carries the session’s cookie', async () => {
    const { browser } = setup()
    const a = browser()
    const token = (await a.post('/rest/$catalog/startValidation')).json.result as string
    const c = browser()
    await c.get('/rest/$catalog')
    const own = c.session
    const restored = await c.get(`/rest/$catalog/callback?$params='["${token}"]'`)
    expect(restored.json).toEqual({
      result: { restored: true, step: 'Waiting for validation email' },
    })
    expect(c.session).toBe(a.session)
    expect(c.session).not.toBe(own)
    expect((await c.get('/rest/$catalog/whoami')).json.result).toBe('Waiting for validation email')
    // Used: false, the session left as it is.
    expect((await c.post('/rest/$catalog/callback', [token])).json.result).toEqual({
      restored: false,
      step: 'Waiting for validation email',
    })
  })

  it('a lifespan that is not a number is the function’s failure: 422 9151', async () => {
    const { browser } = setup()
    const reply = await browser().post('/rest/$catalog/startValidation', ['soon'])
    expect([reply.status, errCodes(reply.json)[0]]).toEqual([422, 9151])
  })
})

describe('Session.storage over REST (SessionClass.md, .storage)', () => {
  it('is shared by every request of the session, and by no other session', async () => {
    const { browser } = setup()
    const a = browser()
    await a.post('/rest/$catalog/startValidation')
    expect((await a.get('/rest/$catalog/whoami')).json.result).toBe('Waiting for validation email')
    expect((await browser().get('/rest/$catalog/whoami')).json.result).toBeNull()
  })

  it('a write outside use() is refused as 4D refuses a shared object changed outside Use: 422 9150', async () => {
    const { browser } = setup()
    const reply = await browser().post('/rest/$catalog/writeOutsideUse')
    expect([reply.status, errCodes(reply.json)[0]]).toEqual([422, 9150])
  })
})

describe('session singletons over REST ($singleton.md, classes.md, 20 R7)', () => {
  it('one instance per session at /rest/$singleton/{class}/{fn}; a shared singleton stays one', async () => {
    const { browser } = setup()
    const [a, b] = [browser(), browser()]
    await a.post('/rest/$singleton/Cart/add', ['apple'])
    expect((await a.post('/rest/$singleton/Cart/add', ['pear'])).json.result).toEqual([
      'apple',
      'pear',
    ])
    expect((await b.post('/rest/$singleton/Cart/add', ['fig'])).json.result).toEqual(['fig'])
    await a.post('/rest/$singleton/Hits/hit')
    expect((await b.post('/rest/$singleton/Hits/hit')).json.result).toBe(2)
  })
})
