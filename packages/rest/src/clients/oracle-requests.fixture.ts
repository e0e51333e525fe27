/**
 * @module Issue 61's oracle: the cases it generates. Issue 46's requests (privileges-requests
 * .fixture.ts) over the names of the oracle's application (computed attributes in projections,
 * filters, orders, aggregates and writes), without those that hold no view (locks, uploads,
 * `$info`, `$catalog`), and the requests of change tracking besides: `__DeletedRecords` read as
 * a sync client reads it, the live feed `$changes` from a stamp seen before, and the global
 * stamp's functions.
 */
import fc from 'fast-check'
import {
  rolesFileArb,
  type GeneratedRoles,
} from '../../../core/src/roles/roles-reference.fixture.js'
import {
  BAND_LINE,
  CITY_PATH,
  DELETED,
  TRACKED,
  type ClientRestrict,
  type Restricts,
  type RestrictRule,
} from './oracle-app.fixture.js'
import {
  DATACLASSES,
  FUNCTIONS,
  INITIAL_KEYS,
  stringCanary,
  type DcName,
  type FnName,
  type PrivUser,
} from './privileges-app.fixture.js'
import { filterText as privFilterText } from './privileges-data.fixture.js'
import { queryOf, type Sent } from './privileges-send.fixture.js'
import {
  endpoint,
  perClientArb,
  PRIV_NAMES,
  reqArbOver,
  usersArb,
  type Filter,
  type Req,
  type RequestNames,
  type Who,
} from './privileges-requests.fixture.js'
import { ORACLE_ATTRS } from './oracle-app.fixture.js'

/** The requests of change tracking the oracle adds. */
export type TrackingReq =
  /** `GET /rest/__DeletedRecords`, all, or a sync's (`__Stamp > s AND __TableName = dc`). */
  | {
      readonly t: 'deleted'
      readonly dc?: DcName | undefined
      /** The n-th stamp the run has seen (0: none), as `__Stamp >`. */
      readonly since?: number | undefined
    }
  /** `GET /rest/{dc}/$changes?$since=s`, or `/rest/$changes?$dataClasses=…`, read to its end. */
  | {
      readonly t: 'changes'
      readonly dc?: DcName | undefined
      readonly since: number
      readonly attrs?: readonly string[] | undefined
    }
  /** `getGlobalStamp`, or `setGlobalStamp` to a stamp the run has seen or past it. */
  | { readonly t: 'stamp'; readonly set?: number | undefined }

export type OracleReq = Req | TrackingReq

export interface OracleStep {
  readonly who: Who
  readonly req: OracleReq
}

export interface OracleCase {
  readonly roles: GeneratedRoles
  readonly users: readonly PrivUser[]
  readonly restricts: Restricts
  /** The restricts read their session the 4D way, from `currentSession()`. */
  readonly current: boolean
  readonly steps: readonly OracleStep[]
}

const add = (
  table: Readonly<Record<DcName, readonly string[]>>,
  extra: Partial<Record<DcName, readonly string[]>>,
): Readonly<Record<DcName, readonly string[]>> =>
  Object.fromEntries(
    DATACLASSES.map((dc) => [dc, [...table[dc], ...(extra[dc] ?? [])]]),
  ) as unknown as Readonly<Record<DcName, readonly string[]>>

/** Issue 46's names, and the computed attributes of the oracle's application. */
export const ORACLE_NAMES: RequestNames = {
  ...PRIV_NAMES,
  attributes: add(PRIV_NAMES.attributes, { Employee: ['band', 'label', 'payInput'] }),
  filters: add(PRIV_NAMES.filters, {
    Company: ['staff.band', 'staff.label'],
    Employee: ['band', 'label'],
  }),
  orders: add(PRIV_NAMES.orders, { Employee: ['band', 'label'] }),
  aggregated: add(PRIV_NAMES.aggregated, { Employee: ['band', 'label'] }),
  writable: add(PRIV_NAMES.writable, { Employee: ['band', 'payInput'] }),
  creatable: add(PRIV_NAMES.creatable, { Employee: ['band', 'payInput'] }),
}

/**
 * A filter's text: a computed attribute compares what its query function rewrites to (`band`:
 * `high` or `low`; `label`: an ssn, which its query compares), anything else issue 46's canary.
 */
export function filterText(dc: DcName, f: Filter): string {
  const end = f.path.split('.').at(-1)!
  if (end === 'band') return `${f.path} ${f.op} '${f.k % 2 === 1 ? 'high' : 'low'}'`
  if (end === 'label') return `${f.path} ${f.op} '${stringCanary('Employee', 'ssn', f.k)}'`
  return privFilterText(dc, f)
}

const trackingArb: fc.Arbitrary<TrackingReq> = fc.oneof(
  fc.record(
    {
      t: fc.constant('deleted' as const),
      dc: fc.constantFrom(...TRACKED),
      since: fc.nat(4),
    },
    { requiredKeys: ['t'] },
  ),
  fc.record(
    {
      t: fc.constant('changes' as const),
      dc: fc.constantFrom(...DATACLASSES),
      since: fc.nat(4),
      attrs: fc.uniqueArray(fc.constantFrom('name', 'salary', 'band', 'employer'), {
        minLength: 1,
        maxLength: 2,
      }),
    },
    { requiredKeys: ['t', 'since'] },
  ),
  fc.record({ t: fc.constant('stamp' as const), set: fc.nat(4) }, { requiredKeys: ['t'] }),
)

/**
 * One request: issue 46's kinds that a view answers, change tracking's, and a function's reply
 * kept as an entity set (a set code made: read by its maker's view alone).
 */
export const oracleReqArb: fc.Arbitrary<OracleReq> = fc.oneof(
  {
    weight: 40,
    arbitrary: reqArbOver(ORACLE_NAMES, {
      lock: 0,
      upload: 0,
      attach: 0,
      putPhoto: 0,
      info: 0,
      privileges: 0,
      catalog: 0,
    }),
  },
  { weight: 8, arbitrary: trackingArb },
  {
    weight: 1,
    arbitrary: fc.constant({ t: 'call' as const, fn: 'Employee.top' as const, keep: true }),
  },
)

const ruleArb = (dc: DcName): fc.Arbitrary<RestrictRule> =>
  fc.oneof(
    fc.record({ kind: fc.constant('keys' as const), keys: fc.subarray([...INITIAL_KEYS[dc]]) }),
    fc.record({ kind: fc.constant('below' as const), k: fc.integer({ min: 1, max: 4 }) }),
    ...(CITY_PATH[dc]
      ? [fc.record({ kind: fc.constant('city' as const), k: fc.integer({ min: 1, max: 3 }) })]
      : []),
  )

const clientRestrictArb = (dc: DcName): fc.Arbitrary<ClientRestrict> =>
  fc.record(
    { rule: ruleArb(dc), unless: fc.constantFrom('p0', 'p1', 'p2', 'p3') },
    { requiredKeys: ['rule'] },
  )

/** A whole case: a roles file, users, each client's restricts, and the steps. */
export function oracleCaseArb(steps: fc.ArrayConstraints): fc.Arbitrary<OracleCase> {
  const universe = {
    dataClasses: [
      ...DATACLASSES.map((dc) => ({
        name: dc,
        attributes: Object.keys(ORACLE_ATTRS[dc]).filter((a) => a !== 'ID'),
      })),
      { name: DELETED, attributes: [] },
    ],
    methods: [...Object.keys(FUNCTIONS), 'ds.getGlobalStamp', 'ds.setGlobalStamp'],
  }
  const perClient = fc.record(
    {
      Company: clientRestrictArb('Company'),
      Employee: clientRestrictArb('Employee'),
      Project: clientRestrictArb('Project'),
    },
    { requiredKeys: [] },
  )
  return fc
    .record({
      roles: rolesFileArb(universe),
      users: usersArb,
      restricts: perClientArb(perClient) as fc.Arbitrary<Restricts>,
      current: fc.boolean(),
      // A function promoting a privilege a restrict lets everything through for, now and then:
      // a promotion then widens what the caller sees, for that call only.
      promotion: fc.option(
        fc.record({
          fn: fc.constantFrom(...(Object.keys(FUNCTIONS) as FnName[])),
          privilege: fc.constantFrom('p0', 'p1', 'p2', 'p3'),
        }),
        { nil: undefined },
      ),
      // Clients send a few requests in a row, as a page that loads does (a projected datastore
      // then serves them all: loading it costs more than a request).
      steps: fc
        .array(
          fc.record({
            who: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const),
            reqs: fc.array(oracleReqArb, { minLength: 1, maxLength: 4 }),
          }),
          steps,
        )
        .map((bursts) => bursts.flatMap(({ who, reqs }) => reqs.map((req) => ({ who, req })))),
    })
    .map(({ promotion, ...c }) => {
      const allowed = c.roles.file.permissions.allowed
      if (!promotion || allowed.some((e) => e.type === 'method' && e.applyTo === promotion.fn))
        return c
      const entry = {
        applyTo: promotion.fn,
        type: 'method' as const,
        promote: [promotion.privilege],
      }
      const file = { ...c.roles.file, permissions: { allowed: [...allowed, entry] } }
      return { ...c, roles: { ...c.roles, file } }
    })
}

/** A request of change tracking as sent; `stampAt(n)`: the n-th global stamp the run has seen. */
export function trackingSent(req: TrackingReq, stampAt: (n: number) => number): Sent {
  switch (req.t) {
    case 'deleted':
      return {
        method: 'GET',
        path: `/rest/${DELETED}`,
        query: queryOf({
          $filter:
            req.dc === undefined && req.since === undefined
              ? undefined
              : `"__Stamp>${stampAt(req.since ?? 0)}${req.dc ? ` AND __TableName='${req.dc}'` : ''}"`,
          $orderby: '__Stamp',
        }),
      }
    case 'changes':
      return {
        method: 'GET',
        path: req.dc ? `/rest/${req.dc}/$changes` : '/rest/$changes',
        query: queryOf({
          $dataClasses: req.dc ? undefined : DATACLASSES.join(','),
          $since: String(stampAt(req.since)),
          $attributes: req.dc ? req.attrs?.join(',') : undefined,
        }),
      }
    case 'stamp':
      return req.set === undefined
        ? { method: 'GET', path: '/rest/$catalog/getGlobalStamp', query: '' }
        : {
            method: 'POST',
            path: '/rest/$catalog/setGlobalStamp',
            query: '',
            body: JSON.stringify([stampAt(req.set)]),
          }
  }
}

/** A request in a few words: the catalogue tells findings of different endpoints apart. */
export function oracleEndpoint(req: OracleReq): string {
  switch (req.t) {
    case 'deleted':
      return 'a read of __DeletedRecords'
    case 'changes':
      return 'a $changes feed'
    case 'stamp':
      return req.set === undefined ? 'getGlobalStamp' : 'setGlobalStamp'
    default:
      return endpoint(req, ORACLE_ATTRS)
  }
}

export { BAND_LINE }
