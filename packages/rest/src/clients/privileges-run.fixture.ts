/**
 * @module Issue 46: one run of a generated case. The application is built once for the case's
 * roles file; the users log in; each step's request goes in-process through `respond` with its
 * client's cookie, and its answer is checked:
 * - `leak`: no canary of an attribute the session may not read, nor of an entity its `restrict`
 *   hides, in the body, a header or an error (a canary the request itself sent is not counted); no
 *   such attribute, and no key of such an entity (`__KEY`, a `__deferred` URI), in any entity of
 *   the reply, nor in a `$format=looker` schema;
 * - `refusal`: what the model refuses is answered 401 (forceLogin's guest) or 403 with one of the
 *   refused needs' codes, and changes no data (compared through the TypeScript API);
 * - `works`: what the model allows is not answered 401, 403 nor 5xx (nor 404 for an entity the
 *   session sees);
 * - `values`: counts, pages, orders, aggregates, query paths, sets, `$info` as the session could
 *   compute them (privileges-decision.fixture.ts);
 * - `sets`: another session's entity set is not listed nor released (it is read with the reader's
 *   own rights: `values` counts it so).
 */
import { RefRoles } from '../../../core/src/roles/roles-reference.fixture.js'
import {
  ATTRS,
  DATACLASSES,
  FUNCTIONS,
  NUMBER_TOKEN,
  numberCanary,
  pictureWith,
  privApp,
  STORED,
  STRING_CANARY,
  stringCanary,
  yearlyOf,
  type DcName,
  type PrivApp,
} from './privileges-app.fixture.js'
import {
  changes,
  everything,
  filterText,
  filterValue,
  reach,
  select,
  snapshot,
  type Snapshot,
  type Visible,
} from './privileges-data.fixture.js'
import {
  CODE,
  decide,
  readable,
  readableName,
  type Decision,
  type Problem,
  type SetRecord,
} from './privileges-decision.fixture.js'
import {
  endpoint,
  USERS,
  WHO,
  type Case,
  type Req,
  type Step,
  type Who,
} from './privileges-requests.fixture.js'
import {
  logInAll,
  sendAs,
  sentOf,
  shown,
  type Answer,
  type Sent,
} from './privileges-send.fixture.js'

/** A problem, with the request that showed it and who sent it. */
export interface Finding extends Problem {
  readonly step: number
  readonly who: string
  /** The privileges the session holds (the reference model's answer). */
  readonly held: readonly string[]
  readonly req: Req
  /** The request as sent: method, path, query, body. */
  readonly request: string
  readonly status: number
  readonly reply: string
  /** The last 8 requests sent before it in the run, with their statuses. */
  readonly before: readonly string[]
}

/** How a request is sent, and what the run learns from its answer. */
interface Made {
  readonly sent: Sent
  /** The dataclass of the reply's entities, when the reply does not say. */
  readonly rootDc?: DcName | undefined
  /** The request writes: a refusal must change nothing. */
  readonly writes?: boolean
  /** The entity or set it names is not there for the session: a refusal may be a 404. */
  readonly missing?: boolean
  /** The entity it names is there for the session: allowed, it is not a 404. */
  readonly present?: boolean
  /** It sends a value no write accepts (an upload never made): a refusal may be its 400. */
  readonly invalid?: boolean
  /** What the run keeps of a success: a set's id, an upload's. */
  readonly after?: (answer: Answer) => void
}

/** Whose value a canary is. */
interface Owner {
  readonly dc: DcName
  readonly attr: string
  readonly key: number
}

/** The checks a run makes (all by default). */
export type Check = Problem['check']
export const CHECKS: readonly Check[] = ['leak', 'refusal', 'works', 'values', 'sets']

export class Run {
  readonly case: Case
  readonly app: PrivApp
  readonly ref: RefRoles
  readonly findings: Finding[] = []
  /** How many requests the model allowed, refused, left open; how many were answered 2xx. */
  readonly stats = { allow: 0, refuse: 0, either: 0, ok: 0 }
  readonly #checks: ReadonlySet<Check>
  readonly #cookies: (string | undefined)[] = [undefined, undefined, undefined, undefined]
  readonly #held: readonly ReadonlySet<string>[]
  readonly #sets: SetRecord[] = []
  readonly #uploads: string[] = []
  /**
   * Every canary the data ever held, with its owners: values overwritten since too, and the
   * entities one upload was given to (the same picture).
   */
  readonly #owners = new Map<string | number, Owner[]>()
  #fresh = 0
  #snap: Snapshot
  /** Each request sent so far, as a line. */
  readonly #log: string[] = []

  constructor(c: Case, checks: Iterable<Check> = CHECKS) {
    this.case = c
    this.ref = new RefRoles(c.roles.file)
    this.app = privApp(c.roles.file, c.users, c.restrictions)
    this.#held = [...c.users.map((u) => this.ref.held(u)), this.ref.held({})]
    this.#checks = new Set(checks)
    this.#snap = snapshot(this.app.ds)
    this.#learn(this.#snap)
  }

  /** Logs the users in, then sends every step; `stopAtFirst`: until a check fails. */
  async run(stopAtFirst = false): Promise<Finding[]> {
    await logInAll(this.app.rest, this.#cookies)
    for (const [i, step] of this.case.steps.entries()) {
      await this.#step(i, step)
      if (stopAtFirst && this.findings.length > 0) break
    }
    return this.findings
  }

  #visible(who: Who): Visible {
    const limits = this.case.restrictions[WHO[who]]
    return (dc, key) => {
      const keys = limits?.[dc]
      return keys === undefined || keys === null || keys.includes(key)
    }
  }

  #learn(snap: Snapshot): void {
    for (const dc of DATACLASSES)
      for (const [key, row] of snap[dc]) {
        for (const attr of STORED[dc]) {
          const v = row.values[attr]
          if (typeof v === 'string' || typeof v === 'number') this.#own(v, { dc, attr, key })
        }
        const yearly = dc === 'Employee' && yearlyOf((row.values.salary as number | null) ?? null)
        if (yearly) this.#own(yearly, { dc, attr: 'yearly', key })
      }
  }

  #own(value: string | number, owner: Owner): void {
    const owners = this.#owners.get(value) ?? []
    if (!owners.some((o) => o.dc === owner.dc && o.attr === owner.attr && o.key === owner.key))
      this.#owners.set(value, [...owners, owner])
  }

  #send(who: Who, s: Sent): Promise<Answer> {
    return sendAs(this.app.rest, this.#cookies, who, s)
  }

  async #step(index: number, { who, req }: Step): Promise<void> {
    const before = this.#snap
    const held = this.#held[who]!
    const made = this.#make(who, req, before)
    // forceLogin: a guest may only describe the datastore (docs/security.md, "forceLogin").
    const forced = this.case.roles.file.forceLogin === true && who === 3 && req.t !== 'catalog'
    const decision: Decision = forced
      ? { verdict: 'refuse', codes: [CODE.readDc, CODE.updateDc], rights: held }
      : decide(req, {
          ref: this.ref,
          who,
          held,
          visible: this.#visible(who),
          restricted: (dc) => {
            const keys = this.case.restrictions[WHO[who]]?.[dc]
            return keys !== undefined && keys !== null
          },
          snap: before,
          set: (n) => this.#setAt(n),
          setById: (id) => this.#sets.find((x) => x.id === id),
        })
    const answer = await this.#send(who, made.sent)
    const after = made.writes ? snapshot(this.app.ds) : before
    if (made.writes) this.#learn(after)
    this.#snap = after
    this.stats[decision.verdict]++
    if (answer.status < 300) this.stats.ok++

    const problems: Problem[] = []
    const { status } = answer
    if (status >= 500)
      problems.push({
        check: 'works',
        kind: `${endpoint(req)} answered ${status}`,
        detail: answer.text.slice(0, 200),
      })
    else if (decision.verdict === 'allow' && made.present && status === 404)
      problems.push({
        check: 'works',
        kind: `${endpoint(req)} allowed, of an entity the session sees, answered 404`,
        detail: answer.text.slice(0, 200),
      })
    else if (decision.verdict === 'allow' && (status === 401 || status === 403))
      problems.push({
        check: 'works',
        kind: `${endpoint(req)} allowed, refused (${answer.errCode})`,
        detail: answer.text.slice(0, 200),
      })
    else if (decision.verdict === 'refuse') {
      const want = forced ? 401 : 403
      // Another session's lock answers first (409, 9070 or status 3), as it does for a write the
      // session may make: it tells that the entity is locked, which `$lock` tells anyone anyway.
      const locked =
        status === 409 && (answer.errCode === 9070 || answer.json?.__STATUS?.status === 3)
      const excused =
        (made.missing && status === 404) ||
        (made.invalid && status === 400) ||
        locked ||
        status === decision.alsoOk
      if (status !== want && !excused)
        problems.push({
          check: 'refusal',
          kind: `${endpoint(req)} refused, answered ${status} (not ${want})`,
          detail: `expected ${[...new Set(decision.codes)].join('/')}: ${answer.text.slice(0, 200)}`,
        })
      else if (status === want && !decision.codes.includes(answer.errCode ?? -1))
        problems.push({
          check: 'refusal',
          kind: `${endpoint(req)} refused with ${answer.errCode}, not ${[...new Set(decision.codes)].join('/')}`,
          detail: answer.text.slice(0, 200),
        })
      const changed = made.writes ? changes(before, after) : ''
      if (changed)
        problems.push({
          check: 'refusal',
          kind: `${endpoint(req)} refused, yet the data changed`,
          detail: changed,
        })
    }
    if (decision.verdict === 'allow' && status < 400 && decision.expect)
      problems.push(...decision.expect(answer))
    if (decision.always) problems.push(...decision.always(answer))
    const created = [...DATACLASSES].flatMap((dc) =>
      [...after[dc].keys()].filter((k) => !before[dc].has(k)).map((k) => `${dc}(${k})`),
    )
    problems.push(...this.#leaks(who, decision.rights, answer, made, created, req))
    if (status < 300) made.after?.(answer)

    for (const p of problems)
      if (this.#checks.has(p.check))
        this.findings.push({
          ...p,
          step: index,
          who: WHO[who],
          held: [...held].sort(),
          req,
          request: shown(made.sent),
          status,
          reply: answer.text.slice(0, 400),
          before: this.#log.slice(-8),
        })
    this.#log.push(`(${WHO[who]}) ${shown(made.sent).slice(0, 200)} → ${status}`)
  }

  // ---- leaks

  #leaks(
    who: Who,
    rights: ReadonlySet<string>,
    answer: Answer,
    made: Made,
    created: readonly string[],
    req: Req,
  ): Problem[] {
    const problems: Problem[] = []
    const visible = this.#visible(who)
    // An entity the request created may show in its own reply, even outside the restriction.
    const seen = (dc: DcName, key: number) => visible(dc, key) || created.includes(`${dc}(${key})`)
    const sent = shown(made.sent)
    const echoed = new Set<string>([
      ...(sent.match(STRING_CANARY) ?? []),
      ...(sent.match(NUMBER_TOKEN) ?? []).map((t) => String(Number(t))),
    ])
    const where =
      answer.status >= 400 ? 'an error' : req.t === 'call' ? 'a function reply' : 'a reply'
    // A value the session may see as one of its owners' is no leak.
    const report = (token: string, owners: readonly Owner[]) => {
      if (echoed.has(token)) return
      const ok = (o: Owner) => readable(this.ref, rights, o.dc, o.attr)
      if (owners.some((o) => ok(o) && seen(o.dc, o.key))) return
      const owner = owners[0]!
      const attrOk = ok(owner)
      problems.push({
        check: 'leak',
        kind: `${attrOk ? 'a hidden entity' : 'an unreadable attribute'}'s value in ${where}: ${owner.dc}.${owner.attr}`,
        detail: `${token} is ${owner.dc}(${owner.key}).${owner.attr}`,
      })
    }
    const headers = Object.entries(answer.headers)
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
      .join('\n')
    const whole = `${headers}\n${answer.text}`
    for (const token of new Set(whole.match(STRING_CANARY) ?? [])) {
      const owner = this.#owners.get(token)
      if (owner) report(token, owner)
    }
    // Sums and averages of canaries are numbers of their own: aggregates are checked as values.
    if (req.t !== 'compute' && !(req.t === 'call' && req.fn === 'Employee.total'))
      for (const token of new Set(whole.match(NUMBER_TOKEN) ?? [])) {
        const owner = token.includes('.') ? this.#owners.get(Number(token)) : undefined
        if (owner) report(String(Number(token)), owner)
      }
    // The entities of the reply: their attributes, their keys, the keys their relations show.
    const isDc = (d: unknown): d is DcName => (DATACLASSES as readonly unknown[]).includes(d)
    const walk = (v: unknown, dc: DcName | undefined): void => {
      if (Array.isArray(v)) return v.forEach((x) => walk(x, dc))
      if (typeof v !== 'object' || v === null) return
      const o = v as Record<string, unknown>
      const named = o.__DATACLASS ?? o.__entityModel
      const d = isDc(named) ? named : dc
      if (Array.isArray(o.schema) && d)
        for (const col of o.schema as { name?: string }[])
          // A computed column whose code the session may not run is listed, its values null
          // (compat.md): its name is the catalog's, its values are checked below.
          if (
            col.name &&
            ATTRS[d][col.name] &&
            !readable(this.ref, rights, d, col.name) &&
            !(
              ATTRS[d][col.name]!.kind === 'calculated' &&
              readableName(this.ref, rights, d, col.name)
            )
          )
            problems.push({
              check: 'leak',
              kind: `an unreadable attribute in $format=looker: ${d}.${col.name}`,
              detail: col.name,
            })
      if (Array.isArray(o.__ENTITIES)) return walk(o.__ENTITIES, d)
      const deferred = o.__deferred as { uri?: unknown } | undefined
      if (typeof deferred?.uri === 'string') {
        const m = /^\/rest\/(\w+)\[(\d+)\]/.exec(deferred.uri)
        if (m && isDc(m[1]) && !seen(m[1], Number(m[2])))
          problems.push({
            check: 'leak',
            kind: `a hidden entity's key in a deferred URI: ${m[1]}`,
            detail: deferred.uri,
          })
        return
      }
      if ('__KEY' in o && d) {
        const key = Number(o.__KEY)
        if (!seen(d, key) && !echoed.has(String(key)))
          problems.push({
            check: 'leak',
            kind: `a hidden entity in ${where}: ${d}`,
            detail: `${d}(${key})`,
          })
        for (const [name, value] of Object.entries(o)) {
          const info = ATTRS[d][name]
          if (!info) continue
          if (!readable(this.ref, rights, d, name))
            problems.push({
              check: 'leak',
              kind: `an unreadable attribute in ${where}: ${d}.${name}`,
              detail: `${d}(${key}).${name} = ${JSON.stringify(value)?.slice(0, 80)}`,
            })
          if (info.target) walk(value, info.target)
        }
        return
      }
      for (const value of Object.values(o)) walk(value, undefined)
    }
    if (answer.json !== undefined) walk(answer.json, made.rootDc)
    return problems
  }

  // ---- how each request is sent

  #setAt(n: number): SetRecord | undefined {
    return this.#sets.length === 0 ? undefined : this.#sets[n % this.#sets.length]
  }

  // Written values are fresh canaries: strings by a counter, numbers in the key slot 999 with
  // the counter as their version (below 1,000 in a run).
  #fresh1(dc: DcName, attr: string): string | number {
    ++this.#fresh
    if (attr === 'yearly') return yearlyOf(numberCanary('Employee', 'salary', 999, this.#fresh))!
    return ATTRS[dc][attr]!.type === 'number'
      ? numberCanary(dc, attr, 999, this.#fresh)
      : stringCanary(dc, attr, `w${this.#fresh}`)
  }

  #make(who: Who, req: Req, snap: Snapshot): Made {
    const { sent, rootDc } = sentOf(req, {
      setAt: (n) => this.#setAt(n),
      uploadAt: (n) => (this.#uploads.length ? this.#uploads[n % this.#uploads.length] : undefined),
      fresh: (dc, attr) => this.#fresh1(dc, attr),
      next: () => ++this.#fresh,
      current: (dc, key, attr) => reach(snap, dc, key, [attr], everything)[0],
      filterText,
    })
    const visible = this.#visible(who)
    const missing = (dc: DcName, key: number) => !(snap[dc].has(key) && visible(dc, key))
    // Another session's set is there for reading (with the reader's rights), not for releasing.
    const setMissing = (set: SetRecord | undefined, releasing = false) =>
      !set || set.released || (releasing && set.owner !== who)
    const made = { sent, rootDc }
    switch (req.t) {
      case 'list':
        return {
          ...made,
          after: (answer) => {
            const id =
              req.keep &&
              String(answer.json?.__ENTITYSET ?? '')
                .split('/')
                .at(-1)
            if (id)
              this.#sets.push({
                id,
                dc: req.dc,
                owner: who,
                keys: select(snap, req.dc, req.filter, req.orderby, visible),
                loose: select(snap, req.dc, req.filter, req.orderby, visible, everything),
                released: false,
                filter: req.filter,
                orderby: req.orderby,
              })
          },
        }
      case 'get':
      case 'nav':
      case 'lock':
      case 'photo':
        return {
          ...made,
          missing: missing(req.t === 'photo' ? 'Employee' : req.dc, req.key),
          present: !missing(req.t === 'photo' ? 'Employee' : req.dc, req.key),
        }
      case 'lookup':
        return { ...made, missing: true }
      case 'set':
      case 'algebra':
      case 'release': {
        const set = this.#setAt(req.set)
        const other = req.t === 'algebra' ? this.#setAt(req.other) : undefined
        return {
          ...made,
          missing:
            setMissing(set, req.t === 'release') || (req.t === 'algebra' && setMissing(other)),
          after: () => {
            if (set && req.t === 'release' && set.owner === who) set.released = true
          },
        }
      }
      case 'update':
      case 'delete':
      case 'putPhoto':
        return {
          ...made,
          writes: true,
          missing: missing(req.t === 'putPhoto' ? 'Employee' : req.dc, req.key),
        }
      case 'create':
      case 'deleteWhere':
        return { ...made, writes: true }
      case 'batch':
        return {
          ...made,
          writes: true,
          missing: req.items.some((i) => i.key !== undefined && missing(req.dc, i.key)),
        }
      case 'upload':
        return {
          ...made,
          after: (answer) => {
            if (typeof answer.json?.ID === 'string') this.#uploads.push(answer.json.ID)
          },
        }
      case 'attach':
        return {
          ...made,
          writes: true,
          missing: missing('Employee', req.key),
          invalid: this.#uploads.length === 0,
        }
      case 'call': {
        const info = FUNCTIONS[req.fn]
        return {
          ...made,
          writes: true,
          missing: info.kind === 'entity' && missing(info.dc, req.key ?? 1),
        }
      }
      default:
        return made
    }
  }
}

/** A finding as a reader wants it: what, the request, the answer, the session, the roles file. */
export function describeFinding(c: Case, f: Finding): string {
  const file = c.roles.file
  const user = c.users.find((u) => u.name === f.who)
  const includes = file.privileges.filter((p) => p.includes?.length)
  return [
    `[${f.check}] ${f.kind}: ${f.detail}`,
    ...(f.before.length ? [`  after: ${f.before.join('\n         ')}`] : []),
    `  request (step ${f.step}, ${f.who}): ${f.request}`,
    `  answered ${f.status}: ${f.reply.slice(0, 300)}`,
    `  session holds ${f.held.join(', ')}` +
      (user
        ? ` (given privileges ${JSON.stringify(user.privileges)}, roles ${JSON.stringify(user.roles)})`
        : ''),
    `  restrict of ${f.who}: ${JSON.stringify(c.restrictions[f.who] ?? 'none')}`,
    `  roles file: ${JSON.stringify({
      ...(includes.length
        ? { includes: includes.map((p) => `${p.privilege} ⊃ ${p.includes!.join(',')}`) }
        : {}),
      ...(file.roles?.length ? { roles: file.roles } : {}),
      allowed: file.permissions.allowed,
      restrictedByDefault: file.restrictedByDefault,
      ...(file.forceLogin ? { forceLogin: true } : {}),
    })}`,
  ].join('\n')
}
