/**
 * @module The clients of the views suite (suites/views.bench.ts): a user's login, a session's first
 * read, and the sessions following `Employee/$changes` over server-sent events, each on a
 * connection of its own, counting what they are told.
 */
import { request } from 'node:http'
import type { Subscriber } from './feed-latency.ts'
import { httpClient } from './replication-lag.ts'
import { sseSubscribe } from './sse-client.ts'

/** How long the subscribers may take to hear of one operation. */
const EVENTS_TIMEOUT_MS = 120_000

/** Logs `user` in on a fresh connection: the session's cookie. */
export function login(origin: string, user: { name: string; password: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}/rest/$directory/login`,
      {
        method: 'POST',
        agent: false,
        headers: { 'username-4D': user.name, 'password-4D': user.password },
      },
      (res) => {
        res.resume()
        const cookie = res.headers['set-cookie']?.[0]?.split(';', 1)[0]
        res.on('end', () =>
          res.statusCode === 200 && cookie
            ? resolve(cookie)
            : reject(new Error(`login of ${user.name}: ${res.statusCode}`)),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/**
 * The subscribers and what they were told: `reach(n)` resolves once each has had `n` updates and
 * deletes in all (set before the operation is sent: an event may come before its reply).
 */
export class Followers {
  readonly #counts: number[] = []
  readonly #subs: Subscriber[] = []
  #target = 0
  #behind = 0
  #done: (() => void) | undefined

  async open(origin: string, cookies: readonly string[]): Promise<void> {
    for (const cookie of cookies) {
      const i = this.#counts.push(0) - 1
      const subscribe = sseSubscribe(origin, '/rest/Employee/$changes', { cookie })
      this.#subs.push(subscribe((e) => this.#told(i, e.type)))
    }
    await Promise.all(this.#subs.map((s) => s.ready))
  }

  #told(i: number, type: string): void {
    if (type !== 'updated' && type !== 'deleted') return
    if (++this.#counts[i]! === this.#target && --this.#behind === 0) this.#done?.()
  }

  reach(target: number): Promise<void> {
    this.#target = target
    this.#behind = this.#counts.filter((c) => c < target).length
    if (this.#behind === 0) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.#behind} subscribers missed events of ${target}`)),
        EVENTS_TIMEOUT_MS,
      )
      this.#done = () => {
        clearTimeout(timer)
        this.#done = undefined
        resolve()
      }
    })
  }

  /** The fewest events a subscriber was told. */
  get least(): number {
    return this.#counts.length ? Math.min(...this.#counts) : 0
  }

  get size(): number {
    return this.#subs.length
  }

  close(): void {
    for (const s of this.#subs) s.close()
  }
}

/** A session's first read of Employee (it then holds some: it witnesses their deletions). */
export async function readEmployees(origin: string, cookie: string): Promise<void> {
  const client = httpClient(origin, { fresh: true, cookie })
  const r = await client.send('GET', '/rest/Employee?$top=100&$attributes=ID,lastName')
  if (r.status !== 200) throw new Error(`a read of Employee: ${r.status}`)
}
