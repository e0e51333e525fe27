/**
 * @module Issue 61's oracle: one run of a generated case. The real application is built once for
 * the case's roles file and restricts; each step's request is sent to it as its client, and the
 * same request to the projected datastore of the step's view (oracle-view.fixture.ts), as the
 * same client, with full rights to read. The two answers are compared (oracle-compare.fixture.ts),
 * and for a write what each stored (oracle-writes.fixture.ts). The design is at the top of
 * oracle.prop.test.ts.
 */
import type { DataFile } from '@entistore/core'
import { RefRoles } from '../../../core/src/roles/roles-reference.fixture.js'
import { isStream } from '../exchange.js'
import {
  CITY_PATH,
  DELETED,
  NUMBER_OF,
  oracleFunctions,
  ORACLE_ATTRS,
  ORACLE_MODEL,
  restrictsOf,
} from './oracle-app.fixture.js'
import {
  classOf,
  describeDifference,
  firstDifference,
  normalized,
  refusedName,
  sameClass,
  withoutWriteOnly,
  type Normalize,
} from './oracle-compare.fixture.js'
import { drain, feedProblems } from './oracle-feed.fixture.js'
import {
  named,
  ORACLE_CHECKS,
  type OracleCheck,
  type OracleFinding,
  type Problem,
} from './oracle-findings.fixture.js'
import { ownerIn, poolStats, projected, type Projected } from './oracle-pool.fixture.js'
import {
  filterText,
  type OracleCase,
  type OracleReq,
  type OracleStep,
  type TrackingReq,
} from './oracle-requests.fixture.js'
import {
  fnResource,
  projectedData,
  projectionOf,
  readRows,
  sees,
  sightOf,
  TABLES,
  type FullRow,
  type FullRows,
  type Projection,
  type Sight,
  type View,
} from './oracle-view.fixture.js'
import { deletedRows, effectProblems, rowChanges, storedProblems } from './oracle-writes.fixture.js'
import {
  appOf,
  DATACLASSES,
  numberCanary,
  stringCanary,
  yearlyOf,
  type DcName,
  type PrivApp,
} from './privileges-app.fixture.js'
import { endpoint, WHO, type Who } from './privileges-requests.fixture.js'
import {
  logInAll,
  queryOf,
  sendAs,
  sentOf,
  shown,
  type Answer,
  type Sent,
} from './privileges-send.fixture.js'

// ---- a run

/** The real datastore's counters, which a projected one is given. */
interface Counters {
  readonly stamp: number
  /** The last autosequence key used, per table. */
  readonly sequences: Readonly<Record<string, number>>
  /** The application's counter of values its events make. */
  readonly notes: number
}

interface SetRecord {
  readonly id: string
  readonly dc: DcName
  readonly owner: Who
  /** Its members as made, in order, read with full rights. */
  readonly keys: readonly number[]
  released: boolean
}

let runs = 0

export class OracleRun {
  readonly case: OracleCase
  readonly ref: RefRoles
  readonly real: PrivApp
  readonly findings: OracleFinding[] = []
  /**
   * How many requests the real datastore answered 2xx or not, how many stored something, and how
   * many answers the projected datastore could not give (`blind`).
   */
  readonly stats = { ok: 0, refused: 0, writes: 0, blind: 0 }
  readonly #checks: ReadonlySet<OracleCheck>
  readonly #notes = { next: 0 }
  readonly #cookies: (string | undefined)[] = [undefined, undefined, undefined, undefined]
  /** Each client's own privileges (the reference model's answer). */
  readonly #own: readonly ReadonlySet<string>[]
  readonly #sets: SetRecord[] = []
  /**
   * Who witnessed each deletion, by the deleted row (`Employee(3)`: a key is never given again):
   * the clients whose own view saw the row just before it.
   */
  readonly #witnesses = new Map<string, ReadonlySet<Who>>()
  /** Each client's last promoted call, and the global stamp after it. */
  readonly #promoted: ({ view: View; stamp: number } | undefined)[] = []
  /** The global stamps seen after each step, for `$since` and `setGlobalStamp`. */
  readonly #stamps: number[] = [0]
  #fresh = 0
  readonly #log: string[] = []
  /** The data as it is now, read with full rights after each step that may have written. */
  #rows: FullRows
  /** Counts the changes of what a projected datastore is loaded from: data, sets, witnesses. */
  #version = 0
  readonly #projections = new Map<string, Projection>()
  /** Tells this run's projected datastores from another run's in the pool. */
  readonly #id = `${++runs}`

  constructor(c: OracleCase, checks: Iterable<OracleCheck> = ORACLE_CHECKS) {
    this.case = c
    this.ref = new RefRoles(c.roles.file)
    this.real = appOf(
      ORACLE_MODEL,
      oracleFunctions(restrictsOf(c.restricts, c.current), this.#notes),
      c.roles.file,
      c.users,
    )
    this.#own = [...c.users.map((u) => this.ref.held(u)), this.ref.held({})]
    this.#checks = new Set(checks)
    this.#rows = readRows(this.real.ds)
  }

  /** Logs the users in, then sends every step; `stopAtFirst`: until a check fails. */
  async run(stopAtFirst = false): Promise<OracleFinding[]> {
    await logInAll(this.real.rest, this.#cookies)
    for (const [i, step] of this.case.steps.entries()) {
      await this.#step(i, step)
      if (stopAtFirst && this.findings.length > 0) break
    }
    return this.findings
  }

  /** The view a step's request is answered as: a call's includes its function's promotion. */
  #view(who: Who, req: OracleReq): View {
    const own = this.#own[who]!
    const held = req.t === 'call' ? this.ref.whileRunning(own, fnResource(req.fn)) : own
    return { who, held, own }
  }

  // Fresh canaries (written values): strings by a counter, numbers in the key slot 999.
  #freshValue(dc: DcName, attr: string): string | number {
    const n = ++this.#fresh
    if (attr === 'yearly') return yearlyOf(numberCanary('Employee', 'salary', 999, n))!
    if (attr === 'band') return String(numberCanary('Employee', 'salary', 999, n))
    if (attr === 'payInput') return numberCanary('Employee', 'salary', 999, n)
    return ORACLE_ATTRS[dc][attr]!.type === 'number'
      ? numberCanary(dc, attr, 999, n)
      : stringCanary(dc, attr, `w${n}`)
  }

  #stampAt(n: number): number {
    return this.#stamps[n % this.#stamps.length]!
  }

  /** The request as sent (the same text to both datastores). */
  #sent(req: OracleReq, rows: FullRows): { sent: Sent; rootDc?: DcName | undefined } {
    switch (req.t) {
      case 'deleted':
        return {
          sent: {
            method: 'GET',
            path: `/rest/${DELETED}`,
            query: queryOf({
              $filter:
                req.dc === undefined && req.since === undefined
                  ? undefined
                  : `"__Stamp>${this.#stampAt(req.since ?? 0)}${req.dc ? ` AND __TableName='${req.dc}'` : ''}"`,
              $orderby: '__Stamp',
            }),
          },
        }
      case 'changes':
        return {
          sent: {
            method: 'GET',
            path: req.dc ? `/rest/${req.dc}/$changes` : '/rest/$changes',
            query: queryOf({
              $dataClasses: req.dc ? undefined : DATACLASSES.join(','),
              $since: String(this.#stampAt(req.since)),
              $attributes: req.dc ? req.attrs?.join(',') : undefined,
            }),
          },
        }
      case 'stamp':
        return {
          sent:
            req.set === undefined
              ? { method: 'GET', path: '/rest/$catalog/getGlobalStamp', query: '' }
              : {
                  method: 'POST',
                  path: '/rest/$catalog/setGlobalStamp',
                  query: '',
                  body: JSON.stringify([this.#stampAt(req.set)]),
                },
        }
      default:
        return sentOf(req, {
          setAt: (n) => (this.#sets.length ? this.#sets[n % this.#sets.length] : undefined),
          uploadAt: () => undefined,
          fresh: (dc, attr) => this.#freshValue(dc, attr),
          next: () => ++this.#fresh,
          current: (dc, key, attr) => rows[dc].get(key)?.values[attr],
          filterText,
          attrs: ORACLE_ATTRS,
        })
    }
  }

  /** The real datastore's counters now: what the next change, key and event value take. */
  #counters(): Counters {
    const sequences: Record<string, number> = {}
    for (const dc of TABLES) sequences[dc] = this.real.ds.dataClass(dc).table.peekSequence('ID') - 1
    return { stamp: this.real.ds.globalStamp, sequences, notes: this.#notes.next }
  }

  /** Makes the projected datastore of `view` hold what it may read of `rows`, counters `at`. */
  async #project(view: View, sight: Sight, rows: FullRows, at: Counters, creates: boolean) {
    const projection = this.#projection(view, sight, creates)
    const d = await projected(projection)
    const holds = `${this.#id} ${this.#version} ${at.stamp} ${view.who} ${visibleKey(sight)}`
    if (d.holds === holds) return { projection, d }
    const ds = d.app.ds
    ds.restore(d.empty)
    poolStats.loads++
    const witnessed = (row: FullRow) =>
      sight.dcs.has(row.values.__TableName as DcName) &&
      (this.#witnesses
        .get(`${String(row.values.__TableName)}(${String(row.values.__PrimaryKey)})`)
        ?.has(view.who) ??
        false)
    const data = projectedData(projection, sight, rows, witnessed) as Record<string, unknown[]>
    // A set keeps the members it was made with: its owner still counts those deleted since
    // (docs/entity-sets.md). They are made, kept in the sets, then deleted again here.
    const ghosts = [
      ...new Set(
        this.#sets.flatMap((set) =>
          set.released || set.owner !== view.who || !sight.dcs.has(set.dc)
            ? []
            : set.keys.filter((k) => !rows[set.dc].has(k)).map((k) => `${set.dc} ${k}`),
        ),
      ),
    ].map((g) => {
      const [dc, k] = g.split(' ') as [DcName, string]
      return [dc, Number(k)] as const
    })
    for (const [dc, k] of ghosts) data[dc]!.push({ ID: k })
    ds.loadData(data as DataFile)
    // The entity sets made so far, with their ids and owners, holding the members it sees.
    for (const set of this.#sets) {
      if (set.released || !sight.dcs.has(set.dc)) continue
      const dc = ds.dataClass(set.dc)
      const ids = set.keys
        .map((k) => dc.table.rowIdOf(k))
        .filter((r): r is number => r !== undefined)
      const owner = ownerIn(d, set.owner)
      ds.entitySets.keep(dc.select(ids), { id: set.id, owner })
    }
    if (ghosts.length > 0) {
      for (const [dc, k] of ghosts) ds.dataClass(dc).get(k)?.dropOrFail()
      ds.dataClass(DELETED).all().drop()
      ds.loadData({
        [DELETED]: projectedData(projection, sight, rows, witnessed)[DELETED as never],
      } as unknown as DataFile)
    }
    // The same next keys and stamps as the real datastore: a creation takes the same key.
    for (const dc of [...projection.dataClasses, DELETED] as const)
      ds.dataClass(dc).table.resetSequence('ID', at.sequences[dc]!)
    ds.setGlobalStamp(at.stamp)
    d.notes.next = at.notes
    d.holds = holds
    return { projection, d }
  }

  /** The projection of a view, made once a run for each thing that tells two apart. */
  #projection(view: View, sight: Sight, creates: boolean): Projection {
    const key = [
      [...view.held].sort().join(),
      [...view.own].sort().join(),
      creates,
      sight.deleted,
      [...sight.dcs].join(),
      [...sight.closed].join(),
      ...DATACLASSES.map((dc) => [...sight.attrs[dc]].join()),
    ].join('|')
    let p = this.#projections.get(key)
    if (!p) this.#projections.set(key, (p = projectionOf(this.ref, view, sight, creates)))
    return p
  }

  async #step(index: number, { who, req }: OracleStep): Promise<void> {
    const view = this.#view(who, req)
    const before = this.#rows
    const at = this.#counters()
    const stampBefore = at.stamp
    const sight = sightOf(this.ref, this.case.restricts, view, before)
    const creates = req.t === 'create' || req.t === 'batch'
    const { projection, d } = await this.#project(view, sight, before, at, creates)
    const { sent, rootDc } = this.#sent(req, before)
    // Only a POST writes (the stamp check below holds any request to it).
    const writes = sent.method === 'POST'
    const projectedBefore = writes ? readRows(d.app.ds) : undefined
    const projectedStamp = d.app.ds.globalStamp
    const real = await sendAs(this.real.rest, this.#cookies, who, sent)
    const other = await sendAs(d.app.rest, d.cookies, who, sent)
    const after = writes ? readRows(this.real.ds) : before
    this.#rows = after
    // A projected datastore written to holds other data than it was loaded with.
    if (d.app.ds.globalStamp !== projectedStamp) d.holds = ''
    const realFeed = isStream(real.stream) ? await drain(real.stream) : undefined
    if (isStream(other.stream)) await drain(other.stream)

    const problems: Problem[] = []
    const what =
      req.t === 'deleted' || req.t === 'changes' || req.t === 'stamp'
        ? trackingName(req)
        : endpoint(req, ORACLE_ATTRS)
    const realClass = classOf(real)
    const otherClass = classOf(other)
    if (realClass === 'ok') this.stats.ok++
    else this.stats.refused++
    const unseen = blind(req, sight, before)
    if (unseen) this.stats.blind++
    else if (!sameClass(real, other))
      problems.push({
        check: 'status',
        kind: `${what}: real ${realClass}${named(real)}, projected ${otherClass}${named(other)}`,
        detail: '',
      })
    else if (realClass === 'ok' && req.t === 'deleted')
      problems.push(...deletedRows(what, real, other))
    else if (realClass === 'ok' && realFeed === undefined) {
      // A set made by this request has an id of its own in each datastore.
      const made = setIdOf(real)
      const theirs = setIdOf(other)
      const n: Normalize = { setId: (id) => (id === theirs && made ? made : id) }
      const mine = writes ? withoutWriteOnly(other.json, rootDc, projection.writeOnly) : other.json
      const diff = firstDifference(
        normalized(real.json ?? real.text, {}),
        normalized(mine ?? other.text, n),
      )
      if (diff) {
        const { kind, detail } = describeDifference(diff)
        problems.push({ check: 'body', kind: `${what}: ${kind}`, detail })
      }
    }
    if (realFeed !== undefined && realClass === 'ok' && otherClass === 'ok')
      problems.push(
        ...(await this.#feed(
          req as Extract<TrackingReq, { t: 'changes' }>,
          view,
          d,
          realFeed,
          what,
        )),
      )

    const changed = rowChanges(before, after)
    if (changed.length > 0) {
      this.stats.writes++
      this.#version++
    }
    if (realClass !== 'ok' && changed.length > 0)
      problems.push({
        check: 'unchanged',
        kind: `${what}: refused, yet the data changed`,
        detail: changed.slice(0, 4).join('; '),
      })
    if (!unseen && realClass === 'ok' && otherClass === 'ok' && changed.length > 0) {
      problems.push(
        ...storedProblems(
          what,
          sight,
          projection,
          projectedBefore!,
          readRows(d.app.ds),
          before,
          after,
        ),
      )
    }
    if (changed.length > 0)
      problems.push(...effectProblems(this.ref, what, view, sight, before, after))
    const stampAfter = this.real.ds.globalStamp
    if (stampAfter < stampBefore || (changed.length === 0 && stampAfter !== stampBefore))
      problems.push({
        check: 'stamp',
        kind: `${what}: the global stamp moved ${stampAfter < stampBefore ? 'back' : 'without a change'}`,
        detail: `${stampBefore} → ${stampAfter}`,
      })

    // What explains a difference, when another datastore gives the real answer: the answer of
    // the session's other view (a promotion kept too long, or missing), or of one where a
    // dataclass closed by its restrict is open and empty. Then it is that finding.
    const explained = async (other: View, sightOf_: Sight) => {
      const alt = await this.#project(other, sightOf_, before, at, creates)
      const answer = await sendAs(alt.d.app.rest, alt.d.cookies, who, sent)
      if (isStream(answer.stream)) await drain(answer.stream)
      alt.d.holds = ''
      const theirs = writes
        ? withoutWriteOnly(answer.json, rootDc, alt.projection.writeOnly)
        : answer.json
      return (
        sameClass(real, answer) &&
        (classOf(real) !== 'ok' ||
          realFeed !== undefined ||
          !firstDifference(
            normalized(real.json ?? real.text, {}),
            normalized(theirs ?? answer.text, { setId: () => setIdOf(real) ?? '' }),
          ))
      )
    }
    const relabel = (check: OracleCheck, kind: (k: string) => string) => {
      for (const p of problems)
        if (EXPLAINABLE.has(p.check)) {
          p.kind = kind(p.kind)
          p.check = check
        }
    }
    const promoted = this.#promoted[who]
    const others: { view: View; as: string }[] = []
    if (req.t === 'call' && view.held.size !== view.own.size)
      others.push({ view: { who, held: view.own, own: view.own }, as: 'without its promotion' })
    if (promoted?.stamp === at.stamp && !sameHeld(promoted.view.held, view.held))
      others.push({ view: promoted.view, as: 'with the promotion of the call before it' })
    if (problems.some((p) => EXPLAINABLE.has(p.check))) {
      const name = refusedName(real)
      let by: string | undefined
      for (const other of others)
        if (
          by === undefined &&
          (await explained(other.view, sightOf(this.ref, this.case.restricts, other.view, before)))
        )
          by = other.as
      // The session's cached answers may mix both views, a dataclass each: a difference where
      // the other view sees other rows is the promotion's too.
      for (const other of others)
        if (
          by === undefined &&
          visibleKey(sightOf(this.ref, this.case.restricts, other.view, before)) !==
            visibleKey(sight)
        )
          by = `${other.as} for some of its dataclasses`
      if (by !== undefined) {
        // What the write did then is the promotion's doing too.
        for (const p of problems)
          if (p.check !== 'stamp') {
            p.kind = `answered as the session ${by}: ${p.kind}`
            p.check = 'promotion'
          }
      } else if (
        sight.closed.size > 0 &&
        ((name !== undefined && closedReads(sight).has(name)) ||
          (await explained(view, sightOf(this.ref, this.case.restricts, view, before, true))))
      )
        relabel(
          'closed',
          (k) =>
            `${[...sight.closed].join(', ')} closed to the view (its restrict cannot run), yet ${k}`,
        )
    }
    // A promoted call: the session's next request must not be answered with its rows.
    if (req.t === 'call' && view.held.size !== view.own.size)
      this.#promoted[who] = { view, stamp: this.real.ds.globalStamp }
    // What the run keeps: sets made and released, deletions and who witnessed them, stamps.
    if (realClass === 'ok' && this.#keep(req, who, real)) this.#version++
    this.#witness(before, after)
    if (this.#stamps.at(-1) !== stampAfter) this.#stamps.push(stampAfter)

    for (const p of problems)
      if (this.#checks.has(p.check))
        this.findings.push({
          ...p,
          step: index,
          who: WHO[who],
          held: [...view.held].sort(),
          request: shown(sent),
          real: `${real.status} ${(realFeed ?? real.text).slice(0, 400)}`,
          projected: `${other.status} ${other.text.slice(0, 400)}`,
          before: this.#log.slice(-12),
        })
    this.#log.push(`(${WHO[who]}) ${shown(sent).slice(0, 200)} → ${real.status}`)
  }

  /** `$changes` as the view, now: its sight of the data now, the deletions it witnessed. */
  #feed(
    req: Extract<TrackingReq, { t: 'changes' }>,
    view: View,
    d: Projected,
    text: string,
    what: string,
  ): Promise<Problem[]> {
    const now = sightOf(this.ref, this.case.restricts, view, readRows(this.real.ds))
    const witnessed = (row: string) => this.#witnesses.get(row)?.has(view.who) ?? false
    return feedProblems(
      this.real.ds,
      req,
      this.#stampAt(req.since),
      view,
      now,
      witnessed,
      d,
      text,
      what,
    )
  }

  /** Keeps what a request made or released; true when it did. */
  #keep(req: OracleReq, who: Who, answer: Answer): boolean {
    if (req.t === 'list' && req.keep) {
      const id = setIdOf(answer)
      const set = id ? this.real.ds.entitySets.get(id) : undefined
      if (id && set)
        this.#sets.push({
          id,
          dc: req.dc,
          owner: who,
          keys: set.selection
            .toArray()
            .flatMap((e) => (e ? [Number((e as { getKey(): unknown }).getKey())] : [])),
          released: false,
        })
      return true
    }
    if (req.t === 'release') {
      const set = this.#sets.length ? this.#sets[req.set % this.#sets.length] : undefined
      if (set) set.released = true
      return set !== undefined
    }
    return false
  }

  // Each deletion's witnesses: the clients whose own view (no promotion) saw the row before it.
  #witness(before: FullRows, after: FullRows): void {
    const gone = DATACLASSES.flatMap((dc) =>
      [...before[dc].keys()].filter((k) => !after[dc].has(k)).map((k) => [dc, k] as const),
    )
    if (gone.length === 0) return
    const sights = WHO.map((_, w) =>
      sightOf(
        this.ref,
        this.case.restricts,
        { who: w as Who, held: this.#own[w]!, own: this.#own[w]! },
        before,
      ),
    )
    for (const [dc, key] of gone)
      this.#witnesses.set(
        `${dc}(${key})`,
        new Set(([0, 1, 2, 3] as const).filter((w) => sees(sights[w]!, dc, key))),
      )
  }
}

/**
 * Whether the projected datastore cannot answer `req` as the view: an `$atomic` batch that updates
 * the entity an earlier item creates in a dataclass the view's restrict narrows. The restrict
 * decides whether the view sees that new entity, and the projected datastore has none: its answer
 * is not compared (what the real write changed still is).
 */
function blind(req: OracleReq, sight: Sight, before: FullRows): boolean {
  return (
    req.t === 'batch' &&
    sight.visible[req.dc] !== undefined &&
    req.items.some((i) => i.key !== undefined && !before[req.dc].has(i.key))
  )
}

/** What the restricts of the dataclasses closed to a sight read (and so may refuse). */
function closedReads(sight: Sight): Set<string> {
  const out = new Set<string>()
  for (const dc of sight.closed) {
    out.add(dc).add(`${dc}.${NUMBER_OF[dc]}`)
    if (CITY_PATH[dc]) out.add(`${dc}.${CITY_PATH[dc]}`).add('Company').add('Company.city')
  }
  return out
}

/** Whether two sets of privileges are the same. */
const sameHeld = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean =>
  a.size === b.size && [...a].every((p) => b.has(p))

/** The rows a sight's restricts let through, as a key. */
const visibleKey = (sight: Sight): string =>
  DATACLASSES.map((dc) => (sight.visible[dc] ? [...sight.visible[dc]].join() : '*')).join('|')

/** The checks whose finding another view may explain (`promotion`, `closed`). */
const EXPLAINABLE: ReadonlySet<OracleCheck> = new Set(['status', 'body', 'feed'])

/** The id of the entity set an answer names, if any. */
function setIdOf(a: Answer): string | undefined {
  const uri = a.json?.__ENTITYSET
  return typeof uri === 'string' ? uri.split('/').at(-1) : undefined
}

function trackingName(req: TrackingReq): string {
  switch (req.t) {
    case 'deleted':
      return 'a read of __DeletedRecords'
    case 'changes':
      return 'a $changes feed'
    case 'stamp':
      return req.set === undefined ? 'getGlobalStamp' : 'setGlobalStamp'
  }
}
