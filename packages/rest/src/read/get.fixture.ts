/** @module For tests: GET requests through a handler, read as JSON (a fixture: not built). */
import type { RestHandler } from '../handler.js'

export interface JsonReply {
  readonly status: number
  readonly text: string
  readonly json: unknown
}

/** `get(path)` answers status, text and parsed JSON; `error(path)` the status and first errCode. */
export function jsonGetter(rest: RestHandler) {
  async function get(path: string): Promise<JsonReply> {
    const res = await rest.request(path)
    const text = await res.text()
    return { status: res.status, text, json: JSON.parse(text) as unknown }
  }
  async function error(path: string): Promise<{ status: number; errCode: number | undefined }> {
    const r = await get(path)
    const first = (r.json as { __ERROR?: { errCode: number }[] }).__ERROR?.[0]
    return { status: r.status, errCode: first?.errCode }
  }
  return { get, error }
}
