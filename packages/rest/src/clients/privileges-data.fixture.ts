/**
 * @module Issue 46: the data as the attack's expectations see it. A snapshot is read through the
 * TypeScript API outside any request (full rights, no `restrict`); what a session may compute from
 * it is worked out here: the values a path reaches from an entity, which entities a filter selects
 * and in what order, always through the session's `visible` (what its `restrict` lets it see).
 */
import type { Datastore } from '@entistore/core'
import {
  ATTRS,
  DATACLASSES,
  INVERSE,
  numberCanary,
  STORED,
  STRING_CANARY,
  stringCanary,
  yearlyOf,
  type DcName,
} from './privileges-app.fixture.js'
import type { Filter } from './privileges-requests.fixture.js'

export interface Row {
  readonly stamp: number
  /** Stored values (a picture: the canary in its bytes, or null), each to-one relation's key. */
  readonly values: Readonly<Record<string, unknown>>
}
export type Snapshot = Readonly<Record<DcName, ReadonlyMap<number, Row>>>

/** Whether a session's `restrict` lets it see an entity. */
export type Visible = (dc: DcName, key: number) => boolean
export const everything: Visible = () => true

const latin1 = new TextDecoder('latin1')

/** The data, read with full rights. */
export function snapshot(ds: Datastore): Snapshot {
  const out = {} as Record<DcName, Map<number, Row>>
  for (const dc of DATACLASSES) {
    const rows = new Map<number, Row>()
    for (const e of ds.dataClass(dc).all().toArray()) {
      const values: Record<string, unknown> = {}
      for (const a of STORED[dc]) {
        const v = e.get(a) as unknown
        values[a] =
          a !== 'photo' || v === null
            ? v
            : (latin1.decode((v as { bytes: Uint8Array }).bytes).match(STRING_CANARY)?.[0] ??
              'a picture without a canary')
      }
      for (const [a, info] of Object.entries(ATTRS[dc]))
        if (info.kind === 'relatedEntity') {
          const related = e.get(a) as { getKey(): unknown } | null
          values[a] = related === null ? null : Number(related.getKey())
        }
      rows.set(Number(e.getKey()), { stamp: e.getStamp(), values })
    }
    out[dc] = rows
  }
  return out
}

/** What changed between two snapshots, in a few words ('' for nothing). */
export function changes(a: Snapshot, b: Snapshot): string {
  const out: string[] = []
  for (const dc of DATACLASSES) {
    for (const [k, row] of b[dc]) {
      const old = a[dc].get(k)
      if (!old) out.push(`${dc}(${k}) created`)
      else {
        for (const [attr, v] of Object.entries(row.values))
          if (old.values[attr] !== v)
            out.push(`${dc}(${k}).${attr} ${String(old.values[attr])} → ${String(v)}`)
        if (old.stamp !== row.stamp && out.length === 0) out.push(`${dc}(${k}) saved`)
      }
    }
    for (const k of a[dc].keys()) if (!b[dc].has(k)) out.push(`${dc}(${k}) deleted`)
  }
  return out.join('; ')
}

/** A value of the data as a filter or an order reads it. */
export type Val = string | number | null

/**
 * The values `path` reaches from entity `key`: one through to-one steps (null when a link is
 * missing or hidden), any number through a to-many step (hidden entities left out).
 */
export function reach(
  snap: Snapshot,
  dc: DcName,
  key: number,
  path: readonly string[],
  visible: Visible,
): Val[] {
  const row = snap[dc].get(key)
  if (!row) return []
  const [step, ...rest] = path as [string, ...string[]]
  if (step === 'ID') return [key]
  const info = ATTRS[dc][step]!
  switch (info.kind) {
    case 'storage':
      return [(row.values[step] as Val) ?? null]
    case 'calculated':
      return [yearlyOf((row.values.salary as number | null) ?? null)]
    case 'alias': {
      const got = reach(snap, dc, key, info.path!, visible)
      return got.length === 0 ? [null] : got
    }
    case 'relatedEntity': {
      const fk = row.values[step] as number | null
      if (fk === null || !visible(info.target!, fk)) return rest.length ? [] : [null]
      return rest.length ? reach(snap, info.target!, fk, rest, visible) : [fk]
    }
    case 'relatedEntities': {
      const inverse = INVERSE[`${dc}.${step}`]!
      const out: Val[] = []
      for (const [k, r] of snap[info.target!])
        if (r.values[inverse] === key && visible(info.target!, k))
          out.push(...(rest.length ? reach(snap, info.target!, k, rest, visible) : [k]))
      return out
    }
  }
}

/** The dataclass and attribute a path from `dc` ends in (an alias: its target's). */
export function pathEnd(dc: DcName, path: string): { dc: DcName; attr: string } {
  let at = dc
  const steps = path.split('.')
  for (const step of steps.slice(0, -1)) at = ATTRS[at][step]!.target!
  const last = steps.at(-1)!
  const info = ATTRS[at][last]!
  return info.kind === 'alias' ? pathEnd(at, info.path!.join('.')) : { dc: at, attr: last }
}

/** The literal a filter compares with: the canary of its path's last attribute for entity k. */
export function filterValue(dc: DcName, f: Filter): string | number {
  if (f.path === 'ID') return f.k
  const end = pathEnd(dc, f.path)
  if (end.attr === 'yearly') return yearlyOf(numberCanary('Employee', 'salary', f.k))!
  return ATTRS[end.dc][end.attr]!.type === 'number'
    ? numberCanary(end.dc, end.attr, f.k)
    : stringCanary(end.dc, end.attr, f.k)
}

export function filterText(dc: DcName, f: Filter): string {
  const v = filterValue(dc, f)
  return `${f.path} ${f.op} ${typeof v === 'string' ? `'${v}'` : v}`
}

// 4D's `=` compares text without regard to case; a to-many path matches when one value does.
function matches(snap: Snapshot, dc: DcName, key: number, f: Filter, through: Visible): boolean {
  const want = filterValue(dc, f)
  return reach(snap, dc, key, f.path.split('.'), through).some((v) => {
    if (v === null || typeof v !== typeof want) return false
    if (f.op === '=')
      return typeof v === 'string' ? v.toLowerCase() === String(want).toLowerCase() : v === want
    return f.op === '>' ? v > want : v < want
  })
}

/** Whether an `$orderby` path has one value per entity (no to-many step). */
export const sortable = (dc: DcName, path: string): boolean =>
  ATTRS[dc][path.split('.')[0]!]?.kind !== 'relatedEntities'

/**
 * The keys a session that sees `visible` selects from `dc` with `filter`, in `orderby`'s order (key
 * order without one; nulls first ascending, as 4D sorts). `through` is what a filter's and an
 * order's relation paths see: `visible` when they are narrowed by `restrict` (what issue 46 asks),
 * `everything` when they are not (what compat.md documents today for a query's paths).
 */
export function select(
  snap: Snapshot,
  dc: DcName,
  filter: Filter | undefined,
  orderby: string | undefined,
  visible: Visible,
  through: Visible = visible,
): number[] {
  let keys = [...snap[dc].keys()].filter((k) => visible(dc, k)).sort((a, b) => a - b)
  if (filter) keys = keys.filter((k) => matches(snap, dc, k, filter, through))
  if (orderby && sortable(dc, orderby)) {
    const [path, dir] = orderby.split(' ') as [string, string | undefined]
    const value = (k: number) => reach(snap, dc, k, path.split('.'), through)[0] ?? null
    const cmp = (a: number, b: number): number => {
      const x = value(a)
      const y = value(b)
      if (x === y) return 0
      if (x === null) return -1
      if (y === null) return 1
      return x < y ? -1 : 1
    }
    keys = [...keys].sort((a, b) => (dir === 'desc' ? cmp(b, a) : cmp(a, b)) || a - b)
  }
  return keys
}
