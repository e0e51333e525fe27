/**
 * @module For tests of entity sets over HTTP (a fixture: not built): the write model on a manual
 * clock behind a handler, and clients that keep their session's cookie, as 4D's clients do: the
 * sets a client makes are its session's, for it to release, remake and find in `$info`.
 */
import { createDatastore, ManualClock, type DatastoreOptions } from '@entistore/core'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler, type RestHandler } from '../handler.js'
import { jsonGetter } from './get.fixture.js'

/** A client of `rest` with a cookie of its own: GET, POST of JSON, and the making of a set. */
export function setsClient(rest: RestHandler) {
  let cookie: string | undefined
  const request: RestHandler['request'] = async (path, init = {}) => {
    const headers = new Headers(init.headers)
    if (cookie) headers.set('cookie', cookie)
    const res = await rest.request(path, { ...init, headers })
    const set = res.headers.get('set-cookie')?.split(';')[0]
    if (set) cookie = set
    return res
  }
  const { get, error } = jsonGetter({ ...rest, request })
  const post = async (path: string, body: unknown = {}) => {
    const res = await request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as any }
  }
  /** Makes a set and returns its id, taken from the last segment of `__ENTITYSET` as clients do. */
  const make = async (path: string): Promise<string> => {
    const { json } = (await get(path)) as { status: number; json: any }
    return (json.__ENTITYSET as string).split('/').at(-1)!
  }
  return { get, error, post, make }
}

/** The write model's data on a manual clock, a handler over it, and one client of it. */
export function setsSetup(options: DatastoreOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 2))
  const ds = createDatastore(writeModel(), { data: writeData(), clock, ...options })
  const rest = createRestHandler(ds)
  return { ds, clock, rest, ...setsClient(rest), client: () => setsClient(rest) }
}
