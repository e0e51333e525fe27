/**
 * @module Issue 61's oracle: who may learn of a deletion (docs/change-tracking.md, "Who sees the
 * deleted rows"). The datastore decides a deletion's witnesses among the sessions that read its
 * dataclass (a request of theirs ran its `restrict`, through a relation too) or follow its feed,
 * each as its own view (its own privileges, no promotion): those that could see the row then.
 * What "read" is, exactly, the oracle does not model; it checks both sides of the rule soundly:
 * - `not`: a client whose own view could not see the row just before its deletion: shown the
 *   deletion, it learned what it may not (a leak);
 * - `must`: one that could see it and, before it, surely read the dataclass (a 2xx request whose
 *   root is that dataclass, which ran its restrict, or a `$changes` of it): not shown it, a miss;
 * - `may`: one that could see it without such a read (it may have read it otherwise, through a
 *   relation): either answer is right.
 */
import { describeDifference, firstDifference } from './oracle-compare.fixture.js'
import type { Problem } from './oracle-findings.fixture.js'
import type { OracleReq } from './oracle-requests.fixture.js'
import { sees, type Sight } from './oracle-view.fixture.js'
import { DATACLASSES, FUNCTIONS, type DcName } from './privileges-app.fixture.js'
import type { Who } from './privileges-requests.fixture.js'
import type { Answer } from './privileges-send.fixture.js'

/** What a client may learn of a deletion. */
export type Learns = 'must' | 'may' | 'not'

/** A deleted row by its dataclass and key (`Employee(3)`: a key is never given again). */
export const rowName = (dc: string, key: unknown): string => `${dc}(${String(key)})`

/** The readers of each dataclass, and what each client may learn of each deletion. */
export class Witnesses {
  /** `who dc`: the client surely read the dataclass. */
  readonly #readers = new Set<string>()
  readonly #deletions = new Map<string, ReadonlyMap<Who, Learns>>()

  /** Notes that client `who` surely read `dcs`. */
  read(who: Who, dcs: Iterable<DcName>): void {
    for (const dc of dcs) this.#readers.add(`${who} ${dc}`)
  }

  /**
   * Notes the deletion of `dc`'s row `key`: `sights`, each client's own view (no promotion) just
   * before it.
   */
  deleted(dc: DcName, key: number, sights: readonly Sight[]): void {
    const learns = new Map<Who, Learns>()
    sights.forEach((sight, w) => {
      const who = w as Who
      if (sees(sight, dc, key)) learns.set(who, this.#readers.has(`${who} ${dc}`) ? 'must' : 'may')
    })
    this.#deletions.set(rowName(dc, key), learns)
  }

  /** What client `who` may learn of the deletion of `row` (`Employee(3)`). */
  learns(row: string, who: Who): Learns {
    return this.#deletions.get(row)?.get(who) ?? 'not'
  }
}

/**
 * The dataclasses a 2xx answer to `req` surely read, its restrict run for the session: the root of
 * a read, of an update or a delete (found through its restrict), of a call of a function of a
 * dataclass (its `this`, or its code's query of its own dataclass), of a set; every dataclass a
 * `$changes` follows. Not a creation (a restrict does not narrow one), nor what a relation reaches
 * (a null relation asks nothing).
 */
export function surelyRead(req: OracleReq, setDc: (n: number) => DcName | undefined): DcName[] {
  switch (req.t) {
    case 'list':
    case 'get':
    case 'lookup':
    case 'nav':
    case 'compute':
    case 'distinct':
    case 'update':
    case 'delete':
    case 'deleteWhere':
      return [req.dc]
    case 'set':
    case 'algebra': {
      const dc = setDc(req.set)
      return dc ? [dc] : []
    }
    case 'call': {
      const info = FUNCTIONS[req.fn]
      return 'dc' in info ? [info.dc] : []
    }
    case 'changes':
      return req.dc ? [req.dc] : [...DATACLASSES]
    default:
      return []
  }
}

/**
 * A read of `__DeletedRecords`: the rows the real datastore shows the view hold no deletion it
 * may not learn of, and every one it must learn of (the projected datastore holds those it may:
 * `learns`); then the rows it shows are as the projected datastore has them.
 */
export function deletedRows(
  what: string,
  real: Answer,
  other: Answer,
  learns: (row: string) => Learns,
): Problem[] {
  const shown = rowsOf(real)
  const may = rowsOf(other)
  const leaked = shown.filter((r) => !may.includes(r))
  const missing = may.filter((r) => learns(r) === 'must' && !shown.includes(r))
  if (leaked.length > 0)
    return [
      {
        check: 'deleted',
        kind: `${what}: a deletion of a row the view could not see, shown`,
        detail: `shown ${leaked.join(', ')}; it may learn of ${may.join(', ') || 'none'}`,
      },
    ]
  if (missing.length > 0)
    return [
      {
        check: 'deleted',
        kind: `${what}: a deletion of a row the view saw and read, not shown`,
        detail: `missing ${missing.join(', ')}; shown ${shown.join(', ') || 'none'}`,
      },
    ]
  const diff = firstDifference(real.json, narrowed(other.json, shown))
  if (!diff) return []
  const { kind, detail } = describeDifference(diff)
  return [{ check: 'body', kind: `${what}: ${kind}`, detail }]
}

/** The deleted rows a `__DeletedRecords` answer shows (`Employee(3)`). */
export const rowsOf = (a: Answer): string[] =>
  ((a.json?.__ENTITIES ?? []) as Record<string, unknown>[]).map((e) =>
    rowName(String(e.__TableName), e.__PrimaryKey),
  )

/** A `__DeletedRecords` answer with only the rows `shown`, counted so. */
function narrowed(json: any, shown: readonly string[]): unknown {
  const entities = ((json?.__ENTITIES ?? []) as Record<string, unknown>[]).filter((e) =>
    shown.includes(rowName(String(e.__TableName), e.__PrimaryKey)),
  )
  return { ...json, __COUNT: entities.length, __ENTITIES: entities, __SENT: entities.length }
}
