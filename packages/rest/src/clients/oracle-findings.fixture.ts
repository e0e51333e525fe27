/**
 * @module Issue 61's oracle: what its checks find, and a finding in words (oracle-run.fixture.ts
 * makes them; the design is at the top of oracle.prop.test.ts).
 */
import { refusedName } from './oracle-compare.fixture.js'
import type { OracleCase } from './oracle-requests.fixture.js'
import type { Answer } from './privileges-send.fixture.js'

/**
 * What the oracle checks, each by its name (the test can leave some out until a fix lands):
 * - `promotion`: a request is answered as its session's other view: a call without its promotion,
 *   or the request after a promoted call with it (a status, body or feed difference that the
 *   projected datastore of that other view explains is this one);
 * - `status`: both answers are of the same class (ok, refused or unknown, missing, or the same
 *   other error);
 * - `body`: two successful answers are the same, once normalized;
 * - `deleted`: `__DeletedRecords` shows the view no deletion of a row its own view could not
 *   see, and every one of a dataclass it surely read before (oracle-witness.fixture.ts);
 * - `stored`: a write both allow stores the same rows (the real ones as the view sees them);
 * - `unchanged`: a write refused changes nothing in the real datastore;
 * - `write-effect`: a write changes in the real datastore only what its view may write;
 * - `stamp`: the global stamp moves only with the data, and never back;
 * - `feed`: `$changes` sends the view the changes it may learn of, as it sees them.
 */
export type OracleCheck =
  | 'promotion'
  | 'status'
  | 'body'
  | 'deleted'
  | 'stored'
  | 'unchanged'
  | 'write-effect'
  | 'stamp'
  | 'feed'
export const ORACLE_CHECKS: readonly OracleCheck[] = [
  'promotion',
  'status',
  'body',
  'deleted',
  'stored',
  'unchanged',
  'write-effect',
  'stamp',
  'feed',
]

export interface OracleFinding {
  readonly check: OracleCheck
  /** A short, stable name of what differed: the catalogue groups findings by it. */
  readonly kind: string
  readonly detail: string
  readonly step: number
  readonly who: string
  /** The privileges in force, a promotion included. */
  readonly held: readonly string[]
  /** The dataclasses closed to the view (their restrict cannot run): open and empty. */
  readonly closed: readonly string[]
  readonly request: string
  readonly real: string
  readonly projected: string
  /** The requests sent before it in the run, with their statuses. */
  readonly before: readonly string[]
}

/** What a check found. */
export interface Problem {
  check: OracleCheck
  kind: string
  readonly detail: string
}

/** What a refusal names, as a catalogue groups by it: ` (Employee.salary)`, or nothing. */
export const named = (a: Answer): string => {
  const name = refusedName(a)
  return name ? ` (${name})` : ''
}

/**
 * A finding as a reader wants it: what, the request, both answers, the view, the users, the
 * restricts and the roles file (what a test needs to send the same requests again).
 */
export function describeOracleFinding(c: OracleCase, f: OracleFinding): string {
  const file = c.roles.file
  const includes = file.privileges.filter((p) => p.includes?.length)
  const given = c.users
    .filter((u) => u.privileges.length > 0 || u.roles.length > 0)
    .map(
      (u) => `${u.name} ${JSON.stringify([...u.privileges, ...u.roles.map((r) => `role ${r}`)])}`,
    )
  const restricts = Object.entries(c.restricts).map(
    ([who, r]) =>
      `${who} ${Object.entries(r ?? {})
        .map(
          ([dc, x]) =>
            `${dc}: ${JSON.stringify(x!.rule)}${x!.unless ? ` unless ${x!.unless}` : ''}`,
        )
        .join('; ')}`,
  )
  return [
    `[${f.check}] ${f.kind}${f.detail ? `: ${f.detail}` : ''}`,
    ...(f.before.length ? [`  after: ${f.before.join('\n         ')}`] : []),
    `  request (step ${f.step}, ${f.who}): ${f.request}`,
    `  real answered ${f.real.slice(0, 300)}`,
    `  projected answered ${f.projected.slice(0, 300)}`,
    `  view holds ${f.held.join(', ')}${f.closed.length ? `; ${f.closed.join(', ')} closed to it (a restrict that cannot run)` : ''}`,
    `  users given: ${given.join(', ') || 'nothing'}`,
    `  restricts${c.current ? ' (from currentSession())' : ''}: ${restricts.join(' | ') || 'none'}`,
    `  roles file: ${JSON.stringify({
      ...(includes.length
        ? { includes: includes.map((p) => `${p.privilege} ⊃ ${p.includes!.join(',')}`) }
        : {}),
      ...(file.roles?.length ? { roles: file.roles } : {}),
      allowed: file.permissions.allowed,
      ...(file.restrictedByDefault ? { restrictedByDefault: true } : {}),
    })}`,
  ].join('\n')
}
