/**
 * @module Issue 46: the requests the attack sends, as plain values a counterexample prints, and
 * their generators. A request names what it touches (a dataclass, attributes, a filter by path,
 * the n-th entity set or upload made so far); the run (privileges-run.fixture.ts) turns it into a
 * URL and a body, with fresh canaries for the values it writes.
 *
 * Shrinking: every optional part is `undefined` when shrunk, lists shrink to one name, numbers to
 * the first key, so that a counterexample is one short request.
 */
import fc from 'fast-check'
import {
  rolesFileArb,
  type GeneratedRoles,
} from '../../../core/src/roles/roles-reference.fixture.js'
import {
  ATTRS,
  DATACLASSES,
  FUNCTIONS,
  GUEST,
  INITIAL_KEYS,
  type AttrInfo,
  type DcName,
  type FnName,
  type PrivUser,
  type Restrictions,
} from './privileges-app.fixture.js'

/** Users u0…u2 log in; the fourth client stays a guest. */
export const USERS = ['u0', 'u1', 'u2'] as const
/** The clients by number: the users, then the guest. */
export const WHO = [...USERS, GUEST] as const
export type Who = 0 | 1 | 2 | 3

/** A filter `path op value`: the value is the canary of `path`'s last attribute for entity `k`. */
export interface Filter {
  readonly path: string
  readonly op: '=' | '>' | '<'
  readonly k: number
}

/** One request, as a counterexample shows it. */
export type Req =
  | {
      readonly t: 'list'
      readonly dc: DcName
      readonly attrs?: readonly string[] | undefined
      readonly filter?: Filter | undefined
      readonly orderby?: string | undefined
      readonly expand?: string | undefined
      readonly page?: { readonly skip: number; readonly top: number } | undefined
      readonly plan?: 'queryplan' | 'querypath' | undefined
      readonly form?: 'asArray' | 'looker' | undefined
      /** `$method=entityset`: the selection is kept as a set. */
      readonly keep?: boolean | undefined
    }
  | {
      readonly t: 'get'
      readonly dc: DcName
      readonly key: number
      readonly attrs?: readonly string[] | undefined
      readonly expand?: string | undefined
    }
  | { readonly t: 'lookup'; readonly dc: DcName; readonly attr: string; readonly key: number }
  | { readonly t: 'nav'; readonly dc: DcName; readonly key: number; readonly rel: string }
  | {
      readonly t: 'compute'
      readonly dc: DcName
      readonly attr: string
      readonly op: 'count' | 'sum' | '$all' | 'max'
      readonly filter?: Filter | undefined
    }
  | {
      readonly t: 'distinct'
      readonly dc: DcName
      readonly attr: string
      readonly filter?: Filter | undefined
    }
  /** The n-th entity set made so far (by any session), read. */
  | { readonly t: 'set'; readonly set: number }
  | {
      readonly t: 'algebra'
      readonly set: number
      readonly other: number
      readonly op: 'AND' | 'OR' | 'EXCEPT' | 'INTERSECT'
    }
  | { readonly t: 'release'; readonly set: number }
  | { readonly t: 'info' }
  | { readonly t: 'privileges' }
  | { readonly t: 'catalog'; readonly which: '' | '$all' | DcName }
  | { readonly t: 'lock'; readonly dc: DcName; readonly key: number; readonly on: boolean }
  | {
      readonly t: 'update'
      readonly dc: DcName
      readonly key: number
      /** Attributes set to fresh canaries; a relation to the key `rel`; `bad`: a refused name. */
      readonly set: readonly string[]
      readonly rel?: number | undefined
      readonly bad?: boolean | undefined
      /**
       * An alias or computed attribute in `set` is sent the value it has now, a right guess
       * (writing.md: such a value sent back unchanged is ignored, another is refused).
       */
      readonly guess?: boolean | undefined
    }
  | { readonly t: 'create'; readonly dc: DcName; readonly set: readonly string[] }
  /** `$atomic=true`: updates (with a key) and creates (without). */
  | {
      readonly t: 'batch'
      readonly dc: DcName
      readonly items: readonly {
        readonly key?: number | undefined
        readonly set: readonly string[]
      }[]
    }
  | { readonly t: 'delete'; readonly dc: DcName; readonly key: number }
  | { readonly t: 'deleteWhere'; readonly dc: DcName; readonly filter: Filter }
  | { readonly t: 'upload' }
  /** An Employee's photo set to the n-th upload made so far. */
  | { readonly t: 'attach'; readonly key: number; readonly upload: number }
  /** A picture POSTed to `/rest/Employee(key)/photo`. */
  | { readonly t: 'putPhoto'; readonly key: number }
  | { readonly t: 'photo'; readonly key: number }
  | {
      readonly t: 'call'
      readonly fn: FnName
      readonly key?: number | undefined
      readonly filter?: Filter | undefined
      /** `$method=entityset`: the selection the function returns is kept as a set (the oracle's). */
      readonly keep?: boolean | undefined
    }

export interface Step {
  readonly who: Who
  readonly req: Req
}

/** A roles file, the users, what `restrict` lets each see, and who sends what. */
export interface Case {
  readonly roles: GeneratedRoles
  readonly users: readonly PrivUser[]
  readonly restrictions: Restrictions
  readonly steps: readonly Step[]
}

// ---- the names requests use

const REL_PATHS: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['staff.name', 'staff.salary', 'projects.title', 'projects.note'],
  Employee: ['employer.name', 'employer.city'],
  Project: ['company.name', 'company.revenue'],
}
/** What `$attributes` may name: every attribute but the key, and paths through relations. */
const ATTRIBUTE_NAMES = Object.fromEntries(
  DATACLASSES.map((dc) => [
    dc,
    [...Object.keys(ATTRS[dc]).filter((a) => a !== 'ID'), ...REL_PATHS[dc]],
  ]),
) as unknown as Readonly<Record<DcName, readonly string[]>>

/** Paths a filter compares: to-one and to-many relations, aliases, a computed attribute. */
const FILTER_PATHS: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['ID', 'name', 'city', 'revenue', 'staff.salary', 'staff.ssn', 'projects.budget'],
  Employee: [
    'ID',
    'name',
    'salary',
    'ssn',
    'yearly',
    'employerName',
    'employer.name',
    'employer.revenue',
  ],
  Project: ['ID', 'title', 'budget', 'note', 'company.name', 'companyCity', 'company.revenue'],
}
/** Paths an `$orderby` sorts on (a to-many path is not sortable: 1810). */
const ORDER_PATHS: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['ID', 'revenue', 'name', 'city'],
  Employee: ['ID', 'salary', 'yearly', 'ssn', 'employer.revenue'],
  Project: ['ID', 'budget', 'note', 'company.revenue'],
}
/** What `$compute` and `$distinct` aggregate. */
const AGGREGATED: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['revenue', 'name', 'city'],
  Employee: ['salary', 'yearly', 'ssn', 'name', 'employerName'],
  Project: ['budget', 'note', 'title', 'companyCity'],
}
const LOOKUPS: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['name'],
  Employee: ['ssn', 'name'],
  Project: ['title'],
}
/** What an update sets: stored values, relations, aliases (whose write 4D gives their target). */
const WRITABLE: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['name', 'city', 'revenue'],
  Employee: ['name', 'salary', 'ssn', 'employer', 'employerName', 'yearly'],
  Project: ['title', 'budget', 'note', 'company', 'companyCity'],
}
/** What a create (or a batch item) sets. */
const CREATABLE: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['name', 'city', 'revenue'],
  Employee: ['name', 'salary', 'ssn'],
  Project: ['title', 'budget'],
}
export const RELATIONS: Readonly<Record<DcName, readonly string[]>> = {
  Company: ['staff', 'projects'],
  Employee: ['employer'],
  Project: ['company'],
}

/** The names the requests use, per dataclass: what the generators pick from. */
export interface RequestNames {
  /** What `$attributes` may name. */
  readonly attributes: Readonly<Record<DcName, readonly string[]>>
  /** Paths a filter compares. */
  readonly filters: Readonly<Record<DcName, readonly string[]>>
  /** Paths an `$orderby` sorts on. */
  readonly orders: Readonly<Record<DcName, readonly string[]>>
  /** What `$compute` and `$distinct` aggregate. */
  readonly aggregated: Readonly<Record<DcName, readonly string[]>>
  readonly lookups: Readonly<Record<DcName, readonly string[]>>
  /** What an update sets. */
  readonly writable: Readonly<Record<DcName, readonly string[]>>
  /** What a create (or a batch item) sets. */
  readonly creatable: Readonly<Record<DcName, readonly string[]>>
}

/** The names of issue 46's application (privileges-app.fixture.ts). */
export const PRIV_NAMES: RequestNames = {
  attributes: ATTRIBUTE_NAMES,
  filters: FILTER_PATHS,
  orders: ORDER_PATHS,
  aggregated: AGGREGATED,
  lookups: LOOKUPS,
  writable: WRITABLE,
  creatable: CREATABLE,
}

// ---- generators

const dcArb = fc.constantFrom(...DATACLASSES)
/** A key of the data file, or the one after it (a missing entity, or the first created). */
const keyOf = (dc: DcName) => fc.integer({ min: 1, max: INITIAL_KEYS[dc].length + 1 })

const filterArbOf =
  (paths: RequestNames['filters']) =>
  (dc: DcName): fc.Arbitrary<Filter> =>
    fc.record({
      path: fc.constantFrom(...paths[dc]),
      op: fc.constantFrom('=' as const, '>' as const, '<' as const),
      k: fc.integer({ min: 1, max: 4 }),
    })
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 })
const names = (from: readonly string[]) =>
  fc.uniqueArray(fc.constantFrom(...from), { minLength: 1, maxLength: 3 })
const perDc = <T>(make: (dc: DcName) => fc.Arbitrary<T>): fc.Arbitrary<T> => dcArb.chain(make)
// fc.record with only `required` keys required: the others shrink away.
const rec = <T extends object>(
  shape: { [K in keyof T]: fc.Arbitrary<T[K]> },
  required: readonly (keyof T)[],
): fc.Arbitrary<T> =>
  fc.record(shape, { requiredKeys: required as (keyof T)[] }) as unknown as fc.Arbitrary<T>

type Of<T extends Req['t']> = Extract<Req, { t: T }>

/**
 * One request of any kind, reads more often than the rest, over `names`; `weights` changes the
 * weight of some kinds (0: never).
 */
export function reqArbOver(
  tables: RequestNames,
  weights: Partial<Record<Req['t'], number>> = {},
): fc.Arbitrary<Req> {
  const {
    attributes: ATTRIBUTE_NAMES,
    filters: FILTER_PATHS,
    orders: ORDER_PATHS,
    aggregated: AGGREGATED,
    lookups: LOOKUPS,
    writable: WRITABLE,
    creatable: CREATABLE,
  } = tables
  const filterArb = filterArbOf(FILTER_PATHS)
  const kinds: { t: Req['t']; weight: number; arbitrary: fc.Arbitrary<Req> }[] = [
    {
      t: 'list',
      weight: 6,
      arbitrary: perDc((dc) =>
        rec<Of<'list'>>(
          {
            t: fc.constant('list'),
            dc: fc.constant(dc),
            attrs: opt(names(ATTRIBUTE_NAMES[dc])),
            filter: opt(filterArb(dc)),
            orderby: opt(
              fc
                .tuple(fc.constantFrom(...ORDER_PATHS[dc]), fc.boolean())
                .map(([p, desc]) => (desc ? `${p} desc` : p)),
            ),
            expand: opt(fc.constantFrom(...RELATIONS[dc])),
            page: opt(fc.record({ skip: fc.nat(3), top: fc.integer({ min: 0, max: 4 }) })),
            plan: opt(fc.constantFrom('queryplan' as const, 'querypath' as const)),
            form: opt(fc.constantFrom('asArray' as const, 'looker' as const)),
            keep: opt(fc.constant(true)),
          },
          ['t', 'dc'],
          // A set is kept from the envelope's __ENTITYSET, which $asArray and looker do not write.
        ).map((r) => (r.keep && r.form ? { ...r, form: undefined } : r)),
      ),
    },
    {
      t: 'get',
      weight: 3,
      arbitrary: perDc((dc) =>
        rec<Of<'get'>>(
          {
            t: fc.constant('get'),
            dc: fc.constant(dc),
            key: keyOf(dc),
            attrs: opt(names(ATTRIBUTE_NAMES[dc])),
            expand: opt(fc.constantFrom(...RELATIONS[dc])),
          },
          ['t', 'dc', 'key'],
        ),
      ),
    },
    {
      t: 'lookup',
      weight: 1,
      arbitrary: perDc((dc) =>
        fc.record({
          t: fc.constant('lookup' as const),
          dc: fc.constant(dc),
          attr: fc.constantFrom(...LOOKUPS[dc]),
          key: keyOf(dc),
        }),
      ),
    },
    {
      t: 'nav',
      weight: 2,
      arbitrary: perDc((dc) =>
        fc.record({
          t: fc.constant('nav' as const),
          dc: fc.constant(dc),
          key: keyOf(dc),
          rel: fc.constantFrom(...RELATIONS[dc]),
        }),
      ),
    },
    {
      t: 'compute',
      weight: 2,
      arbitrary: perDc((dc) =>
        rec<Of<'compute'>>(
          {
            t: fc.constant('compute'),
            dc: fc.constant(dc),
            attr: fc.constantFrom(...AGGREGATED[dc]),
            op: fc.constantFrom('count' as const, 'sum' as const, '$all' as const, 'max' as const),
            filter: opt(filterArb(dc)),
          },
          ['t', 'dc', 'attr', 'op'],
        ),
      ),
    },
    {
      t: 'distinct',
      weight: 2,
      arbitrary: perDc((dc) =>
        rec<Of<'distinct'>>(
          {
            t: fc.constant('distinct'),
            dc: fc.constant(dc),
            attr: fc.constantFrom(...AGGREGATED[dc]),
            filter: opt(filterArb(dc)),
          },
          ['t', 'dc', 'attr'],
        ),
      ),
    },
    {
      t: 'set',
      weight: 2,
      arbitrary: fc.record({ t: fc.constant('set' as const), set: fc.nat(3) }),
    },
    {
      t: 'algebra',
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('algebra' as const),
        set: fc.nat(3),
        other: fc.nat(3),
        op: fc.constantFrom('AND' as const, 'OR' as const, 'EXCEPT' as const, 'INTERSECT' as const),
      }),
    },
    {
      t: 'release',
      weight: 1,
      arbitrary: fc.record({ t: fc.constant('release' as const), set: fc.nat(3) }),
    },
    { t: 'info', weight: 1, arbitrary: fc.constant({ t: 'info' as const }) },
    { t: 'privileges', weight: 1, arbitrary: fc.constant({ t: 'privileges' as const }) },
    {
      t: 'catalog',
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('catalog' as const),
        which: fc.constantFrom('' as const, '$all' as const, ...DATACLASSES),
      }),
    },
    {
      t: 'lock',
      weight: 1,
      arbitrary: perDc((dc) =>
        fc.record({
          t: fc.constant('lock' as const),
          dc: fc.constant(dc),
          key: keyOf(dc),
          on: fc.boolean(),
        }),
      ),
    },
    {
      t: 'update',
      weight: 3,
      arbitrary: perDc((dc) =>
        rec<Of<'update'>>(
          {
            t: fc.constant('update'),
            dc: fc.constant(dc),
            key: keyOf(dc),
            set: names(WRITABLE[dc]),
            rel: opt(fc.integer({ min: 1, max: 3 })),
            bad: opt(fc.constant(true)),
            guess: opt(fc.constant(true)),
          },
          ['t', 'dc', 'key', 'set'],
        ),
      ),
    },
    {
      t: 'create',
      weight: 2,
      arbitrary: perDc((dc) =>
        fc.record({
          t: fc.constant('create' as const),
          dc: fc.constant(dc),
          set: fc.uniqueArray(fc.constantFrom(...CREATABLE[dc]), { maxLength: 2 }),
        }),
      ),
    },
    {
      t: 'batch',
      weight: 1,
      arbitrary: perDc((dc) =>
        fc.record({
          t: fc.constant('batch' as const),
          dc: fc.constant(dc),
          items: fc.array(
            rec<{ key?: number | undefined; set: readonly string[] }>(
              { key: opt(keyOf(dc)), set: names(CREATABLE[dc]) },
              ['set'],
            ),
            { minLength: 1, maxLength: 3 },
          ),
        }),
      ),
    },
    {
      t: 'delete',
      weight: 1,
      arbitrary: perDc((dc) =>
        fc.record({ t: fc.constant('delete' as const), dc: fc.constant(dc), key: keyOf(dc) }),
      ),
    },
    {
      t: 'deleteWhere',
      weight: 1,
      arbitrary: perDc((dc) =>
        fc.record({
          t: fc.constant('deleteWhere' as const),
          dc: fc.constant(dc),
          filter: filterArb(dc),
        }),
      ),
    },
    { t: 'upload', weight: 1, arbitrary: fc.constant({ t: 'upload' as const }) },
    {
      t: 'attach',
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('attach' as const),
        key: keyOf('Employee'),
        upload: fc.nat(2),
      }),
    },
    {
      t: 'putPhoto',
      weight: 1,
      arbitrary: fc.record({ t: fc.constant('putPhoto' as const), key: keyOf('Employee') }),
    },
    {
      t: 'photo',
      weight: 1,
      arbitrary: fc.record({ t: fc.constant('photo' as const), key: keyOf('Employee') }),
    },
    {
      t: 'call',
      weight: 4,
      arbitrary: fc.constantFrom(...(Object.keys(FUNCTIONS) as FnName[])).chain((fn) => {
        const info = FUNCTIONS[fn]
        return rec<Of<'call'>>(
          {
            t: fc.constant('call'),
            fn: fc.constant(fn),
            key: 'dc' in info && info.kind === 'entity' ? keyOf(info.dc) : fc.constant(undefined),
            filter:
              'dc' in info && info.kind === 'entitySelection'
                ? opt(filterArb(info.dc))
                : fc.constant(undefined),
          },
          ['t', 'fn'],
        )
      }),
    },
  ]
  return fc.oneof(
    ...kinds
      .map(({ t, weight, arbitrary }) => ({ weight: weights[t] ?? weight, arbitrary }))
      .filter((k) => k.weight > 0),
  )
}

/** One request of issue 46's application. */
export const reqArb: fc.Arbitrary<Req> = reqArbOver(PRIV_NAMES)

/** What a request is, in a few words: the catalogue tells failures of different endpoints apart. */
export function endpoint(
  req: Req,
  attrs: Readonly<Record<DcName, Readonly<Record<string, AttrInfo>>>> = ATTRS,
): string {
  switch (req.t) {
    case 'call':
      if (req.keep) return 'an entity set made by a function'
      return `a call of ${FUNCTIONS[req.fn].kind.startsWith('entity') ? 'an' : 'a'} ${FUNCTIONS[req.fn].kind} function`
    case 'list':
      return req.keep ? 'an entity set made' : 'a read of a selection'
    case 'get':
      return 'a read of an entity'
    case 'update':
      return req.set.some((a) => ['alias', 'calculated'].includes(attrs[req.dc][a]!.kind))
        ? 'an update naming an alias or computed attribute'
        : 'an update'
    case 'batch':
      return 'an $atomic batch'
    case 'set':
    case 'algebra':
    case 'release':
      return 'an entity set used'
    case 'upload':
      return 'an upload'
    case 'info':
    case 'privileges':
      return `an $info`
    default:
      return `a ${req.t}`
  }
}

/** What users are given: declared privileges (one in capitals), `guest`, an undeclared name. */
const GIVEN = ['p0', 'P1', 'p2', 'p3', 'guest', 'ghost']

/** The keys `restrict` lets one client see: all (null) or some, per dataclass. */
const restriction = fc.record({
  Company: fc.option(fc.subarray([...INITIAL_KEYS.Company]), { nil: null, freq: 3 }),
  Employee: fc.option(fc.subarray([...INITIAL_KEYS.Employee]), { nil: null, freq: 3 }),
  Project: fc.option(fc.subarray([...INITIAL_KEYS.Project]), { nil: null, freq: 3 }),
})

/** The users u0…u2, each given some privileges (or none) and a role (or none). */
export const usersArb: fc.Arbitrary<PrivUser[]> = fc.tuple(
  ...USERS.map((name) =>
    fc.record({
      name: fc.constant(name),
      privileges: fc.uniqueArray(fc.constantFrom(...GIVEN), { maxLength: 3 }),
      roles: fc.uniqueArray(fc.constantFrom('R0', 'r1', 'R2'), { maxLength: 1 }),
    }),
  ),
)

/**
 * A value of `arb` for half the clients (by name, the guest's `(guest)`); shrinking takes them
 * away: what each client's `restrict` lets it see.
 */
export function perClientArb<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> {
  return fc.tuple(...WHO.map(() => fc.option(arb, { nil: undefined, freq: 2 }))).map((r) => {
    const out: Record<string, T> = {}
    WHO.forEach((who, i) => {
      if (r[i] !== undefined) out[who] = r[i]
    })
    return out
  })
}

/** A whole case: a roles file (forceLogin one time in ten), users, restrictions, `steps`. */
export function caseArb(steps: { minLength: number; maxLength: number }): fc.Arbitrary<Case> {
  const universe = {
    dataClasses: DATACLASSES.map((dc) => ({
      name: dc,
      attributes: Object.keys(ATTRS[dc]).filter((a) => a !== 'ID'),
    })),
    methods: Object.keys(FUNCTIONS),
  }
  return fc.record({
    roles: fc
      .tuple(rolesFileArb(universe), fc.integer({ min: 0, max: 9 }))
      // Shrinks to 0: no forceLogin.
      .map(([g, n]) => ({ ...g, file: { ...g.file, forceLogin: n === 9 } })),
    users: usersArb,
    restrictions: perClientArb(restriction) as fc.Arbitrary<Restrictions>,
    steps: fc.array(
      fc.record({
        who: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const),
        req: reqArb,
      }),
      steps,
    ),
  })
}
