/**
 * Issue 61, "a differential property test as the oracle": for generated roles files, users,
 * promotions, `restrict` events, computed attributes and requests over every endpoint, the answer
 * of the datastore to a request must equal the answer of the same request against a datastore
 * holding only what that request's view may read, served with full rights to read; an allowed
 * write must store what the same write stores there. The application (oracle-app.fixture.ts) is
 * issue 46's with computed attributes whose code goes elsewhere than their name (`band` and
 * `label` query and sort on `salary` and `ssn`, `payInput` and `band` write `salary`), change
 * tracking, and a `restrict` per user of several kinds (keys; a query on an own number, which a
 * write moves; a query through a relation), one that lets everything through for a session
 * holding a privilege, its session read from the parameter or the 4D way, `currentSession()`.
 *
 * THE VIEW V of a request: its client (a user, or the guest), the privileges it holds (its own,
 * `guest`, what they include: the reference model, core's roles-reference.fixture.ts, decides)
 * and, inside a call, the function's `promote` (4D: "temporarily adds the listed privilege to the
 * process that runs the function"). Its rows are its client's `restrict` answers asked with those
 * privileges. A restrict runs as the caller: one whose query reads what V may not read cannot
 * run, and its dataclass is closed to V (fail closed: V sees none of it).
 *
 * THE PROJECTED DATASTORE D_V (oracle-view.fixture.ts, oracle-pool.fixture.ts), made with
 * `createDatastore`, no restrict, no promotion:
 * - the dataclasses V reads, the others left out of the model (server code touching them fails
 *   there as it must for V; table numbers kept, so that a deleted row names the same table);
 * - the attributes V reads: a relation only with its target, an alias only with its whole path;
 *   the inverse of a to-many relation V reads kept unexposed; a computed attribute whose name V
 *   may read but not what its getter reads kept with a getter (and a scan or sort through it)
 *   refused, 1607, as V's is (compat.md: a projection leaves such a value out); its query,
 *   orderBy and set functions are the application's, so that one going to an attribute D_V lacks
 *   fails there, as it must for V;
 * - the rows V's restrict answers, with the real keys, stamps, timestamps and `__GlobalStamp`; a
 *   relation to a row V does not see, or that is gone, reads null (docs/security.md: "a hidden
 *   related entity reads as null");
 * - `__DeletedRecords`: the rows of the deletions V witnessed (below), of dataclasses it reads;
 * - the entity sets made so far, under their real ids and owners, with the members V sees (its own
 *   sets also those deleted since: made, kept and deleted again, as a set keeps them);
 * - the real next keys, global stamp and counter of event-made values, so that a creation takes
 *   the same key, stamps and values;
 * - a roles file of its own: every read open, create, update, drop as V may, execute as the
 *   session's own privileges (a promotion does not give execute). A creation also keeps what V
 *   may give a value without reading it (4D: create needs no read), in a dataclass it reads or
 *   not, left out of what is compared; an update's entity event still may not read it.
 * One datastore is made per projection and kept across cases; it is loaded again only when what it
 * must hold changed (about half the requests).
 *
 * COMPARING (oracle-compare.fixture.ts). Each answer has a class: ok; "refused or unknown" (a 403
 * for lack of rights, 1557, 1607, 1561…, is what D_V, which lacks the name, answers as an unknown
 * dataclass, attribute or function, 1800, 1500…; 1516 for an alias V may not read); missing (1542,
 * 1802, 1820); or the same other error. Missing and refused both tell nothing, and which a server
 * checks first is its business: they match. A 200 on one side and an error on the other is a
 * finding (`status`). Two successes must be equal (`body`) once normalized: the id of a set the
 * request made (each side makes its own); `__queryPlan` and `__queryPath` compared by the
 * attribute names they print and the rows each step found (the plan must not print what V cannot
 * read, nor count what V does not see). Nothing else is normalized: D_V holds the real stamps.
 * A finding where V has a dataclass closed by its restrict, and that the answer of a D_V in which
 * that dataclass is open and empty (or a refusal of what the restrict reads) explains, is
 * `closed`. An `$atomic` batch that updates the entity it creates in a restricted dataclass is not
 * compared (D_V cannot tell whether V sees the new entity).
 *
 * WRITES (oracle-writes.fixture.ts). Allowed on both sides or refused on both (`status`); allowed,
 * the rows D_V stored equal the real rows as V sees them (`stored`), and what V's write changed in
 * the real datastore is only what V may write: rows it sees, attributes it may update or give on
 * creation, a dataclass it may drop from (`write-effect`: this holds whatever D_V did, since the
 * same code serves both sides and a side door both share would cancel out); refused, the real
 * datastore, read whole with full rights, did not change (`unchanged`). The global stamp moves only
 * with the data, and never back (`stamp`).
 *
 * FUNCTIONS AND PROMOTIONS. A call is answered as V+P from start to end: D_{V+P} holds what V+P
 * reads, the function exists there if V may execute it, and its reply must be D_{V+P}'s (docs/
 * security.md, "What a function may do": the promotion counts for the code, the awaits, the
 * parameters and the reply). The next request is answered as V again: a promotion that leaks, or
 * a call answered with V's cached rows, shows there.
 *
 * CHANGE TRACKING (oracle-feed.fixture.ts). A deletion is witnessed by the clients whose own view
 * (no promotion) saw the row just before it, whoever deleted it; `__DeletedRecords` shows V exactly
 * the deletions it witnessed, of dataclasses it reads (`deleted`: one it did not witness is a leak,
 * one it witnessed and does not get a miss). `$changes` from a stamp sends V each change since that
 * it may learn of: a created or updated entity it sees now, as D_V reads it, a deletion it
 * witnessed (`feed`); the changes are the datastore's own feed read with full rights.
 *
 * Sizes: the CI run sends at least 10,000 requests to each side (the test fails if fewer): 280
 * cases of 1 to 40 bursts of 1 to 4 requests by one client, about 12,500 requests, 7 to 12 s on the
 * 2-core machine. A failure prints the shrunk case (the request and both answers, the view, the
 * users, the restricts, the roles file). `KNOWN` below leaves out what today's code is known to
 * fail. `ENTISTORE_LONG=1`: ten times as many cases. `ENTISTORE_ORACLE_CHECKS=status,body`: only
 * those checks. `ENTISTORE_ORACLE_ALL=1`: `KNOWN` too. `ENTISTORE_ORACLE_CATALOGUE=1`: every kind
 * of finding in 280 cases (`ENTISTORE_ORACLE_SEED` picks them), each shrunk to its smallest case.
 */
import { afterAll, describe } from 'vitest'
import { casesTests, type Cases } from './findings-catalogue.fixture.js'
import { oracleCaseArb, type OracleCase } from './oracle-requests.fixture.js'
import {
  describeOracleFinding,
  ORACLE_CHECKS,
  type OracleCheck,
  type OracleFinding,
} from './oracle-findings.fixture.js'
import { poolStats } from './oracle-pool.fixture.js'
import { OracleRun } from './oracle-run.fixture.js'

/**
 * The kinds of finding that today's code shows and whose fix has not landed, each with the break
 * of issue 61 it is: left out of the default run (`ENTISTORE_ORACLE_ALL=1` runs them). Empty this
 * list as the fixes land; the catalogue shows every kind whatever it says.
 */
const KNOWN: readonly { check: OracleCheck; kind: RegExp; is: string }[] = [
  // 1. A promoted call reads the restrict answer its session cached unpromoted, and the next
  // request the promoted one: the answer is kept per session and stamp, not per view.
  { check: 'promotion', kind: /./, is: 'break 1' },
  // 2. Deletion witnesses are decided with the deleter's Session (`currentSession()` in the
  // reader's restrict is the deleter's), and only among sessions that read the dataclass before.
  { check: 'deleted', kind: /a deletion the view did not witness/, is: 'break 2' },
  { check: 'feed', kind: /a deletion the view did not witness/, is: 'break 2' },
  { check: 'deleted', kind: /a deletion the view witnessed, not shown/, is: 'break 2' },
  { check: 'feed', kind: /a deletion the view witnessed, not sent/, is: 'break 2' },
  // ... and a reader's restrict, run as the deleter to pick witnesses, refuses the delete.
  { check: 'status', kind: /^a (delete|deleteWhere): real refused/, is: 'break 2' },
  // 3. Computed attributes: the query and orderBy expansions and the setter's assignments are
  // not checked (`band` and `label` read `salary` and `ssn`, `payInput` and `band` write salary).
  {
    check: 'status',
    kind: /real ok, projected refused or unknown \(Employee\.(salary|ssn)\)$/,
    is: 'break 3',
  },
  {
    check: 'write-effect',
    kind: /Employee\.salary without (update|create or update)$/,
    is: 'break 3',
  },
  {
    check: 'status',
    kind: /^an? (create|update|\$atomic batch).*: real ok, projected refused or unknown \(Employee\.(payInput|band)\)$/,
    is: 'break 3',
  },
  // 4. setGlobalStamp is a REST function any execute holder may call.
  { check: 'stamp', kind: /^setGlobalStamp: /, is: 'break 4' },
  // New (this oracle): a restrict whose code the view may not run does not close its dataclass:
  // relations into it are listed, a feed of it is accepted, and what it reads is refused for the
  // whole request instead.
  { check: 'closed', kind: /./, is: 'new: a restrict that cannot run' },
  // New: a write whose reply cannot be written (a related dataclass's restrict refuses) answers
  // 403 after its commit: the data changed.
  { check: 'unchanged', kind: /./, is: 'new: a refusal after the commit' },
  // New: a function's `this` (an entity, a selection) is read as the caller without the
  // function's promotion, where its parameters and its reply get it.
  {
    check: 'status',
    kind: /^a call of an? (entity|entitySelection) function: real (missing|refused)/,
    is: 'new: this without the promotion',
  },
  // New: another session's entity set, read by a session its restrict lets see everything, still
  // counts (and lists as `{"__STAMP":0}`) the members deleted since.
  { check: 'body', kind: /^an entity set used: /, is: 'new: deleted members of a set' },
]

const LONG = process.env.ENTISTORE_LONG === '1'
const CASES = LONG ? 2_800 : 280
const STEPS = { minLength: 1, maxLength: 40, size: 'max' } as const
const MIN_REQUESTS = LONG ? 100_000 : 10_000
const checks =
  (process.env.ENTISTORE_ORACLE_CHECKS?.split(',') as OracleCheck[] | undefined) ?? ORACLE_CHECKS
const CATALOGUE = process.env.ENTISTORE_ORACLE_CATALOGUE === '1'
const ALL = process.env.ENTISTORE_ORACLE_ALL === '1'

/** The family of a finding: its check and kind (the kinds name no key nor value). */
const family = (f: OracleFinding): string => `[${f.check}] ${f.kind}`
const known = (f: OracleFinding): boolean =>
  !ALL && KNOWN.some((k) => k.check === f.check && k.kind.test(f.kind))

describe('the differential oracle: each request as its view, against a datastore of that view (issue 61)', () => {
  let requests = 0
  let runs = 0
  let ok = 0
  const started = performance.now()
  afterAll(() => {
    const s = ((performance.now() - started) / 1000).toFixed(1)
    console.log(
      `oracle: ${requests} requests in ${runs} cases, ${s} s; ${ok} answered 2xx; ` +
        `${poolStats.built} projected datastores made, loaded ${poolStats.loads} times`,
    )
  })
  const tally = (run: OracleRun, c: OracleCase) => {
    runs++
    requests += c.steps.length
    ok += run.stats.ok
  }

  const cases: Cases<OracleCase, OracleFinding> = {
    arb: oracleCaseArb(STEPS),
    numRuns: CASES,
    async run(c, first) {
      const run = new OracleRun(c, checks)
      const findings = await run.run()
      tally(run, c)
      // The default run leaves out what is known to fail; the catalogue shows everything.
      return first ? findings.filter((f) => !known(f)) : findings
    },
    family,
    describe: describeOracleFinding,
  }

  // The catalogue: every kind of finding, half a minute of shrinking each.
  casesTests(
    'every answer is the answer of the view’s own datastore',
    cases,
    MIN_REQUESTS,
    CATALOGUE
      ? {
          seed: Number(process.env.ENTISTORE_ORACLE_SEED ?? 61),
          shrinking: { numRuns: CASES, ms: 30_000 },
        }
      : undefined,
  )
})
