/**
 * What the REST tests of a project's 4D code share: the car-rental example and the docs' company
 * project, a copy of one with class files of a test's own, and a client of `serve --project`'s
 * REST handler that keeps its session's cookie, as a browser does.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Clock, FunctionsDef } from '@entistore/core'
import type { CodeLimits } from '@entistore/4d'
import { createRestHandler, toFetchHandler } from '@entistore/rest'
import { afterAll, expect } from 'vitest'
import { loadDatastoreFiles } from '../load/load-files.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
export const RENTAL = `${root}examples/car-rental`
/** The docs' company project (Employee, Company), no class file: a folder holding `Project`. */
export const DOCS = fileURLToPath(new URL('test-projects/docs-company', import.meta.url))
/**
 * The class functions of 4D's REST pages (ClassFunctions.md, $singleton.md, $catalog.md) on their
 * structures (City and Zip, Students and Schools, Product), with their data in `csv/`.
 */
export const FUNCTIONS = fileURLToPath(new URL('test-projects/docs-functions', import.meta.url))
/** A project of HTTP request handlers and rules (`HTTPHandlers.json`, `HTTPRules.json`). */
export const WEB_SERVER = fileURLToPath(new URL('test-projects/web-server', import.meta.url))
/** Issue 78's attacks on 4D code: functions that recurse, grow, loop, walk links, backtrack. */
export const HOSTILE = fileURLToPath(new URL('test-projects/hostile', import.meta.url))
/** The same through the code core runs on its own: a restrict and an entity event that loop. */
export const HOSTILE_EVENTS = fileURLToPath(
  new URL('test-projects/hostile-events', import.meta.url),
)

/** A clock one millisecond later at each reading: budgets count readings, not time. */
export class TickingClock implements Clock {
  #t = Date.UTC(2024, 0, 1)
  now(): number {
    return this.#t++
  }
}

export type Json = Record<string, any>

export interface Reply {
  readonly status: number
  readonly json: Json
}

export interface ServeOptions {
  readonly clock?: Clock
  readonly notes?: string[]
  readonly data?: string
  /** A `--functions` module's definitions, given as an object. */
  readonly functions?: FunctionsDef<any>
  /** The hosts its 4D code may send HTTP requests to (`--allow-http`). */
  readonly allowHttp?: readonly string[]
  /** The mail servers its 4D code may send mail through (`--allow-smtp`). */
  readonly allowSmtp?: readonly string[]
  /** The programs its 4D code may run (`--allow-exec`). */
  readonly allowExec?: readonly string[]
  /** The REST handler's query budget. @default 50 */
  readonly queryBudgetMs?: number
  /** The REST handler's slices of reads (0: a slice a step). @default 5 */
  readonly sliceMs?: number
  /** The bounds of its 4D code (`--code-limits`). */
  readonly codeLimits?: Partial<CodeLimits>
}

/** A reply as it came: its status, headers and body's bytes (an OutgoingMessage's). */
export interface RawReply {
  readonly status: number
  readonly headers: Headers
  readonly bytes: Uint8Array
}

/** One client: its session's cookie kept from reply to reply. */
export interface Client {
  post(path: string, body?: unknown): Promise<Reply>
  get(path: string): Promise<Reply>
  /** A GET whose reply is not read as JSON. */
  raw(path: string): Promise<RawReply>
}

/** `serve --project` on `project`; `client()` is a new client (a session of its own). */
export async function served(
  project: string,
  options: ServeOptions = {},
): Promise<Client['post'] & { client(): Client }> {
  const ds = await loadDatastoreFiles({
    project,
    ...(options.data ? { data: options.data } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.functions ? { functions: options.functions } : {}),
    ...(options.allowHttp ? { allowHttp: options.allowHttp } : {}),
    ...(options.allowSmtp ? { allowSmtp: options.allowSmtp } : {}),
    ...(options.allowExec ? { allowExec: options.allowExec } : {}),
    ...(options.codeLimits ? { codeLimits: options.codeLimits } : {}),
    onNote: (n) => options.notes?.push(n),
  })
  const fetch = toFetchHandler(
    createRestHandler(ds, {
      queryBudgetMs: options.queryBudgetMs ?? 50,
      ...(options.sliceMs === undefined ? {} : { sliceMs: options.sliceMs }),
    }),
  )
  const client = (): Client => {
    let cookie = ''
    const request = async (path: string, init: RequestInit): Promise<Response> => {
      const reply = await fetch(
        new Request(`http://localhost/rest/${path}`, {
          ...init,
          headers: cookie === '' ? {} : { cookie },
        }),
      )
      const set = reply.headers.get('set-cookie')
      if (set) cookie = set.split(';')[0]!
      return reply
    }
    const send = async (path: string, init: RequestInit): Promise<Reply> => {
      const reply = await request(path, init)
      return { status: reply.status, json: (await reply.json()) as Json }
    }
    return {
      post: (path, body = []) => send(path, { method: 'POST', body: JSON.stringify(body) }),
      get: (path) => send(path, { method: 'GET' }),
      raw: async (path) => {
        const reply = await request(path, { method: 'GET' })
        const bytes = new Uint8Array(await reply.arrayBuffer())
        return { status: reply.status, headers: reply.headers, bytes }
      },
    }
  }
  const first = client()
  return Object.assign((path: string, body?: unknown) => first.post(path, body), { client })
}

/**
 * A copy of the project folder `from` (the folder holding `Project`) with `files` written in it
 * by their paths (`Project/Sources/Classes/Probe.4dm`), removed after the file's tests.
 */
export function projectCopy(from: string, files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'entistore-4d-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(from, dir, { recursive: true })
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

/** The 4D error codes of an `__ERROR` reply, in its order. */
export const errCodes = (json: Record<string, any>): number[] =>
  (json.__ERROR as { errCode: number }[]).map((e) => e.errCode)

/**
 * A heavy request, then a light one sent `turns` turns of the event loop later (`setImmediate`),
 * each reply, and the order they were answered in. A server that runs the heavy one in one piece
 * runs no turn until it ends, so the light one is sent, and answered, after it; one that runs it
 * in slices, a slice a turn, answers the light one first when the heavy one needs more slices.
 * Counted in turns, not in milliseconds: the same on a busy machine.
 */
export async function answeredBeside(
  heavy: () => Promise<Reply>,
  light: () => Promise<Reply>,
  turns = 2,
): Promise<{ order: string[]; heavy: Reply; light: Reply }> {
  const order: string[] = []
  const long = heavy().then((r) => (order.push('heavy'), r))
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve))
  const short = light().then((r) => (order.push('light'), r))
  const [h, l] = await Promise.all([long, short])
  return { order, heavy: h, light: l }
}

/**
 * A guest and another client of a copy of the project `from`, served with a request budget of 2 s,
 * its data made by its DataStore functions `seeds` (`{ seed: 10, seedTasks: 3 }`, each answering
 * the count it made): what the hostile tests set up before each of their attacks.
 */
export async function besideClients(
  from: string,
  seeds: Readonly<Record<string, number>>,
): Promise<{ guest: Client; other: Client }> {
  const serve = await served(projectCopy(from, {}), { queryBudgetMs: 2_000 })
  const guest = serve.client()
  const other = serve.client()
  for (const [fn, n] of Object.entries(seeds))
    expect((await guest.post(`$catalog/${fn}`, [n])).json.result).toBe(n)
  return { guest, other }
}
