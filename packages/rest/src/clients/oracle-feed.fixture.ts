/**
 * @module Issue 61's oracle: the live feed, `$changes`. A stream of server-sent events read to
 * what it has sent so far, and the events a view must be sent: every change since a stamp that it
 * may learn of, as it sees the entity now.
 */
import type { Datastore } from '@entistore/core'
import type { RestStream } from '../exchange.js'
import { describeDifference, firstDifference } from './oracle-compare.fixture.js'
import type { Problem } from './oracle-findings.fixture.js'
import type { Projected } from './oracle-pool.fixture.js'
import type { TrackingReq } from './oracle-requests.fixture.js'
import { sees, type Sight, type View } from './oracle-view.fixture.js'
import { rowName, type Learns } from './oracle-witness.fixture.js'
import { DATACLASSES, type DcName } from './privileges-app.fixture.js'
import { queryOf, sendAs } from './privileges-send.fixture.js'

/** The events a stream has ready now, then closes it (what is sent later is not waited for). */
export async function drain(stream: RestStream): Promise<string> {
  const it = stream[Symbol.asyncIterator]()
  let text = ''
  const idle = Symbol('idle')
  try {
    for (;;) {
      // A turn of the event loop with nothing ready: the stream has sent what it had.
      const next = await Promise.race([
        it.next(),
        new Promise<typeof idle>((resolve) => setImmediate(() => resolve(idle))),
      ])
      if (next === idle || next.done) break
      text += next.value
    }
  } finally {
    stream.close()
  }
  return text
}

/** The events of a stream's text: `{ type, data }` (the `retry:` line and comments left out). */
function events(text: string): { type: string; id: string; data: any }[] {
  return text
    .split('\n\n')
    .filter((b) => b.includes('event:'))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim() ?? ''
      let data: any
      try {
        data = JSON.parse(field('data'))
      } catch {
        data = field('data')
      }
      return { type: field('event'), id: field('id'), data }
    })
}

/**
 * `$changes` from a stamp: every change since that the view may learn of, as it sees the
 * entity now, and nothing else. The changes are the datastore's own feed read with full rights;
 * an entity created or updated is sent if the view sees it now (as the projected datastore
 * answers it); a deletion if the view must learn of it, never if it may not, and either way
 * otherwise (oracle-witness.fixture.ts).
 */
export async function feedProblems(
  real: Datastore,
  req: Extract<TrackingReq, { t: 'changes' }>,
  since: number,
  /** The view, its sight of the data as it is now, and what it may learn of a deletion. */
  view: View,
  sight: Sight,
  learns: (deleted: string) => Learns,
  d: Projected,
  text: string,
  what: string,
): Promise<Problem[]> {
  const full = real.changes({
    dataClasses: req.dc ? [req.dc] : [...DATACLASSES],
    since,
  })
  const all: { type: string; stamp: number; dataClass: string; key: unknown }[] = []
  for (;;) {
    const next = await Promise.race([
      full.next(),
      new Promise<'idle'>((resolve) => setImmediate(() => resolve('idle'))),
    ])
    if (next === 'idle' || next.done) break
    all.push(next.value as never)
  }
  full.close()
  const got = events(text)
  const gotShape = got.map((e) => ({
    type: e.type,
    key: String(e.data?.__KEY ?? ''),
    dc: String(e.data?.__DATACLASS ?? e.data?.__entityModel ?? ''),
  }))
  const line = (e: { type: string; key: string; dc: string }) => `${e.type} ${e.dc}(${e.key})`
  const sent = new Set(gotShape.map(line))
  const want: { type: string; key: string; dc: string; data?: unknown }[] = []
  for (const e of all) {
    const dc = e.dataClass as DcName
    if (e.type === 'reset') {
      want.push({ type: 'reset', key: '', dc: '' })
      continue
    }
    if (!sight.dcs.has(dc)) continue
    const key = Number(e.key)
    if (e.type === 'deleted') {
      const learnt = learns(rowName(dc, key))
      if (learnt === 'must' || (learnt === 'may' && sent.has(`deleted ${dc}(${key})`)))
        want.push({ type: 'deleted', key: String(key), dc })
      continue
    }
    if (!sees(sight, dc, key)) continue
    const entity = await sendAs(d.app.rest, d.cookies, view.who, {
      method: 'GET',
      path: `/rest/${dc}(${key})`,
      query: req.attrs && req.dc ? queryOf({ $attributes: req.attrs.join(',') }) : '',
    })
    want.push({ type: e.type, key: String(key), dc, data: entity.json })
  }
  const shape = (list: { type: string; key: string; dc: string }[]) => list.map(line).join(', ')
  if (shape(gotShape) !== shape(want)) {
    // What differs, in words a catalogue can group: an event too many, or one missing.
    const expected = new Set(want.map(line))
    const extra = gotShape.find((e) => !expected.has(line(e)))
    const missing = want.find((e) => !sent.has(line(e)))
    const kind = extra
      ? extra.type === 'deleted'
        ? 'a deletion of a row the view could not see, sent'
        : extra.type === 'reset'
          ? 'a reset sent'
          : 'an entity the view does not see, sent'
      : missing
        ? missing.type === 'deleted'
          ? 'a deletion of a row the view saw and read, not sent'
          : missing.type === 'reset'
            ? 'no reset sent'
            : 'a change of an entity the view sees, not sent'
        : 'the changes in another order'
    return [
      {
        check: 'feed',
        kind: `${what}: ${kind}`,
        detail: `sent ${shape(gotShape) || 'nothing'}; expected ${shape(want) || 'nothing'}`,
      },
    ]
  }
  for (const [i, w] of want.entries()) {
    if (w.data === undefined) continue
    // The event's __GlobalStamp is its stamp, the entity's own for a tracked dataclass.
    const { __GlobalStamp: _, ...data } = got[i]!.data as Record<string, unknown>
    const { __GlobalStamp: __, ...read } = w.data as Record<string, unknown>
    const diff = firstDifference(data, read)
    if (diff) {
      const { kind, detail } = describeDifference(diff)
      return [{ check: 'feed', kind: `${what}: an entity ${kind}`, detail }]
    }
  }
  return []
}
