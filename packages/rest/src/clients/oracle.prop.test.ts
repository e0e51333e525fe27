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
 * run, and its dataclass is closed to V, open and empty (docs/security.md, "Fail closed"): it stays
 * in V's model, its relations listed, a request naming it answered with no row.
 *
 * THE PROJECTED DATASTORE D_V (oracle-view.fixture.ts, oracle-pool.fixture.ts), made with
 * `createDatastore`, no restrict, no promotion:
 * - the dataclasses V reads (those closed to V, empty), the others left out of the model (server
 *   code touching them fails there as it must for V; table numbers kept, so that a deleted row
 *   names the same table);
 * - the attributes V reads: a relation only with its target, an alias only with its whole path;
 *   the inverse of a to-many relation V reads kept unexposed; a computed attribute whose name V
 *   may read but not what its getter reads kept with a getter (and a scan or sort through it)
 *   refused, 1607, as V's is (compat.md: a projection leaves such a value out); its query,
 *   orderBy and set functions are the application's, so that one going to an attribute D_V lacks
 *   fails there, as it must for V;
 * - the rows V's restrict answers, with the real keys, stamps, timestamps and `__GlobalStamp`; a
 *   relation to a row V does not see, or that is gone, reads null (docs/security.md: "a hidden
 *   related entity reads as null");
 * - `__DeletedRecords`: the rows of the deletions V may learn of (below), of dataclasses it reads;
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
 * WHAT MORE THAN V'S READS DECIDES. Two answers depend on more than what V reads now; the
 * projected side is then the answer that decides:
 * - reading an entity set (docs/entity-sets.md, "Owners"): a set keeps what its making needed, so
 *   a reader must be able to make it: its making's query (filter and order, a computed
 *   attribute's query and orderBy functions as they finally read) is sent to D_V first, and an
 *   answer other than ok there is what the read must answer (403 1607, 1557); what the maker's
 *   own restrict read (a relation's dataclass, its attribute) was needed too, so a refusal naming
 *   it is right; a set code made (a function's reply kept with `$method=entityset`) is read by
 *   its maker's view alone (403 9064);
 * - a promoted call of a function of an entity or a selection (docs/security.md, "What a function
 *   may do"): its `this` is what the caller's own view resolves from the URL (the entity by its
 *   key, the selection by its `$filter` and restrict), asked of D_V(own) first; an answer other
 *   than ok there is the call's (404 or 1557), and a selection's function runs in D_{V+P} on the
 *   keys D_V(own) resolved.
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
 * An `$atomic` batch of more than one item in a restricted dataclass is not compared: inside its
 * transaction the restrict answers on the batch's own writes (an earlier item may move an entity in
 * or out of V, or create one), which D_V, projected once before the batch, cannot tell.
 *
 * WRITES (oracle-writes.fixture.ts). Allowed on both sides or refused on both (`status`); allowed,
 * the rows D_V stored equal the real rows as V sees them (`stored`), and what V's write changed in
 * the real datastore is only what V may write: rows it sees, attributes it may update or give on
 * creation, a dataclass it may drop from (`write-effect`: this holds whatever D_V did, since the
 * same code serves both sides and a side door both share would cancel out); refused, the real
 * datastore, read whole with full rights, did not change (`unchanged`). The global stamp moves only
 * with the data, and never back (`stamp`).
 *
 * FUNCTIONS AND PROMOTIONS. A call is answered as V+P from its `this` on (above): D_{V+P} holds
 * what V+P reads, the function exists there if V may execute it, and its reply must be D_{V+P}'s
 * (docs/security.md, "What a function may do": the promotion counts for the code, the awaits, the
 * parameters and the reply). The next request is answered as V again: a promotion that leaks, or
 * a call answered with V's cached rows, shows there.
 *
 * CHANGE TRACKING (oracle-feed.fixture.ts, oracle-witness.fixture.ts). The datastore decides a
 * deletion's witnesses among the sessions that read its dataclass or follow its feed, each as its
 * own view (docs/change-tracking.md, "Who sees the deleted rows"). What "read" is the oracle does
 * not model exactly; it checks both sides soundly: a deletion shown to V whose own view (no
 * promotion) could not see the row just before it is a leak; one not shown to V whose own view
 * could, and that surely read the dataclass before (a 2xx request whose root is that dataclass, a
 * `$changes` of it) is a miss; any other may be shown or not. `__DeletedRecords` (`deleted`) and
 * `$changes` from a stamp (`feed`: each change since that V may learn of, a created or updated
 * entity it sees now as D_V reads it) are held to that; the changes are the datastore's own feed
 * read with full rights.
 *
 * Sizes: the CI run sends at least 10,000 requests to each side (the test fails if fewer): 280
 * cases of 1 to 40 bursts of 1 to 4 requests by one client, about 12,500 requests, 9 to 19 s on
 * the 2-core machine under load (ten times as many: 137,538 requests, 142 s). A failure prints the
 * shrunk case (the request and both answers, the view, the users, the restricts, the roles file). `KNOWN` below leaves out what today's code is known to
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
 * The kinds of finding that today's code shows and whose fix has not landed, each with what it is:
 * left out of the default run (`ENTISTORE_ORACLE_ALL=1` runs them). The catalogue shows every kind
 * whatever it says.
 */
const KNOWN: readonly { check: OracleCheck; kind: RegExp; is: string }[] = []

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
  const counts = { ok: 0, decided: 0, ownThis: 0, mustLearn: 0 }
  const started = performance.now()
  afterAll(() => {
    const s = ((performance.now() - started) / 1000).toFixed(1)
    console.log(
      `oracle: ${requests} requests in ${runs} cases, ${s} s; ${counts.ok} answered 2xx; ` +
        `${counts.decided} decided by a set's making or a call's own this, ` +
        `${counts.ownThis} promoted calls on their own this, ` +
        `${counts.mustLearn} deleted rows a view must be shown; ` +
        `${poolStats.built} projected datastores made, loaded ${poolStats.loads} times`,
    )
  })
  const tally = (run: OracleRun, c: OracleCase) => {
    runs++
    requests += c.steps.length
    for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] += run.stats[k]
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
