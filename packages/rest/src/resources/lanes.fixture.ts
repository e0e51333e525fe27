/**
 * What the property tests of the quick lanes (read-by-key.ts, one-by-filter.ts) share: the
 * dataclasses beside their own (an alias that keeps an entity off the lanes, a text key, one not
 * exposed), a GET as a transport hands it over, what a client reads of a reply, and the write
 * steps run between the reads, each test with its own update and create.
 */
import fc from 'fast-check'
import type { Datastore, DataSnapshot, ModelJson } from '@entistore/core'
import type { RestReply, RestRequest } from '../exchange.js'
import { replyText } from '../sync-reply.fixture.js'

type DataClassJson = ModelJson['dataClasses'][number]

/** Badge (an alias shows another entity's value: never kept, never a lane's), Tag, Vault. */
export const SIDE_CLASSES: readonly DataClassJson[] = [
  {
    name: 'Badge',
    attributes: [
      { name: 'ID', type: 'long' },
      { name: 'holderID', type: 'long' },
      { name: 'holder', kind: 'relatedEntity', path: 'Employee', foreignKey: 'holderID' },
      { name: 'holderName', kind: 'alias', path: 'holder.name' },
    ],
  },
  {
    name: 'Tag',
    attributes: [
      { name: 'code', type: 'string' },
      { name: 'label', type: 'string' },
    ],
    key: [{ name: 'code' }],
  },
  { name: 'Vault', exposed: false, attributes: [{ name: 'ID', type: 'long', indexed: true }] },
]

/** The side classes' rows: badges of Employee 1 and `holder`. */
export const sideData = (holder: number) => ({
  Badge: [
    { ID: 1, holderID: 1 },
    { ID: 2, holderID: holder },
  ],
  Tag: [
    { code: '7', label: 'seven' },
    { code: 'A1', label: 'a' },
  ],
  Vault: [{ ID: 1 }],
})

/** A GET of `path?query`, with the session cookie when given. */
export const get = (path: string, query = '', cookie?: string): RestRequest => ({
  method: 'GET',
  path,
  query,
  headers: cookie === undefined ? {} : { cookie },
})

/** What a client reads of a reply: all but the session cookie's value. */
export function seen(reply: RestReply) {
  const { 'set-cookie': _cookie, ...headers } = reply.headers
  return { status: reply.status, headers, body: replyText(reply.body) }
}

/** A write between two reads: each test says how it updates and creates an Employee. */
export type WriteStep<U, C> =
  | ({ readonly kind: 'update'; readonly id: number } & U)
  | { readonly kind: 'drop'; readonly id: number }
  | ({ readonly kind: 'create' } & C)
  | { readonly kind: 'snapshot' }
  | { readonly kind: 'restore' }

/** The write steps, with the test's own update and create values, on Employees 1 to `ids`'s. */
export function writeSteps<U, C>(
  update: fc.Arbitrary<U>,
  create: fc.Arbitrary<C>,
  ids: { readonly update: number; readonly drop: number },
): fc.Arbitrary<WriteStep<U, C>> {
  const updated = fc.tuple(fc.integer({ min: 1, max: ids.update }), update)
  return fc.oneof(
    { weight: 2, arbitrary: updated.map(([id, u]) => ({ kind: 'update' as const, id, ...u })) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: ids.drop }).map((id) => ({ kind: 'drop' as const, id })),
    },
    { weight: 1, arbitrary: create.map((c) => ({ kind: 'create' as const, ...c })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'restore' as const }) },
  )
}

/**
 * Runs the write steps on `ds`: `update` and `create` are the test's; a drop deletes the Employee,
 * a snapshot is taken and restored later.
 */
export function writer<U, C>(
  ds: Datastore,
  update: (ds: Datastore, step: { readonly id: number } & U) => void,
  create: (ds: Datastore, step: C) => void,
): (step: WriteStep<U, C>) => void {
  let snapshot: DataSnapshot = ds.snapshot()
  return (step) => {
    if (step.kind === 'update') update(ds, step)
    else if (step.kind === 'drop') ds.dataClass('Employee').get(step.id)?.dropOrFail()
    else if (step.kind === 'create') create(ds, step)
    else if (step.kind === 'snapshot') snapshot = ds.snapshot()
    else ds.restore(snapshot)
  }
}
