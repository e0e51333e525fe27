/**
 * @module Issue 46: what the reference model decides for each request, and what an allowed
 * request's answer must then be.
 *
 * What a request needs is written from docs/security.md ("What each request needs") and
 * docs/compat.md ("Permissions"), in the roles file's words, and asked of the reference model
 * (core's roles-reference.fixture.ts) alone:
 * - a read needs read on its dataclass and on every attribute it names in the path, `$attributes`,
 *   `$expand`, `$filter`, `$orderby`, `$compute`, `$distinct`, a lookup: a relation needs its
 *   dataclass too, an alias its path ("An alias is read along its path"), a computed attribute
 *   what its code reads (its code runs as the caller);
 * - an update needs update on the dataclass and on each attribute set (update needs read); an
 *   alias write is its target's (4D: an alias's own `update` is ignored); an alias or computed
 *   value sent back unchanged, that the session may read, is an echo and needs nothing;
 * - a create needs create on the dataclass and, for each value it sets, the attribute's own
 *   `create` (4D: "create an entity with a non-default value"); never update nor read;
 * - a delete needs drop (and read) on the dataclass;
 * - `$lock` needs read and update; a picture's upload, that the session may write a picture;
 * - a function needs execute (its own entry, else its dataclass's, else the datastore's); one of
 *   entities or selections, read on its dataclass; and its code (FN_NEEDS) what it reads and
 *   writes, with the session's privileges and the function's `promote`;
 * - the entity events run as the caller too (eventNeeds): what they read and set is needed by
 *   every write that runs them.
 * A function's `this` (its entity, its selection) is read as the caller's own view, without the
 * promotion. Where the documents leave a case open, the decision is `either` and only leaks are
 * checked: an attribute's `drop`, an event reading
 * the entity being created, the status of a relation write that names a hidden entity (which must
 * not succeed, though).
 */
import type { RefRoles, RefResource } from '../../../core/src/roles/roles-reference.fixture.js'
import { ATTRS, FUNCTIONS, STORED, type DcName, type FnName } from './privileges-app.fixture.js'
import {
  everything,
  pathEnd,
  reach,
  select,
  sortable,
  type Snapshot,
  type Visible,
} from './privileges-data.fixture.js'
import { WHO, type Filter, type Req, type Who } from './privileges-requests.fixture.js'

/** What a check found wrong. */
export interface Problem {
  /** The check that found it: leak, refusal, works, values, sets (the test turns each on). */
  readonly check: 'leak' | 'refusal' | 'works' | 'values' | 'sets'
  /** A short, stable name of what went wrong: the catalogue groups findings by it. */
  readonly kind: string
  readonly detail: string
}

/** An entity set made by a session, as the test expects it. */
export interface SetRecord {
  readonly id: string
  readonly dc: DcName
  readonly owner: Who
  /** Its members in order, with a filter narrowed by restrict, and with one that is not. */
  readonly keys: readonly number[]
  readonly loose: readonly number[]
  released: boolean
  /** What made it: a reader is asked what that needed (issue 61: a set holds its maker's order). */
  readonly filter: Filter | undefined
  readonly orderby: string | undefined
}

/** What the session is and sees when it sends a request. */
export interface Situation {
  readonly ref: RefRoles
  readonly who: Who
  readonly held: ReadonlySet<string>
  readonly visible: Visible
  /** Whether the session's `restrict` narrows `dc` at all (it may also let everything through). */
  readonly restricted: (dc: DcName) => boolean
  readonly snap: Snapshot
  /** The n-th entity set made so far (by any session). */
  readonly set: (n: number) => SetRecord | undefined
  readonly setById: (id: string) => SetRecord | undefined
}

/** What the model decides for one request. */
export interface Decision {
  /** allow: must work; refuse: must be refused; either: not decided (leaks are still checked). */
  readonly verdict: 'allow' | 'refuse' | 'either'
  /** The codes a refusal may carry. */
  readonly codes: readonly number[]
  /** The privileges the reply is checked against (a function's: with its promotion). */
  readonly rights: ReadonlySet<string>
  /** What an allowed request's answer (below 400) must also be. */
  readonly expect?: ((answer: { status: number; json: any; text: string }) => Problem[]) | undefined
  /** The request releases another session's entity set: answered as one not there. */
  readonly foreign?: boolean
  /** Another status a refusal may have: a write naming an alias is 400 (1516) before anything. */
  readonly alsoOk?: number
  /** What any answer must be, whatever the verdict. */
  readonly always?: ((answer: { status: number; json: any; text: string }) => Problem[]) | undefined
}

export const CODE = {
  readDc: 1557,
  updateDc: 1558,
  createDc: 1559,
  dropDc: 1560,
  execute: 1561,
  readAttr: 1607,
  updateAttr: 1608,
} as const

/** A need of a request, in the roles file's words, with the code 4D refuses it with. */
export interface Need {
  readonly action: 'read' | 'create' | 'update' | 'drop' | 'execute'
  readonly resource: RefResource
  readonly code: number
}

const dcNeed = (action: Need['action'], dc: string, code: number): Need => ({
  action,
  resource: { type: 'dataclass', dataClass: dc },
  code,
})
const attrNeed = (action: Need['action'], dc: string, attribute: string, code: number): Need => ({
  action,
  resource: { type: 'attribute', dataClass: dc, attribute },
  code,
})
const readDc = (dc: string) => dcNeed('read', dc, CODE.readDc)
const readAttr = (dc: string, attr: string) => attrNeed('read', dc, attr, CODE.readAttr)

/**
 * What reading `path` from `dc` needs: each step, a relation's dataclass, an alias's path; for a
 * computed attribute, what its code reads, unless `code` is false: a projection (`$attributes`,
 * `$expand`) leaves out a computed value its code may not read (compat.md) rather than refuse.
 */
export function pathNeeds(dc: DcName, path: string, code = true): Need[] {
  const needs: Need[] = [readDc(dc)]
  let at: DcName | undefined = dc
  for (const step of path.split('.')) {
    const info: (typeof ATTRS)[DcName][string] | undefined = at && ATTRS[at][step]
    if (!at || !info) break
    if (step !== 'ID') needs.push(readAttr(at, step))
    if (info.kind === 'alias') needs.push(...pathNeeds(at, info.path!.join('.'), code))
    // A computed attribute's code runs as the caller: it reads what its code reads (compat.md).
    if (info.kind === 'calculated' && code) needs.push(...COMPUTED_NEEDS[`${at}.${step}`]!)
    at = info.kind === 'relatedEntity' || info.kind === 'relatedEntities' ? info.target : undefined
    if (at) needs.push(readDc(at))
  }
  return needs
}

/** What the code of each computed attribute reads (privileges-app.fixture.ts). */
const COMPUTED_NEEDS: Readonly<Record<string, readonly Need[]>> = {
  'Employee.yearly': [readAttr('Employee', 'salary')],
}

/**
 * What the entity events of privileges-app.fixture.ts need, run as the caller: Employee's
 * validateSave reads `name` at every save; Project's constructor gives `note` a value at every
 * creation (4D: create needs the attribute's `create` for a value that is not null).
 */
function eventNeeds(dc: DcName, creates: boolean): Need[] {
  if (dc === 'Employee' && !creates) return [readAttr('Employee', 'name')]
  if (dc === 'Project' && creates) return [attrNeed('create', 'Project', 'note', CODE.updateAttr)]
  return []
}

/**
 * Whether an event reading the values of an entity being created needs read (create does not):
 * the documents do not say, so where only that refuses, the test does not decide.
 */
const undecidedOnCreate = (dc: DcName): Need[] =>
  dc === 'Employee' ? [readAttr('Employee', 'name')] : []

/** Whether a session holding `held` may see `attr` of `dc` in a reply. */
export const readable = (ref: RefRoles, held: ReadonlySet<string>, dc: DcName, attr: string) =>
  pathNeeds(dc, attr).every((n) => ref.may(held, n.action, n.resource))

/** Whether `attr` itself may be read, whatever its code (a computed attribute's) reads. */
export const readableName = (ref: RefRoles, held: ReadonlySet<string>, dc: DcName, attr: string) =>
  pathNeeds(dc, attr, false).every((n) => ref.may(held, n.action, n.resource))

/** What a function's own code does (privileges-app.fixture.ts), checked as 4D runs it. */
const FN_NEEDS: Readonly<Record<FnName, readonly Need[]>> = {
  'ds.report': [readDc('Project')],
  'ds.cities': [readDc('Company'), readAttr('Company', 'city')],
  'Company.richest': [readDc('Company'), readAttr('Company', 'revenue')],
  'Company.staffOf': [...pathNeeds('Company', 'staff'), readAttr('Company', 'name')],
  'Employee.top': [readDc('Employee'), readAttr('Employee', 'salary')],
  'Employee.total': [readDc('Employee'), readAttr('Employee', 'salary')],
  'Employee.rename': [
    dcNeed('update', 'Employee', CODE.updateDc),
    attrNeed('update', 'Employee', 'name', CODE.updateAttr),
  ],
  'Project.notes': [readDc('Project'), readAttr('Project', 'note')],
}

/** The functions whose code reads an attribute of each entity of a selection it makes. */
const PER_ENTITY: Partial<Record<FnName, { dc: DcName; need: Need }>> = {
  'ds.cities': { dc: 'Company', need: FN_NEEDS['ds.cities'][1]! },
  'Project.notes': { dc: 'Project', need: FN_NEEDS['Project.notes'][1]! },
}

/** The requests that write a body's values: a read refused in them is a write refused. */
const WRITES: ReadonlySet<Req['t']> = new Set(['update', 'create', 'batch', 'attach', 'putPhoto'])

const problem = (kind: string, detail: string): Problem => ({ check: 'values', kind, detail })

/**
 * A count against what the session may compute: a mismatch that is the count with relation paths
 * not narrowed by `restrict` is the choice compat.md documents, and named so.
 */
function counted(what: string, got: unknown, narrowed: number, loose: number): Problem[] {
  if (got === narrowed) return []
  return [
    problem(
      got === loose ? `${what}: a filter through a relation counts what restrict hides` : what,
      `${JSON.stringify(got)}, expected ${narrowed}`,
    ),
  ]
}

/** The model's decision for `req`, sent by the session `s` describes. */
export function decide(req: Req, s: Situation): Decision {
  const { ref, held, visible, snap } = s
  const refusedOf = (rights: ReadonlySet<string>, needs: readonly Need[]) =>
    needs.filter((n) => !ref.may(rights, n.action, n.resource))
  const allow = (expect?: Decision['expect']): Decision => ({
    verdict: 'allow',
    codes: [],
    rights: held,
    expect,
  })
  const either = (rights = held): Decision => ({ verdict: 'either', codes: [], rights })
  const decideNeeds = (needs: readonly Need[], expect?: Decision['expect']): Decision => {
    const refused = refusedOf(held, needs)
    if (refused.length === 0) return allow(expect)
    // A write refused for want of read is refused as a write (update needs read): 1558, 1608.
    const codes = refused.flatMap((n) =>
      !WRITES.has(req.t)
        ? [n.code]
        : n.code === CODE.readDc
          ? [n.code, CODE.updateDc]
          : n.code === CODE.readAttr
            ? [n.code, CODE.updateAttr]
            : [n.code],
    )
    return { verdict: 'refuse', codes, rights: held }
  }
  const filterNeeds = (dc: DcName, f: Filter | undefined, code = true) =>
    f ? pathNeeds(dc, f.path, code) : []
  // Refused only for what a computed attribute's code reads: its code runs per entity, so over no
  // entity the session sees nothing is refused (0, [], an empty page): not decided, leaks checked.
  const decideCode = (
    needs: readonly Need[],
    needsWithoutCode: readonly Need[],
    expect?: Decision['expect'],
  ): Decision => {
    const decided = decideNeeds(needs, expect)
    return decided.verdict === 'refuse' && decideNeeds(needsWithoutCode).verdict !== 'refuse'
      ? either()
      : decided
  }
  const selected = (dc: DcName, f: Filter | undefined, orderby?: string) => ({
    keys: select(snap, dc, f, orderby, visible),
    loose: select(snap, dc, f, orderby, visible, everything),
  })

  switch (req.t) {
    case 'list': {
      const needsOf = (code: boolean) => [
        readDc(req.dc),
        ...(req.attrs ?? []).flatMap((a) => pathNeeds(req.dc, a, false)),
        ...filterNeeds(req.dc, req.filter, code),
        ...(req.orderby ? pathNeeds(req.dc, req.orderby.split(' ')[0]!, code) : []),
        ...(req.expand ? pathNeeds(req.dc, req.expand, false) : []),
      ]
      return decideCode(needsOf(true), needsOf(false), ({ json }) => {
        const { keys, loose } = selected(req.dc, req.filter, req.orderby)
        const out: Problem[] = []
        if (req.form !== 'asArray')
          out.push(...counted('__COUNT', json?.__COUNT, keys.length, loose.length))
        const path = json?.__queryPath?.steps as { recordsfounds?: number }[] | undefined
        const found = path?.at(-1)?.recordsfounds
        if (req.filter && found !== undefined)
          out.push(...counted('__queryPath recordsfounds', found, keys.length, loose.length))
        if (out.length > 0 || req.form === 'looker') return out
        // The page: its size, and the order of a sortable $orderby (by value: ties may swap).
        const skip = req.page?.skip ?? 0
        const top = req.page?.top ?? 100
        const page = keys.slice(skip, skip + top)
        const loosePage = loose.slice(skip, skip + top)
        const entities = (req.form === 'asArray' ? json : json?.__ENTITIES) as
          { __KEY: unknown }[] | undefined
        if (!Array.isArray(entities)) return [problem('entities', 'no __ENTITIES')]
        if (entities.length !== page.length)
          return [
            problem(
              entities.length === loosePage.length
                ? 'the page: a filter through a relation counts what restrict hides'
                : '__SENT',
              `${entities.length} entities sent, expected ${page.length}`,
            ),
          ]
        if (!req.orderby || !sortable(req.dc, req.orderby)) return []
        const steps = req.orderby.split(' ')[0]!.split('.')
        const got = entities.map((e) => Number(e.__KEY))
        const values = (ks: readonly number[], through: Visible) =>
          ks.map((k) => String(reach(snap, req.dc, k, steps, through)[0])).join()
        if (values(got, visible) === values(page, visible)) return []
        return [
          problem(
            values(got, everything) === values(loosePage, everything)
              ? 'order: an $orderby through a relation sorts by what restrict hides'
              : 'order',
            `keys ${got.join(',')}, expected ${page.join(',')}`,
          ),
        ]
      })
    }
    case 'get': {
      const needs = [
        readDc(req.dc),
        ...(req.attrs ?? []).flatMap((a) => pathNeeds(req.dc, a, false)),
        ...(req.expand ? pathNeeds(req.dc, req.expand, false) : []),
      ]
      return decideNeeds(needs, ({ json }) =>
        json?.__KEY === String(req.key)
          ? []
          : [problem('entity', `__KEY ${json?.__KEY}, expected ${req.key}`)],
      )
    }
    case 'lookup':
      return decideNeeds(pathNeeds(req.dc, req.attr))
    case 'nav':
      return decideNeeds(pathNeeds(req.dc, req.rel), ({ json }) => {
        if (ATTRS[req.dc][req.rel]!.kind !== 'relatedEntities') return []
        const narrowed = reach(snap, req.dc, req.key, [req.rel], visible).length
        const loose = reach(snap, req.dc, req.key, [req.rel], everything).length
        return counted('navigation __COUNT', json?.__COUNT, narrowed, loose)
      })
    case 'compute':
    case 'distinct':
      return decideCode(
        [...pathNeeds(req.dc, req.attr), ...filterNeeds(req.dc, req.filter)],
        [...pathNeeds(req.dc, req.attr, false), ...filterNeeds(req.dc, req.filter, false)],
        ({ json }) => aggregated(req, json, snap, visible),
      )
    case 'set':
    case 'algebra':
    case 'release': {
      const set = s.set(req.set)
      const other = req.t === 'algebra' ? s.set(req.other) : undefined
      if (!set) return either()
      // Reading a set asks what its making needed (its filter's and order's paths), as the
      // reader's own query would (issue 61); release and $info ask only the dataclass.
      const making = (rec: SetRecord, code: boolean): Need[] =>
        req.t === 'release'
          ? [readDc(rec.dc)]
          : [
              readDc(rec.dc),
              ...filterNeeds(rec.dc, rec.filter, code),
              ...(rec.orderby ? pathNeeds(rec.dc, rec.orderby.split(' ')[0]!, code) : []),
            ]
      const needs = (code: boolean) => [...making(set, code), ...(other ? making(other, code) : [])]
      const base = decideCode(needs(true), needs(false))
      // Two sets of different dataclasses: 1803 (400) may come first.
      if (base.verdict === 'refuse')
        return other && other.dc !== set.dc ? { ...base, alsoOk: 400 } : base
      if (set.released || other?.released || base.verdict !== 'allow') return either()
      // Issue 46: a set is its session's (its user's) to release; anyone else is answered as for a
      // set that is not there, and the set stays.
      if (req.t === 'release')
        return set.owner === s.who
          ? allow()
          : {
              ...either(),
              foreign: true,
              always: ({ status, json }) =>
                status === 404 && json?.__ERROR?.[0]?.errCode === 1802
                  ? []
                  : [
                      {
                        check: 'sets',
                        kind: "another session's entity set released",
                        detail: `${status}`,
                      },
                    ],
            }
      // Anyone naming a set reads it with their own rights: its owner, the members as made
      // (deleted ones still counted); another session, the live ones its own restrict lets it
      // see now (every dataclass of this application has a restrict: whether a member was
      // deleted is not another session's to learn, issue 61).
      const membersOf = (rec: SetRecord, keys: readonly number[]): readonly number[] =>
        rec.owner === s.who
          ? keys
          : keys.filter((k) => s.snap[rec.dc].has(k) && s.visible(rec.dc, k))
      const setKeys = membersOf(set, set.keys)
      const setLoose = membersOf(set, set.loose)
      return allow(({ json }) => {
        if (req.t === 'set')
          return counted('entity set __COUNT', json?.__COUNT, setKeys.length, setLoose.length)
        if (!other || other.dc !== set.dc) return []
        const result = (a: readonly number[], b: readonly number[]) => {
          const inB = new Set(b)
          return req.op === 'AND'
            ? a.filter((k) => inB.has(k)).length
            : req.op === 'EXCEPT'
              ? a.filter((k) => !inB.has(k)).length
              : req.op === 'OR'
                ? new Set([...a, ...b]).size
                : a.some((k) => inB.has(k))
        }
        const want = result(setKeys, membersOf(other, other.keys))
        const loose = result(setLoose, membersOf(other, other.loose))
        if (typeof want === 'boolean')
          return json === want
            ? []
            : [
                problem(
                  json === loose
                    ? 'INTERSECT: a filter through a relation counts what restrict hides'
                    : 'INTERSECT',
                  `${json}, expected ${want}`,
                ),
              ]
        return counted(`${req.op} __COUNT`, json?.__COUNT, want, loose as number)
      })
    }
    case 'info':
      return allow(({ json }) => {
        const out: Problem[] = []
        for (const e of (json?.entitySet ?? []) as { id: string; dataClass: string }[]) {
          const set = s.setById(e.id)
          if (!ref.may(held, 'read', { type: 'dataclass', dataClass: e.dataClass }))
            out.push({
              check: 'leak',
              kind: '$info lists a set of a dataclass the session may not read',
              detail: `${e.dataClass} ${e.id}`,
            })
          else if (set?.owner !== s.who)
            out.push({
              check: 'sets',
              kind: "$info lists another session's entity set",
              detail: `${e.dataClass} set of ${set ? WHO[set.owner] : 'nobody known'}`,
            })
        }
        return out
      })
    case 'privileges':
      return allow(({ json }) => {
        const want = ref.declared(held)
        const got = ((json?.privileges ?? []) as { privilege: string }[]).map((p) => p.privilege)
        return got.join() === want.join()
          ? []
          : [
              problem(
                '$info/privileges',
                `${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
              ),
            ]
      })
    case 'catalog':
      return allow()
    case 'lock':
      return decideNeeds([readDc(req.dc), dcNeed('update', req.dc, CODE.updateDc)])
    case 'update': {
      const needs: Need[] = [dcNeed('update', req.dc, CODE.updateDc)]
      // Whether the write would reach an entity the session cannot see (through the relation it
      // sets, or the one an alias follows), or name one of a dataclass it may not read.
      let hidden = false
      let unreadable = false
      for (const attr of req.set) {
        const info = ATTRS[req.dc][attr]!
        const fk = info.path && snap[req.dc].get(req.key)?.values[info.path[0]!]
        const related = typeof fk === 'number' ? visible(pathEnd(req.dc, attr).dc, fk) : true
        // compat.md: an alias or computed value sent back unchanged is an echo, skipped, when
        // the session may read it; otherwise it is a write.
        const derived = info.kind === 'alias' || info.kind === 'calculated'
        // (An entity that is not there, or hidden, has no value to echo: the value is a write.)
        const there = snap[req.dc].has(req.key) && visible(req.dc, req.key)
        if (req.guess && derived && there && readable(ref, held, req.dc, attr) && related) continue
        if (info.kind === 'alias') {
          const end = pathEnd(req.dc, attr)
          needs.push(
            ...pathNeeds(req.dc, attr),
            dcNeed('update', end.dc, CODE.updateDc),
            attrNeed('update', end.dc, end.attr, CODE.updateAttr),
          )
          if (!related) hidden = true
        } else {
          // Update needs read: of a computed attribute, what its code reads too.
          if (info.kind !== 'relatedEntity') needs.push(...pathNeeds(req.dc, attr))
          needs.push(attrNeed('update', req.dc, attr, CODE.updateAttr))
          if (info.kind === 'relatedEntity') {
            // compat.md: naming a related entity needs read on its dataclass (1557).
            needs.push(readDc(info.target!))
            if (!ref.may(held, 'read', { type: 'dataclass', dataClass: info.target! }))
              unreadable = true
            else if (!visible(info.target!, req.rel ?? 1)) hidden = true
          }
        }
      }
      needs.push(...eventNeeds(req.dc, false))
      // A write of an alias or computed value is 400 (1516) in this product, before the rest.
      const derived = req.set.some((a) => ['alias', 'calculated'].includes(ATTRS[req.dc][a]!.kind))
      const d = { ...decideNeeds(needs), ...(derived ? { alsoOk: 400 } : {}), ...guessing(req, s) }
      if (d.verdict !== 'allow' || !(hidden || unreadable)) return d
      // An entity restrict hides does not exist for the session, nor does one of a dataclass it
      // may not read: a write that reaches it (rather than 1542) says it exists. The documents
      // give no permission for naming a related entity: the test does not decide the status.
      return {
        ...either(),
        always: ({ status, text }) =>
          status < 300
            ? [
                {
                  check: 'leak',
                  kind: hidden
                    ? 'a relation write reached an entity restrict hides'
                    : 'a relation write named an entity of a dataclass the session may not read',
                  detail: text.slice(0, 200),
                },
              ]
            : [],
      }
    }
    case 'create':
    case 'batch': {
      const d = decideNeeds(
        req.t === 'create'
          ? createNeeds(req.dc, req.set)
          : req.items.flatMap((item) =>
              item.key === undefined
                ? createNeeds(req.dc, item.set)
                : [
                    dcNeed('update', req.dc, CODE.updateDc),
                    ...item.set.map((a) => attrNeed('update', req.dc, a, CODE.updateAttr)),
                    ...relationNeeds(req.dc, item.set),
                    ...eventNeeds(req.dc, false),
                  ],
            ),
      )
      const creates = req.t === 'create' || req.items.some((i) => i.key === undefined)
      return d.verdict === 'allow' && creates && refusedOf(held, undecidedOnCreate(req.dc)).length
        ? either()
        : d
    }
    case 'delete':
    case 'deleteWhere': {
      const keys =
        req.t === 'delete'
          ? [req.key].filter((k) => visible(req.dc, k))
          : select(snap, req.dc, req.filter, undefined, visible)
      const first = decideNeeds([
        ...(req.t === 'deleteWhere' ? filterNeeds(req.dc, req.filter) : []),
        readDc(req.dc),
        dcNeed('drop', req.dc, CODE.dropDc),
      ])
      // 4D's attribute `drop` ("delete a non-null value") may mean deleting an entity that holds
      // one, or clearing the value: where only it refuses, the test does not decide.
      if (first.verdict === 'refuse') return first
      const attributes = keys.flatMap((k) =>
        STORED[req.dc]
          .filter((a) => (snap[req.dc].get(k)?.values[a] ?? null) !== null)
          .map((a) => attrNeed('drop', req.dc, a, CODE.dropDc)),
      )
      return refusedOf(held, attributes).length > 0 ? either() : first
    }
    case 'upload': {
      // Issue 46: an upload is kept for a write; a session that may write no picture may not
      // fill the server's upload store.
      const may =
        ref.may(held, 'update', { type: 'attribute', dataClass: 'Employee', attribute: 'photo' }) ||
        ref.may(held, 'create', { type: 'attribute', dataClass: 'Employee', attribute: 'photo' })
      return may
        ? allow()
        : {
            verdict: 'refuse',
            codes: [CODE.updateDc, CODE.createDc, CODE.updateAttr],
            rights: held,
          }
    }
    case 'attach':
    case 'putPhoto':
      return decideNeeds([
        dcNeed('update', 'Employee', CODE.updateDc),
        attrNeed('update', 'Employee', 'photo', CODE.updateAttr),
        ...eventNeeds('Employee', false),
      ])
    case 'photo':
      return decideNeeds(pathNeeds('Employee', 'photo'))
    case 'call':
      return decideCall(req, s)
  }
}

/**
 * An update that sends an alias or computed attribute the value it has now: answered one way
 * when a guess is right (ignored, 200) and another when it is wrong (400), it tells a value the
 * session may not read, or one of an entity it may not see. Such an answer must not succeed.
 */
function guessing(req: Extract<Req, { t: 'update' }>, s: Situation): Pick<Decision, 'always'> {
  if (!req.guess || !s.snap[req.dc].has(req.key) || !s.visible(req.dc, req.key)) return {}
  const secret = req.set.filter((attr) => {
    const info = ATTRS[req.dc][attr]!
    if (info.kind !== 'alias' && info.kind !== 'calculated') return false
    if (!readable(s.ref, s.held, req.dc, attr)) return true
    // The alias's related entity, hidden by restrict.
    const fk = info.path && s.snap[req.dc].get(req.key)?.values[info.path[0]!]
    return typeof fk === 'number' && !s.visible(pathEnd(req.dc, attr).dc, fk)
  })
  if (secret.length === 0) return {}
  return {
    always: ({ status, text }) =>
      status < 300
        ? [
            {
              check: 'leak',
              kind: `an alias or computed write accepted a guess of a value the session may not see: ${req.dc}.${secret.join(',')}`,
              detail: text.slice(0, 200),
            },
          ]
        : [],
  }
}

/** 4D: create in the dataclass, and each attribute's own `create` for a value that is not null. */
function createNeeds(dc: DcName, set: readonly string[]): Need[] {
  return [
    dcNeed('create', dc, CODE.createDc),
    ...set.map((a) => attrNeed('create', dc, a, CODE.updateAttr)),
    ...relationNeeds(dc, set),
    ...eventNeeds(dc, true),
  ]
}

/** compat.md: a write naming a related entity needs read on its dataclass (1557). */
function relationNeeds(dc: DcName, set: readonly string[]): Need[] {
  return set.flatMap((a) => {
    const info = ATTRS[dc][a]!
    return info.kind === 'relatedEntity' ? [readDc(info.target!)] : []
  })
}

// `$compute` and `$distinct` against the values the session may see.
function aggregated(
  req: Extract<Req, { t: 'compute' | 'distinct' }>,
  json: any,
  snap: Snapshot,
  visible: Visible,
): Problem[] {
  const numeric = ATTRS[req.dc][req.attr]!.type === 'number' || req.attr === 'yearly'
  // What the answer should be over the values a filter selects through `through`.
  const expected = (through: Visible): unknown => {
    const values = select(snap, req.dc, req.filter, undefined, visible, through)
      .map((k) => reach(snap, req.dc, k, [req.attr], visible)[0] ?? null)
      .filter((v): v is string | number => v !== null)
    const nums = values as number[]
    const min = nums.length ? Math.min(...nums) : null
    const max = nums.length ? Math.max(...nums) : null
    if (req.t === 'distinct')
      // Numbers ascending; text in 4D's collation, which the test does not redo: as a set.
      return numeric
        ? [...new Set(nums)].sort((a, b) => a - b).join()
        : [...new Set(values.map(String))].sort().join()
    if (req.op === 'count') return values.length
    if (req.op === 'max') return numeric ? max : undefined
    if (req.op === 'sum') return numeric ? nums.reduce((a, b) => a + b, 0) : undefined
    return numeric ? `${values.length} ${min} ${max}` : values.length
  }
  const got =
    req.t === 'distinct'
      ? Array.isArray(json)
        ? numeric
          ? json.join()
          : json.map(String).sort().join()
        : json
      : req.op === '$all'
        ? numeric
          ? `${json?.[req.attr]?.count} ${json?.[req.attr]?.min} ${json?.[req.attr]?.max}`
          : json?.[req.attr]?.count
        : json
  const want = expected(visible)
  const same = (a: unknown, b: unknown) =>
    a === b ||
    (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= Math.abs(b) * 1e-12)
  if (want === undefined || same(got, want)) return []
  const what = req.t === 'distinct' ? '$distinct' : `$compute ${req.op}`
  return [
    problem(
      same(got, expected(everything))
        ? `${what}: a filter through a relation counts what restrict hides`
        : what,
      `${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
    ),
  ]
}

/**
 * A function: execute with the session's own privileges (a function's entry, else its
 * dataclass's, else the datastore's); for one of entities or selections, read on its dataclass
 * and what its filter names, with the session's own privileges; then its code's needs with the
 * promotion in force.
 */
function decideCall(req: Extract<Req, { t: 'call' }>, s: Situation): Decision {
  const { ref, held } = s
  const info = FUNCTIONS[req.fn]
  const [owner, name] = req.fn.split('.') as [string, string]
  const fn = { type: 'method' as const, dataClass: owner === 'ds' ? '' : owner, name }
  const running = ref.whileRunning(held, fn)
  const refused = (rights: ReadonlySet<string>, needs: readonly Need[]) =>
    needs.filter((n) => !ref.may(rights, n.action, n.resource))
  if (!ref.may(held, 'execute', fn))
    return { verdict: 'refuse', codes: [CODE.execute], rights: held }
  const onItsData = 'dc' in info && (info.kind === 'entity' || info.kind === 'entitySelection')
  const thisNeeds = onItsData
    ? [...pathNeeds(info.dc, 'ID'), ...(req.filter ? pathNeeds(info.dc, req.filter.path) : [])]
    : []
  // The entity or selection is the caller's own view's (docs/security.md, "What a function may
  // do"): the promotion counts from its code on.
  const own = refused(held, thisNeeds)
  if (own.length > 0) return { verdict: 'refuse', codes: own.map((n) => n.code), rights: held }
  const hidden =
    info.kind === 'entity' &&
    !(s.snap[info.dc].has(req.key ?? 1) && s.visible(info.dc, req.key ?? 1))
  if (hidden) return { verdict: 'either', codes: [], rights: running }
  // The code reads an attribute entity by entity: over no entity, it reads nothing.
  const perEntity = PER_ENTITY[req.fn]
  const none =
    perEntity && ![...s.snap[perEntity.dc].keys()].some((k) => s.visible(perEntity.dc, k))
  const code = refused(
    running,
    none ? FN_NEEDS[req.fn].filter((n) => n !== perEntity.need) : FN_NEEDS[req.fn],
  )
  return code.length > 0
    ? { verdict: 'refuse', codes: code.map((n) => n.code), rights: running }
    : { verdict: 'allow', codes: [], rights: running }
}
