/**
 * @module Issue 61: the application the differential oracle (oracle.prop.test.ts) attacks. It is
 * issue 46's (privileges-app.fixture.ts: its data of canaries, functions and events) with what
 * issue 61 found broken besides:
 * - computed attributes whose code reads more than their name says: `band` (its getter, query,
 *   orderBy and setter all go to `salary`), `label` (its getter reads `name`, but its query and
 *   orderBy go to `ssn`: a side door if only the getter were checked) and `payInput` (reads
 *   nothing, its setter writes `salary`);
 * - change tracking on Employee and Project (`__GlobalStamp`, `__DeletedRecords`; Company is not
 *   tracked);
 * - a `restrict` per user and dataclass of several kinds (keys, a query on the dataclass's own
 *   number, a query through a relation), one that lets everything through for a session holding a
 *   privilege (4D's `Session.hasPrivilege`, so that a promotion changes its answer), reading its
 *   session from the event's parameter or, the 4D way, from `currentSession()`.
 */
import {
  currentSession,
  sessionUser,
  type ComputedAttributeFunctions,
  type EntityView,
  type ModelJson,
} from '@entistore/core'
import {
  ATTRS,
  GUEST,
  numberCanary,
  PRIV_MODEL,
  privFunctions,
  stringCanary,
  type AttrInfo,
  type DcName,
  type RestrictFn,
} from './privileges-app.fixture.js'

/** The salary above which an employee's `band` is high: Employee 3's (keys 4 and up are above). */
export const BAND_LINE = numberCanary('Employee', 'salary', 3)

const salaryOf = (e: EntityView): number | null => e.get('salary') as number | null

// 4D's operators as a query function gets them, in the filter language.
const OPERATOR: Readonly<Record<string, string>> = {
  '==': '=',
  '===': '===',
  '!=': '!=',
  '!==': '!==',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
}

/** Employee's computed attributes besides `yearly`: their code, as the application gives it. */
export const COMPUTED: Readonly<Record<string, ComputedAttributeFunctions>> = {
  band: {
    get: (e) => {
      const s = salaryOf(e)
      return s === null ? null : s > BAND_LINE ? 'high' : 'low'
    },
    query({ operator, value }) {
      const high = String(value).toLowerCase() === 'high'
      if (operator === '==' || operator === '===')
        return high ? `salary > ${BAND_LINE}` : `salary <= ${BAND_LINE}`
      if (operator === '!=' || operator === '!==')
        return high ? `salary <= ${BAND_LINE}` : `salary > ${BAND_LINE}`
      return null
    },
    orderBy: ({ descending }) => (descending ? 'salary desc' : 'salary'),
    set: (value) => ({ salary: Number(value) }),
  },
  label: {
    get: (e) => e.get('name'),
    query({ operator, value }) {
      const op = OPERATOR[operator]
      return op === undefined ? null : { query: `ssn ${op} :1`, parameters: [value] }
    },
    orderBy: ({ descending }) => (descending ? 'ssn desc' : 'ssn'),
  },
  payInput: {
    get: () => null,
    set: (value) => ({ salary: value }),
  },
}

/**
 * What the code of each computed attribute reads (its getter, its query and orderBy functions) and
 * writes (its setter): the projected datastore keeps an attribute only if its getter's reads are
 * readable, and its other functions then fail there as they must fail for the view.
 */
export const CODE_READS: Readonly<
  Record<
    string,
    {
      readonly get: readonly string[]
      readonly query?: readonly string[]
      readonly orderBy?: readonly string[]
      readonly set?: readonly string[]
    }
  >
> = {
  'Employee.yearly': { get: ['salary'] },
  'Employee.band': { get: ['salary'], query: ['salary'], orderBy: ['salary'], set: ['salary'] },
  'Employee.label': { get: ['name'], query: ['ssn'], orderBy: ['ssn'] },
  'Employee.payInput': { get: [], set: ['salary'] },
}

/** What an update's entity event reads (Employee's validateSave: the name), as the caller. */
export const UPDATE_EVENT_READS: Readonly<Partial<Record<DcName, readonly string[]>>> = {
  Employee: ['name'],
}

/** The attributes of the application: issue 46's and the computed ones above. */
export const ORACLE_ATTRS: Readonly<Record<DcName, Readonly<Record<string, AttrInfo>>>> = {
  ...ATTRS,
  Employee: {
    ...ATTRS.Employee,
    band: { kind: 'calculated', type: 'string' },
    label: { kind: 'calculated', type: 'string' },
    payInput: { kind: 'calculated', type: 'number' },
  },
}

/** The tracked dataclasses (those with `__GlobalStamp`). */
export const TRACKED: readonly DcName[] = ['Employee', 'Project']
export const DELETED = '__DeletedRecords'
export const GLOBAL_STAMP = '__GlobalStamp'

/** The table numbers, kept by the projected datastores (a deleted row names its table by it). */
export const TABLE_NUMBER: Readonly<Record<string, number>> = {
  Company: 1,
  Employee: 2,
  Project: 3,
  [DELETED]: 4,
}

export const ORACLE_MODEL: ModelJson = {
  __NAME: 'oracle',
  dataClasses: [
    ...PRIV_MODEL.dataClasses.map((dc) => ({
      ...dc,
      tableNumber: TABLE_NUMBER[dc.name]!,
      attributes: [
        ...dc.attributes,
        ...(dc.name === 'Employee'
          ? [
              { name: 'band', kind: 'calculated' as const, type: 'string' },
              { name: 'label', kind: 'calculated' as const, type: 'string' },
              { name: 'payInput', kind: 'calculated' as const, type: 'number' },
            ]
          : []),
        ...((TRACKED as readonly string[]).includes(dc.name)
          ? [{ name: GLOBAL_STAMP, type: 'long64', indexed: true }]
          : []),
      ],
    })),
    {
      name: DELETED,
      tableNumber: TABLE_NUMBER[DELETED]!,
      attributes: [
        { name: 'ID', type: 'long64', autosequence: true, indexed: true },
        { name: '__Stamp', type: 'long64', indexed: true },
        { name: '__TableNumber', type: 'long' },
        { name: '__TableName', type: 'string' },
        { name: '__PrimaryKey', type: 'string' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
} as ModelJson

// ---- restrict

/** What a `restrict` lets a user see of a dataclass. */
export type RestrictRule =
  /** These keys. */
  | { readonly kind: 'keys'; readonly keys: readonly number[] }
  /** The entities whose number (`NUMBER_OF`) is below entity k's canary: it moves with writes. */
  | { readonly kind: 'below'; readonly k: number }
  /** Employee and Project: those whose company's city is company k's (through a relation). */
  | { readonly kind: 'city'; readonly k: number }

/** The number a `below` restrict compares, per dataclass. */
export const NUMBER_OF: Readonly<Record<DcName, string>> = {
  Company: 'revenue',
  Employee: 'salary',
  Project: 'budget',
}

/** The relation a `city` restrict goes through. */
export const CITY_PATH: Readonly<Partial<Record<DcName, string>>> = {
  Employee: 'employer',
  Project: 'company',
}

export interface ClientRestrict {
  readonly rule: RestrictRule
  /** A privilege whose holder sees everything (`currentSession().hasPrivilege(…)`). */
  readonly unless?: string | undefined
}

/** Each user's (and the guest's) restrict per dataclass; none: no restriction. */
export type Restricts = Readonly<
  Record<string, Readonly<Partial<Record<DcName, ClientRestrict>>> | undefined>
>

/** The query a rule runs (and so what it reads, as the caller). */
export function ruleQuery(dc: DcName, rule: RestrictRule): { query: string; params: unknown[] } {
  switch (rule.kind) {
    case 'keys':
      return rule.keys.length === 0
        ? { query: 'ID = -1', params: [] }
        : { query: 'ID in :1', params: [[...rule.keys]] }
    case 'below':
      return {
        query: `${NUMBER_OF[dc]} < :1`,
        params: [numberCanary(dc, NUMBER_OF[dc], rule.k)],
      }
    case 'city':
      return {
        query: `${CITY_PATH[dc]!}.city = :1`,
        params: [stringCanary('Company', 'city', rule.k)],
      }
  }
}

/**
 * The restrict of each dataclass: the rule of the session's user. `current`: the session is read
 * the 4D way, from `currentSession()`, rather than from the event's parameter. Without a session
 * (the TypeScript API outside a request: the test reading with full rights), no restriction.
 */
export function restrictsOf(
  restricts: Restricts,
  current: boolean,
): (dc: DcName) => RestrictFn | undefined {
  return (dc) =>
    function ({ session }) {
      const now = currentSession()
      if (current ? now === null : !session) return null
      const who = current ? now!.userName || GUEST : (sessionUser(session!)?.name ?? GUEST)
      const r = restricts[who]?.[dc]
      if (r === undefined) return null
      if (r.unless !== undefined && now?.hasPrivilege(r.unless)) return null
      const { query, params } = ruleQuery(dc, r.rule)
      return this.query(query, ...params)
    }
}

/** The application's code: issue 46's, these computed attributes, `restrict` from `restricts`. */
export function oracleFunctions(
  restrictOf: (dc: DcName) => RestrictFn | undefined,
  notes: { next: number },
) {
  return privFunctions(restrictOf, notes, COMPUTED)
}
