/**
 * @module Issue 61's oracle: the entity sets a run made, as a projected datastore holds them, and
 * what reading one asks of its reader (docs/entity-sets.md, "Owners"; docs/security.md, "Entity
 * sets belong to their session"):
 * - a set keeps the members it was made with: its owner still counts those deleted since, another
 *   session does not;
 * - a set keeps what its making needed: a reader must be able to make it itself, so the making's
 *   query (its filter and order, a computed attribute's query and orderBy functions as they
 *   finally read) is sent to the reader's datastore first, and an answer other than ok there is
 *   what the read must answer (403 1607, 1557);
 * - a set code made (a function's reply kept with `$method=entityset`) can say no such thing: only
 *   its maker's view (its client, with the same privileges, a promotion's included) reads it, 403
 *   9064 for anyone else.
 */
import type { Datastore, DataClass } from '@entistore/core'
import { CITY_PATH, CODE_READS, NUMBER_OF, type Restricts } from './oracle-app.fixture.js'
import { classOf, refusedName } from './oracle-compare.fixture.js'
import { ownerIn, type Projected } from './oracle-pool.fixture.js'
import type { OracleReq } from './oracle-requests.fixture.js'
import type { FullRows, Sight, View } from './oracle-view.fixture.js'
import type { DcName } from './privileges-app.fixture.js'
import { WHO, type Who } from './privileges-requests.fixture.js'
import { sendAs, type Answer, type Sent } from './privileges-send.fixture.js'

export interface SetRecord {
  readonly id: string
  readonly dc: DcName
  readonly owner: Who
  /** Its members as made, in order, read with full rights. */
  readonly keys: readonly number[]
  released: boolean
  /**
   * What made it: the query a request made it with (its filter and order), which a reader must be
   * able to make; or code (a function's reply), which only its maker's view reads.
   */
  readonly making: Sent | 'code'
  /** The view that made it (a promoted function's: with its promotion). */
  readonly maker: View
}

/** An answer that a request must have, and why, where more than what its view reads decides. */
export interface Decided {
  readonly answer: Answer
  readonly as: string
}

/** What reading a set code made by another view answers. */
const OF_ANOTHER_VIEW: Answer = {
  status: 403,
  headers: {},
  text: '',
  json: { __ERROR: [{ errCode: 9064 }] },
  errCode: 9064,
}

/** The entity sets a run made, in order. */
export class OracleSets {
  readonly #list: SetRecord[] = []

  /** The n-th set made so far (by any client), if any. */
  at(n: number): SetRecord | undefined {
    return this.#list.length ? this.#list[n % this.#list.length] : undefined
  }

  /** Keeps the set `answer` made, if any, its members read with full rights from `ds`. */
  made(ds: Datastore, answer: Answer, view: View, making: Sent | 'code'): void {
    const uri = answer.json?.__ENTITYSET
    const id = typeof uri === 'string' ? uri.split('/').at(-1) : undefined
    const set = id ? ds.entitySets.get(id) : undefined
    if (!id || !set) return
    this.#list.push({
      id,
      dc: set.selection.dataClass.name as DcName,
      owner: view.who,
      keys: set.selection
        .toArray()
        .flatMap((e) => (e ? [Number((e as { getKey(): unknown }).getKey())] : [])),
      released: false,
      making,
      maker: view,
    })
  }

  /**
   * The members of the sets `view` owns that were deleted since (`rows`): its datastore makes them,
   * keeps them in the sets (`keepIn`), then deletes them again, as a set keeps them.
   */
  ghosts(view: View, sight: Sight, rows: FullRows): (readonly [DcName, number])[] {
    const names = new Set(
      this.#list.flatMap((set) =>
        set.released || set.owner !== view.who || !sight.dcs.has(set.dc)
          ? []
          : set.keys.filter((k) => !rows[set.dc].has(k)).map((k) => `${set.dc} ${k}`),
      ),
    )
    return [...names].map((g) => {
      const [dc, k] = g.split(' ') as [DcName, string]
      return [dc, Number(k)] as const
    })
  }

  /** Keeps in `d` the sets made so far, with their ids and owners, holding the members it sees. */
  keepIn(d: Projected, view: View, sight: Sight, rows: FullRows): void {
    const ds = d.app.ds
    for (const set of this.#list) {
      if (set.released || !sight.dcs.has(set.dc)) continue
      const dc = ds.dataClass(set.dc)
      // Another session's set leaves out the members deleted since (docs/entity-sets.md).
      const ids = rowIds(
        dc,
        set.keys.filter((k) => set.owner === view.who || rows[set.dc].has(k)),
      )
      ds.entitySets.keep(dc.select(ids), { id: set.id, owner: ownerIn(d, set.owner) })
    }
  }

  /**
   * What a read of sets (`req`) must answer when its reader may not read them (their making needs
   * what it may not, or code of another view made one), asked of the reader's datastore `d`;
   * undefined when it may.
   */
  async making(req: OracleReq, view: View, d: Projected): Promise<Decided | undefined> {
    if (req.t !== 'set' && req.t !== 'algebra') return undefined
    const sets = this.#read(req)
    // A released set is not there, whoever asks (the projected datastore has none either).
    if (sets.some((set) => set.released)) return undefined
    for (const set of sets) {
      if (set.making === 'code') {
        if (set.maker.who !== view.who || !sameHeld(set.maker.held, view.held))
          return { answer: OF_ANOTHER_VIEW, as: 'a set code of another view made' }
        continue
      }
      const answer = await sendAs(d.app.rest, d.cookies, view.who, set.making)
      if (classOf(answer) === 'ok') continue
      // A getter runs on rows: on a set of fewer than two, its sort never ran it, and what it
      // reads was not needed (nor asked of the maker).
      if (set.keys.length < 2 && getterRead(set.making, refusedName(answer))) continue
      return { answer, as: 'the set’s making' }
    }
    return undefined
  }

  /**
   * Whether `real`, refusing a read of sets that the reader could make, names what a restrict of
   * a set's maker read (an attribute, or the dataclass a relation leads to): the set's making
   * needed it, as it needed its filter (docs/entity-sets.md, "Owners"), so the refusal is right.
   */
  restrictRead(req: OracleReq, real: Answer, restricts: Restricts): string | undefined {
    if (req.t !== 'set' && req.t !== 'algebra') return undefined
    const name = refusedName(real) ?? ''
    return this.#read(req).some((set) => restrictReads(restricts, set.maker).has(name))
      ? 'a name only the maker’s restrict reads'
      : undefined
  }

  /**
   * Whether `real`, refusing a read of sets, names what the getter of a computed attribute that a
   * set's making names reads: the making's binding asked it in the real datastore (the reads a
   * getter was seen to make are kept, kept-reads.ts), whatever rows it ran on, where the reader's
   * fresh datastore, whose getter ran on no row it may not read, did not ask it: the refusal is
   * the set's own need, and right.
   */
  getterNeeded(req: OracleReq, real: Answer): string | undefined {
    if (req.t !== 'set' && req.t !== 'algebra') return undefined
    const name = refusedName(real)
    return this.#read(req).some((set) => set.making !== 'code' && getterRead(set.making, name))
      ? 'a name the making’s getter reads'
      : undefined
  }

  /** Notes the release of the set `req` names, if any; true when there is one. */
  release(n: number): boolean {
    const set = this.at(n)
    if (set) set.released = true
    return set !== undefined
  }

  /** The sets a read names. */
  #read(req: Extract<OracleReq, { t: 'set' | 'algebra' }>): SetRecord[] {
    const sets = [this.at(req.set), req.t === 'algebra' ? this.at(req.other) : undefined]
    return sets.filter((s): s is SetRecord => s !== undefined)
  }
}

/** The attributes the restricts of `view` (its client's, as it holds privileges) read. */
function restrictReads(restricts: Restricts, view: View): Set<string> {
  const out = new Set<string>()
  for (const [dc, r] of Object.entries(restricts[WHO[view.who]] ?? {})) {
    if (!r || (r.unless !== undefined && view.held.has(r.unless.toLowerCase()))) continue
    const name = dc as DcName
    if (r.rule.kind === 'below') out.add(`${name}.${NUMBER_OF[name]}`)
    if (r.rule.kind === 'city')
      out.add(`${name}.${CITY_PATH[name]!}`).add('Company').add('Company.city')
  }
  return out
}

/** Whether `name` (`Dc.attr`) is read only by the getter of a computed attribute `making` names. */
function getterRead(making: Sent, name: string | undefined): boolean {
  if (name === undefined) return false
  const text = decodeURIComponent(making.query)
  return Object.entries(CODE_READS).some(([computed, reads]) => {
    const [dc, attr] = computed.split('.') as [string, string]
    const readsIt = (list: readonly string[] = []) => list.some((read) => `${dc}.${read}` === name)
    return (
      readsIt(reads.get) &&
      !readsIt(reads.query) &&
      !readsIt(reads.orderBy) &&
      new RegExp(`\\b${attr}\\b`).test(text)
    )
  })
}

/** The row ids of `keys` in `dc` (those it holds). */
const rowIds = (dc: DataClass, keys: readonly number[]): number[] =>
  keys.map((k) => dc.table.rowIdOf(k)).filter((r): r is number => r !== undefined)

/**
 * The call `sent` of a selection function, made on the selection of `keys` in `d` (a set kept
 * there for it, outside any request: anyone reads it) rather than on what its URL resolves there.
 */
export async function callOn(
  d: Projected,
  who: Who,
  sent: Sent,
  keys: readonly number[],
): Promise<Answer> {
  const [, , dcName, name] = sent.path.split('/') as [string, string, DcName, string]
  const dc = d.app.ds.dataClass(dcName)
  const set = d.app.ds.entitySets.keep(dc.select(rowIds(dc, keys)))
  try {
    return await sendAs(d.app.rest, d.cookies, who, {
      ...sent,
      path: `/rest/${dcName}/$entityset/${set.id}/${name}`,
      query: '',
    })
  } finally {
    d.app.ds.entitySets.release(set.id)
  }
}

/** Whether two sets of privileges are the same. */
export const sameHeld = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean =>
  a.size === b.size && [...a].every((p) => b.has(p))
