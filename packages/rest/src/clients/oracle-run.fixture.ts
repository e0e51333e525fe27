/**
 * @module Issue 61's oracle: one run of a generated case. The real application is built once for
 * the case's roles file and restricts; each step's request is sent to it as its client, and the
 * same request to the projected datastore of the step's view (oracle-projector.fixture.ts), as the
 * same client, with full rights to read. The two answers are compared (oracle-compare.fixture.ts),
 * and for a write what each stored (oracle-writes.fixture.ts). The design is at the top of
 * oracle.prop.test.ts.
 */
import { RefRoles } from '../../../core/src/roles/roles-reference.fixture.js'
import { isStream } from '../exchange.js'
import { oracleFunctions, ORACLE_ATTRS, ORACLE_MODEL, restrictsOf } from './oracle-app.fixture.js'
import {
  classOf,
  describeDifference,
  firstDifference,
  normalized,
  sameClass,
  withoutWriteOnly,
} from './oracle-compare.fixture.js'
import { drain, feedProblems } from './oracle-feed.fixture.js'
import {
  named,
  ORACLE_CHECKS,
  type OracleCheck,
  type OracleFinding,
  type Problem,
} from './oracle-findings.fixture.js'
import type { Projected } from './oracle-pool.fixture.js'
import { countersOf, Projector, visibleKey, type Counters } from './oracle-projector.fixture.js'
import {
  filterText,
  oracleEndpoint,
  trackingSent,
  type OracleCase,
  type OracleReq,
  type OracleStep,
} from './oracle-requests.fixture.js'
import { callOn, OracleSets, sameHeld, type Decided } from './oracle-sets.fixture.js'
import {
  fnResource,
  readRows,
  sightOf,
  type FullRows,
  type Projection,
  type Sight,
  type View,
} from './oracle-view.fixture.js'
import { deletedRows, rowsOf, surelyRead, Witnesses } from './oracle-witness.fixture.js'
import { effectProblems, rowChanges, storedProblems } from './oracle-writes.fixture.js'
import {
  appOf,
  DATACLASSES,
  FUNCTIONS,
  numberCanary,
  stringCanary,
  yearlyOf,
  type DcName,
  type PrivApp,
} from './privileges-app.fixture.js'
import { WHO, type Who } from './privileges-requests.fixture.js'
import {
  logInAll,
  sendAs,
  sentOf,
  shown,
  type Answer,
  type Sent,
} from './privileges-send.fixture.js'

/** One step's request and what both datastores made of it. */
interface Exchange {
  readonly who: Who
  readonly req: OracleReq
  readonly view: View
  readonly sight: Sight
  readonly before: FullRows
  readonly at: Counters
  readonly creates: boolean
  readonly sent: Sent
  readonly rootDc: DcName | undefined
  readonly real: Answer
  /** The events a `$changes` stream sent. */
  readonly realFeed: string | undefined
  /** What the view's datastore answered, or the answer that decides (`decided`). */
  readonly other: Answer
  readonly decided: Decided | undefined
  readonly projection: Projection
  readonly d: Projected
  readonly what: string
}

export class OracleRun {
  readonly case: OracleCase
  readonly ref: RefRoles
  readonly real: PrivApp
  readonly findings: OracleFinding[] = []
  /**
   * How many requests the real datastore answered 2xx or not, how many stored something, how
   * many answers the projected datastore could not give (`blind`); how many were decided by a
   * set's making or a call's `this` as the own view refuses it (`decided`), how many promoted
   * calls ran on the selection the own view resolves (`ownThis`), and how many deletions shown by
   * `__DeletedRecords` were ones the view must be shown (`mustLearn`).
   */
  readonly stats = {
    ok: 0,
    refused: 0,
    writes: 0,
    blind: 0,
    decided: 0,
    ownThis: 0,
    mustLearn: 0,
  }
  readonly #checks: ReadonlySet<OracleCheck>
  readonly #notes = { next: 0 }
  readonly #cookies: (string | undefined)[] = [undefined, undefined, undefined, undefined]
  /** Each client's own privileges (the reference model's answer). */
  readonly #own: readonly ReadonlySet<string>[]
  readonly #sets = new OracleSets()
  /** The readers of each dataclass, and what each client may learn of each deletion. */
  readonly #witnesses = new Witnesses()
  readonly #projector: Projector
  /** Each client's last promoted call, and the global stamp after it. */
  readonly #promoted: ({ view: View; stamp: number } | undefined)[] = []
  /** The global stamps seen after each step, for `$since` and `setGlobalStamp`. */
  readonly #stamps: number[] = [0]
  #fresh = 0
  readonly #log: string[] = []
  /** The data as it is now, read with full rights after each step that may have written. */
  #rows: FullRows

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
    this.#projector = new Projector(
      this.ref,
      this.#sets,
      (who) => (row) => this.#witnesses.learns(row, who),
    )
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

  #sightOf(view: View, rows: FullRows): Sight {
    return sightOf(this.ref, this.case.restricts, view, rows)
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

  #stampAt = (n: number): number => this.#stamps[n % this.#stamps.length]!

  /** The request as sent (the same text to both datastores). */
  #sent(req: OracleReq, rows: FullRows): { sent: Sent; rootDc?: DcName | undefined } {
    if (req.t === 'deleted' || req.t === 'changes' || req.t === 'stamp')
      return { sent: trackingSent(req, this.#stampAt) }
    return sentOf(req, {
      setAt: (n) => this.#sets.at(n),
      uploadAt: () => undefined,
      fresh: (dc, attr) => this.#freshValue(dc, attr),
      next: () => ++this.#fresh,
      current: (dc, key, attr) => rows[dc].get(key)?.values[attr],
      filterText,
      attrs: ORACLE_ATTRS,
    })
  }

  async #step(index: number, { who, req }: OracleStep): Promise<void> {
    const view = this.#view(who, req)
    const before = this.#rows
    const at = countersOf(this.real.ds, this.#notes.next)
    const sight = this.#sightOf(view, before)
    const creates = req.t === 'create' || req.t === 'batch'
    // Before the view's own datastore is loaded: the own view's may be the same one.
    const self = await this.#thisAsOwn(req, view, before, at)
    const { projection, d } = await this.#projector.project(view, sight, before, at, creates)
    const { sent, rootDc } = this.#sent(req, before)
    // Only a POST writes (the stamp check below holds any request to it).
    const writes = sent.method === 'POST'
    const projectedBefore = writes ? readRows(d.app.ds) : undefined
    const projectedStamp = d.app.ds.globalStamp
    const real = await sendAs(this.real.rest, this.#cookies, who, sent)
    // What the view's datastore answers; or, where the request is decided by more than the view
    // reads (a set's making, a call's `this`), the answer that decides.
    const decided = self && 'answer' in self ? self : await this.#sets.making(req, view, d)
    if (decided) this.stats.decided++
    if (self && 'keys' in self) this.stats.ownThis++
    const other =
      decided?.answer ??
      (self && 'keys' in self
        ? await callOn(d, who, sent, self.keys)
        : await sendAs(d.app.rest, d.cookies, who, sent))
    const after = writes ? readRows(this.real.ds) : before
    this.#rows = after
    // A projected datastore written to holds other data than it was loaded with.
    if (d.app.ds.globalStamp !== projectedStamp) d.holds = ''
    const realFeed = isStream(real.stream) ? await drain(real.stream) : undefined
    if (isStream(other.stream)) await drain(other.stream)
    const x: Exchange = {
      who,
      req,
      view,
      sight,
      before,
      at,
      creates,
      sent,
      rootDc,
      real,
      realFeed,
      other,
      decided,
      projection,
      d,
      what: oracleEndpoint(req),
    }

    const realOk = classOf(real) === 'ok'
    if (realOk) this.stats.ok++
    else this.stats.refused++
    const unseen = blind(req, sight, before)
    if (unseen) this.stats.blind++
    const problems = unseen ? [] : await this.#answerProblems(x)
    const changed = rowChanges(before, after)
    if (changed.length > 0) {
      this.stats.writes++
      this.#projector.version++
    }
    if (!realOk && changed.length > 0)
      problems.push({
        check: 'unchanged',
        kind: `${x.what}: refused, yet the data changed`,
        detail: changed.slice(0, 4).join('; '),
      })
    if (!unseen && realOk && classOf(other) === 'ok' && changed.length > 0) {
      const stored = readRows(d.app.ds)
      problems.push(
        ...storedProblems(x.what, sight, projection, projectedBefore!, stored, before, after),
      )
    }
    if (changed.length > 0)
      problems.push(...effectProblems(this.ref, x.what, view, sight, before, after))
    const stampAfter = this.real.ds.globalStamp
    if (stampAfter < at.stamp || (changed.length === 0 && stampAfter !== at.stamp))
      problems.push({
        check: 'stamp',
        kind: `${x.what}: the global stamp moved ${stampAfter < at.stamp ? 'back' : 'without a change'}`,
        detail: `${at.stamp} → ${stampAfter}`,
      })
    await this.#promotionOf(x, problems)

    // A promoted call: the session's next request must not be answered with its rows.
    if (req.t === 'call' && !sameHeld(view.held, view.own))
      this.#promoted[who] = { view, stamp: stampAfter }
    // What the run keeps: sets made and released, readers, deletions and their witnesses, stamps.
    if (realOk && this.#keep(req, view, real)) this.#projector.version++
    // A delete's own request read its dataclass before its commit: it counts for its deletions.
    if (realOk)
      this.#witnesses.read(
        who,
        surelyRead(req, (n) => this.#sets.at(n)?.dc),
      )
    this.#witness(before, after)
    if (this.#stamps.at(-1) !== stampAfter) this.#stamps.push(stampAfter)

    for (const p of problems)
      if (this.#checks.has(p.check))
        this.findings.push({
          ...p,
          step: index,
          who: WHO[who],
          held: [...view.held].sort(),
          closed: [...sight.closed],
          request: shown(sent),
          real: `${real.status} ${(realFeed ?? real.text).slice(0, 400)}`,
          projected: `${other.status} ${other.text.slice(0, 400)}`,
          before: this.#log.slice(-12),
        })
    this.#log.push(`(${WHO[who]}) ${shown(sent).slice(0, 200)} → ${real.status}`)
  }

  /** What tells the two answers apart: their class, their bodies, the deletions, the feed. */
  async #answerProblems(x: Exchange): Promise<Problem[]> {
    const { real, other, what } = x
    const realClass = classOf(real)
    if (!sameClass(real, other)) {
      // The maker's restrict, or a getter its making names, read it: the set's making needed it,
      // whatever the reader's making.
      const makersRestrict =
        this.#sets.restrictRead(x.req, real, this.case.restricts) ??
        this.#sets.getterNeeded(x.req, real)
      if (makersRestrict !== undefined && realClass === 'refused or unknown') return []
      const why = x.decided?.as ?? makersRestrict
      return [
        {
          check: 'status',
          kind: `${what}: real ${realClass}${named(real)}, projected ${classOf(other)}${named(other)}${why ? ` (${why})` : ''}`,
          detail: '',
        },
      ]
    }
    if (realClass !== 'ok') return []
    if (x.req.t === 'deleted') {
      const learns = (row: string) => this.#witnesses.learns(row, x.who)
      this.stats.mustLearn += rowsOf(other).filter((r) => learns(r) === 'must').length
      return deletedRows(what, real, other, learns)
    }
    if (x.req.t === 'changes' && x.realFeed !== undefined) {
      // As the view now: its sight of the data now, the deletions it may learn of.
      const now = this.#sightOf(x.view, readRows(this.real.ds))
      const since = this.#stampAt(x.req.since)
      const learns = (row: string) => this.#witnesses.learns(row, x.who)
      return feedProblems(this.real.ds, x.req, since, x.view, now, learns, x.d, x.realFeed!, what)
    }
    const diff = this.#difference(x, other, x.projection)
    if (!diff) return []
    const { kind, detail } = describeDifference(diff)
    return [{ check: 'body', kind: `${what}: ${kind}`, detail }]
  }

  /** The first difference of two successful answers, once normalized. */
  #difference(x: Exchange, other: Answer, projection: Projection) {
    // A set made by this request has an id of its own in each datastore.
    const made = setIdOf(x.real)
    const theirs = setIdOf(other)
    const json =
      x.sent.method === 'POST'
        ? withoutWriteOnly(other.json, x.rootDc, projection.writeOnly)
        : other.json
    return firstDifference(
      normalized(x.real.json ?? x.real.text, {}),
      normalized(json ?? other.text, { setId: (id) => (id === theirs && made ? made : id) }),
    )
  }

  /**
   * A difference that the session's other view explains (its datastore gives the real answer): a
   * call answered without its promotion, or the request after a promoted call with it. Then the
   * problems are that finding, `promotion`.
   */
  async #promotionOf(x: Exchange, problems: Problem[]): Promise<void> {
    if (!problems.some((p) => EXPLAINABLE.has(p.check))) return
    const { who, view, before } = x
    const others: { view: View; as: string }[] = []
    if (x.req.t === 'call' && !sameHeld(view.held, view.own))
      others.push({ view: { who, held: view.own, own: view.own }, as: 'without its promotion' })
    const promoted = this.#promoted[who]
    if (promoted?.stamp === x.at.stamp && !sameHeld(promoted.view.held, view.held))
      others.push({ view: promoted.view, as: 'with the promotion of the call before it' })
    const explains = async (other: View) => {
      const sight = this.#sightOf(other, before)
      const alt = await this.#projector.project(other, sight, before, x.at, x.creates)
      const answer = await sendAs(alt.d.app.rest, alt.d.cookies, who, x.sent)
      if (isStream(answer.stream)) await drain(answer.stream)
      alt.d.holds = ''
      return (
        sameClass(x.real, answer) &&
        (classOf(x.real) !== 'ok' ||
          x.realFeed !== undefined ||
          !this.#difference(x, answer, alt.projection))
      )
    }
    let by: string | undefined
    for (const other of others) if (by === undefined && (await explains(other.view))) by = other.as
    // The session's cached answers may mix both views, a dataclass each: a difference where the
    // other view sees other rows is the promotion's too.
    for (const other of others)
      if (by === undefined && visibleKey(this.#sightOf(other.view, before)) !== visibleKey(x.sight))
        by = `${other.as} for some of its dataclasses`
    if (by === undefined) return
    // What the write did then is the promotion's doing too.
    for (const p of problems)
      if (p.check !== 'stamp') {
        p.kind = `answered as the session ${by}: ${p.kind}`
        p.check = 'promotion'
      }
  }

  /**
   * A promoted call of a function of an entity or a selection: its `this` is what the caller's own
   * view resolves (the URL is the caller's: its key, its `$filter`, its restrict), and its code then
   * runs promoted (docs/security.md, "What a function may do"). Resolved by the own view's
   * datastore: an answer other than ok is what the call must answer; a selection's keys are what
   * the call runs on (an entity the own view sees, the promoted one sees too).
   */
  async #thisAsOwn(
    req: OracleReq,
    view: View,
    before: FullRows,
    at: Counters,
  ): Promise<Decided | { keys: number[] } | undefined> {
    if (req.t !== 'call' || sameHeld(view.held, view.own)) return undefined
    const info = FUNCTIONS[req.fn]
    if (info.kind !== 'entity' && info.kind !== 'entitySelection') return undefined
    const own: View = { who: view.who, held: view.own, own: view.own }
    const { d } = await this.#projector.project(own, this.#sightOf(own, before), before, at, false)
    const resolve: OracleReq =
      info.kind === 'entity'
        ? { t: 'get', dc: info.dc, key: req.key ?? 1 }
        : { t: 'list', dc: info.dc, filter: req.filter }
    const answer = await sendAs(d.app.rest, d.cookies, view.who, this.#sent(resolve, before).sent)
    if (classOf(answer) !== 'ok') return { answer, as: 'its this as the own view resolves it' }
    if (info.kind === 'entity') return undefined
    return { keys: (answer.json.__ENTITIES as { __KEY: string }[]).map((e) => Number(e.__KEY)) }
  }

  /** Keeps what a request made or released; true when it did. */
  #keep(req: OracleReq, view: View, answer: Answer): boolean {
    if (req.t === 'list' && req.keep) {
      const { sent } = this.#sent(
        { t: 'list', dc: req.dc, filter: req.filter, orderby: req.orderby },
        this.#rows,
      )
      this.#sets.made(this.real.ds, answer, view, sent)
      return true
    }
    if (req.t === 'call' && req.keep) {
      this.#sets.made(this.real.ds, answer, view, 'code')
      return true
    }
    return req.t === 'release' && this.#sets.release(req.set)
  }

  // Each deletion's witnesses: the clients whose own view (no promotion) saw the row before it.
  #witness(before: FullRows, after: FullRows): void {
    const gone = DATACLASSES.flatMap((dc) =>
      [...before[dc].keys()].filter((k) => !after[dc].has(k)).map((k) => [dc, k] as const),
    )
    if (gone.length === 0) return
    const sights = WHO.map((_, w) =>
      this.#sightOf({ who: w as Who, held: this.#own[w]!, own: this.#own[w]! }, before),
    )
    for (const [dc, key] of gone) this.#witnesses.deleted(dc, key, sights)
  }
}

/**
 * Whether the projected datastore cannot answer `req` as the view: an `$atomic` batch of more
 * than one item in a dataclass the view's restrict narrows. Inside the batch's transaction the
 * restrict answers on the batch's own writes (an earlier item's write may move an entity, or the
 * canary a `below` rule compares, in or out of the view, and a later item then finds it or not,
 * as 4D's queries in a transaction see its writes), while the projected datastore was projected
 * once, before the batch; so does an item updating the entity an earlier one creates. Its answer
 * is not compared (what the real write changed still is).
 */
function blind(req: OracleReq, sight: Sight, before: FullRows): boolean {
  return (
    req.t === 'batch' &&
    sight.visible[req.dc] !== undefined &&
    (req.items.length > 1 ||
      req.items.some((i) => i.key !== undefined && !before[req.dc].has(i.key)))
  )
}

/** The checks whose finding another view of the session may explain (`promotion`). */
const EXPLAINABLE: ReadonlySet<OracleCheck> = new Set(['status', 'body', 'feed'])

/** The id of the entity set an answer names, if any. */
function setIdOf(a: Answer): string | undefined {
  const uri = a.json?.__ENTITYSET
  return typeof uri === 'string' ? uri.split('/').at(-1) : undefined
}
