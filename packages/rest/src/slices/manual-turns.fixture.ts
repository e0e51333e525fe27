/**
 * @module For tests of reads in slices whose turns the test runs itself (the handler's
 * `nextTurn` pushes them on a list): requests, replies, and turns run one at a time, counted.
 */
import type { RestReply, RestRequest } from '../exchange.js'
import { replyText } from '../sync-reply.fixture.js'

/** A GET of `/rest/<path>?<query>`. */
export const get = (path: string, query = '', extra: Partial<RestRequest> = {}): RestRequest => ({
  method: 'GET',
  path: `/rest/${path}`,
  query,
  headers: {},
  ...extra,
})

/** A reply's JSON body. */
export function json(reply: RestReply): Record<string, unknown> {
  return JSON.parse(replyText(reply.body)) as Record<string, unknown>
}

/** Runs the queued turns one at a time until `done()`; returns how many ran. */
export async function runTurns(
  turns: (() => void)[],
  done: () => boolean,
  between?: () => void,
): Promise<number> {
  let ran = 0
  while (!done() && turns.length > 0) {
    turns.shift()!()
    ran++
    between?.()
    // The Promise callbacks of a finished slice run before the next turn.
    await flush()
  }
  return ran
}

/** Lets the Promise callbacks queued so far run. */
export const flush = (): Promise<void> => new Promise((r) => setImmediate(r))

/** What `p` gave, once it has. */
export function settled<T>(p: Promise<T>): { value?: T; done: boolean } {
  const state: { value?: T; done: boolean } = { done: false }
  void p.then((v) => {
    state.value = v
    state.done = true
  })
  return state
}
