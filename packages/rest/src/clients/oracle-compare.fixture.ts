/**
 * @module Issue 61's oracle: how two answers to the same request are made comparable (the real
 * datastore's, as the view; the projected datastore's, with full rights), and what tells them
 * apart, in words a catalogue can group. See oracle.prop.test.ts for the choices.
 */
import type { Answer } from './privileges-send.fixture.js'

/**
 * The refusals for lack of rights (4D's codes) and the errors for a name that does not exist:
 * the first is what the view gets, the second what the projected datastore, which does not hold
 * the name, answers. One class: "refused or unknown".
 */
const REFUSED = new Set([
  1557, 1558, 1559, 1560, 1561, 1607, 1608, 1609,
  // No such dataclass, attribute, function, method.
  1800, 1500, 1501, 1806, 1808, 1810, 1801, 1503,
  // A write of an alias the view may not read: "1516 for an alias, whatever the value"
  // (docs/security.md, "No oracles"), where the projected datastore does not have it.
  1516,
])
/** An entity (1542) or a set (1802; the other set of an algebra, 1820) that is not there: what a hidden one is too. */
const MISSING = new Set([1542, 1802, 1820])

const codesOf = (a: Answer): number[] =>
  ((a.json?.__ERROR ?? []) as { errCode?: number }[]).map((e) => e.errCode ?? 0)

/** The class of an answer: what must be equal on both sides. */
export function classOf(a: Answer): string {
  if (a.status < 300) return 'ok'
  const codes = codesOf(a)
  if (codes.some((c) => REFUSED.has(c))) return 'refused or unknown'
  if (codes.some((c) => MISSING.has(c))) return 'missing'
  return `${a.status} ${codes.join('/') || '(no __ERROR)'}`
}

/**
 * What a refusal names (`Employee.salary`, `Company`), from its first error's message: a
 * catalogue tells the side doors apart by it.
 */
export function refusedName(a: Answer): string | undefined {
  if (classOf(a) !== 'refused or unknown') return undefined
  const message = String(a.json?.__ERROR?.[0]?.message ?? '')
  for (const [pattern, dc, member] of NAMES) {
    const m = pattern.exec(message)
    if (m) return member ? `${m[dc]}.${m[member]}` : m[dc]
  }
  return undefined
}

// 4D's messages (core's errors/err-codes.ts): the dataclass's group, then the member's.
const NAMES: readonly (readonly [RegExp, number, number?])[] = [
  [/The "(\w+)" attribute cannot be found in The "(\w+)" dataclass/, 2, 1],
  [/The "(\w+)" dataclass cannot be found/, 1],
  [/"(\w+)" is not an attribute of (\w+)/, 2, 1],
  [/attribute (\w+) of dataClass (\w+)/, 2, 1],
  [/method (\w+) in dataClass (\w+)/, 2, 1],
  [/method (\w+) in the datastore/, 1],
  [/(?:for the|the) (\w+) dataclass/i, 1],
  [/dataClass (\w+)/, 1],
]

/** Whether two answers are of the same class. */
export function sameClass(real: Answer, projected: Answer): boolean {
  const a = classOf(real)
  const b = classOf(projected)
  if (a === b) return true
  // A refusal and another client error (a sum of texts, 9050) both refuse: which a server checks
  // first is its own business.
  const refusal = (x: string, y: Answer) => NOTHING.has(x) && y.status >= 400 && y.status < 500
  return refusal(a, projected) || refusal(b, real)
}

/**
 * The classes that tell nothing: an entity or a set that is not there for the view, and a name
 * it may not use (a navigation from a hidden entity through a relation the view may not read is
 * either).
 */
const NOTHING = new Set(['refused or unknown', 'missing'])

// What a reply tells of an entity besides its attributes.
const ENVELOPE = new Set(['__KEY', '__STAMP', '__TIMESTAMP', '__STATUS', '__ERROR', 'uri'])

/**
 * A projected answer to a write without what the view may not read: the attributes the projected
 * datastore holds only to be written (`writeOnly`, `*`: every attribute of the dataclass).
 */
export function withoutWriteOnly(
  json: unknown,
  rootDc: string | undefined,
  writeOnly: Readonly<Record<string, ReadonlySet<string>>>,
): unknown {
  if (Array.isArray(json)) return json.map((v) => withoutWriteOnly(v, rootDc, writeOnly))
  if (typeof json !== 'object' || json === null) return json
  const o = json as Record<string, unknown>
  const dc = (o.__DATACLASS ?? o.__entityModel ?? rootDc) as string | undefined
  const hidden = dc === undefined ? undefined : writeOnly[dc]
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) {
    if ('__KEY' in o && hidden && (hidden.has(k) || (hidden.has('*') && !ENVELOPE.has(k)))) continue
    out[k] = k === '__ENTITIES' ? withoutWriteOnly(v, dc, writeOnly) : v
  }
  return out
}

/** What the comparison leaves out or rewrites, given by the run. */
export interface Normalize {
  /** The id of an entity set the projected datastore made, as the real one's (same request). */
  readonly setId?: ((id: string) => string) | undefined
}

const SET_URI = /(\$entityset\/)([0-9A-F]{32})/g

/** `json` with the parts that cannot match replaced (set ids of sets made by this request). */
export function normalized(json: unknown, n: Normalize): unknown {
  if (Array.isArray(json)) return json.map((v) => normalized(v, n))
  if (typeof json === 'string')
    return n.setId ? json.replace(SET_URI, (_, p: string, id: string) => p + n.setId!(id)) : json
  if (typeof json !== 'object' || json === null) return json
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(json)) {
    if (k === '__queryPlan' || k === '__queryPath') out[k] = planOf(v)
    else out[k] = normalized(v, n)
  }
  return out
}

/**
 * A plan or a query path as the oracle compares it: the attribute names it prints and, for a path,
 * the rows each step found (its texts and times may differ: the projected datastore's filter may
 * be written in other words).
 */
function planOf(plan: unknown): unknown {
  const names = new Set<string>()
  const found: unknown[] = []
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk)
    if (typeof v !== 'object' || v === null) return
    for (const [k, x] of Object.entries(v)) {
      if (k === 'description' || k === 'item')
        for (const m of String(x).matchAll(/\b([A-Z]\w*)\.(\w+)/g)) names.add(`${m[1]}.${m[2]}`)
      if (k === 'recordsfounds') found.push(x)
      walk(x)
    }
  }
  walk(plan)
  return { names: [...names].sort(), found }
}

/** The first place two values differ: its path (indexes as []), and both sides. */
export interface Difference {
  readonly path: string
  /** The path with the entity indexes kept, to read. */
  readonly at: string
  readonly real: unknown
  readonly projected: unknown
}

export function firstDifference(
  real: unknown,
  projected: unknown,
  path = '',
  at = '',
): Difference | undefined {
  if (Object.is(real, projected)) return undefined
  const both = (t: string) => typeof real === t && typeof projected === t
  if (
    both('number') &&
    Math.abs((real as number) - (projected as number)) <= 1e-9 * Math.abs(real as number)
  )
    return undefined
  if (Array.isArray(real) && Array.isArray(projected)) {
    for (let i = 0; i < Math.max(real.length, projected.length); i++) {
      const d = firstDifference(real[i], projected[i], `${path}[]`, `${at}[${i}]`)
      if (d) return d
    }
    return undefined
  }
  if (
    both('object') &&
    real !== null &&
    projected !== null &&
    !Array.isArray(real) &&
    !Array.isArray(projected)
  ) {
    const a = real as Record<string, unknown>
    const b = projected as Record<string, unknown>
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${path}.${k}`, `${at}.${k}`)
      if (d) return d
    }
    return undefined
  }
  return { path: path || '(the answer)', at: at || '(the answer)', real, projected }
}

/** A difference in a few stable words (the catalogue's family) and in full. */
export function describeDifference(d: Difference): { kind: string; detail: string } {
  const side =
    d.real === undefined
      ? 'only in the projected answer'
      : d.projected === undefined
        ? 'only in the real answer'
        : 'differs'
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v)?.slice(0, 160))
  return {
    kind: `${d.path} ${side}`,
    detail: `${d.at}: real ${show(d.real)}, projected ${show(d.projected)}`,
  }
}
