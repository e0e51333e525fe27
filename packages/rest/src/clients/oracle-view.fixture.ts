/**
 * @module Issue 61's oracle: what a view may read, and the projected datastore D_V that holds only
 * that (see oracle.prop.test.ts for the design). Everything here is decided by the reference model
 * of the roles file (core's roles-reference.fixture.ts) and the test's own reading of the rules;
 * the data is read from the real datastore with full rights (the TypeScript API outside any
 * request).
 */
import type { Datastore, DataFile, ModelJson, RolesJson } from '@entistore/core'
import type { RefRoles } from '../../../core/src/roles/roles-reference.fixture.js'
import {
  CITY_PATH,
  CODE_READS,
  DELETED,
  GLOBAL_STAMP,
  NUMBER_OF,
  ORACLE_ATTRS,
  ORACLE_MODEL,
  ruleQuery,
  TRACKED,
  type Restricts,
} from './oracle-app.fixture.js'
import { DATACLASSES, FUNCTIONS, type DcName, type FnName } from './privileges-app.fixture.js'
import { WHO, type Who } from './privileges-requests.fixture.js'

/**
 * Who asks, and with which privileges: a client's session, the privileges it holds (its own, guest,
 * what they include) and, inside a promoted function, the promoted ones besides.
 */
export interface View {
  readonly who: Who
  /** The privileges in force (lowercase): the session's own and a running function's promotion. */
  readonly held: ReadonlySet<string>
  /** The session's own privileges, which `execute` and deletion witnesses are decided with. */
  readonly own: ReadonlySet<string>
}

// ---- the data read with full rights

/** A row as the projected datastore loads it: stored values, relation keys, stamps. */
export interface FullRow {
  readonly stamp: number
  readonly timestamp: number
  /** Storage values (a picture: `{ $base64, type }`), each to-one relation's key. */
  readonly values: Readonly<Record<string, unknown>>
}
export type TableName = DcName | typeof DELETED
export type FullRows = Readonly<Record<TableName, ReadonlyMap<number, FullRow>>>
export const TABLES: readonly TableName[] = [...DATACLASSES, DELETED]

// A picture's bytes are read once: a stored value is never changed, only replaced.
const texts = new WeakMap<Uint8Array, string>()
const base64 = (bytes: Uint8Array): string => {
  let text = texts.get(bytes)
  if (text === undefined) {
    let s = ''
    for (const b of bytes) s += String.fromCharCode(b)
    texts.set(bytes, (text = btoa(s)))
  }
  return text
}

/**
 * Every row of every table, read from the tables themselves: no `restrict` runs (reading through
 * the API, even with full rights, would ask it, and its answer is kept: the test would change what
 * the next request gets).
 */
export function readRows(ds: Datastore): FullRows {
  const out = {} as Record<TableName, Map<number, FullRow>>
  for (const name of TABLES) {
    const rows = new Map<number, FullRow>()
    out[name] = rows
    // A projected datastore holds only some of the dataclasses.
    if (!ds.schema.byName.has(name)) continue
    const dc = ds.dataClass(name)
    const storage = dc.attributes.filter((a) => a.kind === 'storage' && !a.implicit)
    const relations = dc.attributes.filter((a) => a.kind === 'relatedEntity')
    const table = dc.table
    for (const rowId of table.liveRowIds()) {
      const record = table.record(rowId)!
      const values: Record<string, unknown> = {}
      for (const { name: a } of storage) {
        const v = record.values[a] ?? null
        values[a] =
          v !== null && typeof v === 'object' && 'bytes' in v
            ? {
                $base64: base64((v as { bytes: Uint8Array }).bytes),
                type: (v as unknown as { type: string }).type,
              }
            : v
      }
      // The key the row stores (a relation to a row deleted since still holds it).
      for (const rel of relations) {
        const fk = record.values[(rel as { foreignKey: string }).foreignKey]
        values[rel.name] = fk === null || fk === undefined ? null : Number(fk)
      }
      rows.set(Number(record.key), { stamp: record.stamp, timestamp: record.timestamp, values })
    }
  }
  return out
}

// ---- what a view sees

/** The keys of each dataclass a view's `restrict` lets through (undefined: all of them). */
export type Visible = Readonly<Record<DcName, ReadonlySet<number> | undefined>>

/** What a view may read of the model, and what its `restrict` lets it see of the rows. */
export interface Sight {
  /** The dataclasses it may read (those closed by their restrict included: they hold no row). */
  readonly dcs: ReadonlySet<DcName>
  /**
   * Those its privileges read but whose restrict it cannot run (its query reads what the view may
   * not): open and empty to it, as docs/security.md ("Fail closed") says: the dataclass stays in
   * its model, its relations listed, a request naming it answered with no row; a creation there
   * still answers the new entity (a restrict does not narrow a creation, docs/functions.md).
   */
  readonly closed: ReadonlySet<DcName>
  /**
   * The computed attributes whose name it may read but not what their getter reads, with the
   * first attribute refused (`Employee.yearly` → `salary`): the projected datastore keeps them
   * with a getter refused as the view's is.
   */
  readonly codeRefused: ReadonlyMap<string, string>
  /** The attributes it may read, per dataclass. */
  readonly attrs: Readonly<Record<DcName, ReadonlySet<string>>>
  /** May it read `__DeletedRecords`. */
  readonly deleted: boolean
  /** The rows. */
  readonly visible: Visible
}

const lower = (s: string) => s.toLowerCase()
const mayRead = (ref: RefRoles, held: ReadonlySet<string>, dc: string, attr?: string) =>
  ref.may(
    held,
    'read',
    attr === undefined
      ? { type: 'dataclass', dataClass: dc }
      : { type: 'attribute', dataClass: dc, attribute: attr },
  )

/**
 * Whether `attr` of `dc` is readable by `held` when `dcs` are the dataclasses it reads: a relation
 * with its target, an alias along its path, a computed attribute with what its getter reads.
 */
function readableAttr(
  ref: RefRoles,
  held: ReadonlySet<string>,
  dcs: ReadonlySet<DcName>,
  dc: DcName,
  attr: string,
): boolean {
  if (attr === 'ID' || attr === GLOBAL_STAMP) return dcs.has(dc)
  const info = ORACLE_ATTRS[dc][attr]
  if (!info || !dcs.has(dc) || !mayRead(ref, held, dc, attr)) return false
  switch (info.kind) {
    case 'storage':
      return true
    case 'relatedEntity':
    case 'relatedEntities':
      return dcs.has(info.target!)
    case 'alias': {
      const [rel, end] = info.path! as [string, string]
      const target = ORACLE_ATTRS[dc][rel]!.target!
      return readableAttr(ref, held, dcs, dc, rel) && readableAttr(ref, held, dcs, target, end)
    }
    case 'calculated':
      return CODE_READS[`${dc}.${attr}`]!.get.every((a) => readableAttr(ref, held, dcs, dc, a))
  }
}

/** Whether `text` equals `want` as 4D's `=` compares texts (without regard to case). */
const sameText = (text: unknown, want: unknown) =>
  typeof text === 'string' && typeof want === 'string' && lower(text) === lower(want)

/**
 * What `view` sees with the data `rows`: the dataclasses and attributes its privileges read, and
 * the rows each `restrict` answers. A `restrict` runs as the caller: one whose query reads what
 * the view may not read cannot run, and its dataclass is closed to the view: open and empty (fail
 * closed). A restrict through a relation sees the related rows the view's own restrict lets
 * through.
 */
export function sightOf(ref: RefRoles, restricts: Restricts, view: View, rows: FullRows): Sight {
  const held = view.held
  const rules = restricts[WHO[view.who]] ?? {}
  const dcs = new Set<DcName>()
  const closed = new Set<DcName>()
  const visible: Record<DcName, ReadonlySet<number> | undefined> = {
    Company: undefined,
    Employee: undefined,
    Project: undefined,
  }
  // Company first: the rules through a relation read it.
  for (const dc of ['Company', 'Employee', 'Project'] as const) {
    if (!mayRead(ref, held, dc)) continue
    const r = rules[dc]
    if (r === undefined || (r.unless !== undefined && held.has(lower(r.unless)))) {
      dcs.add(dc)
      continue
    }
    // What the rule's query reads, as the caller.
    const rule = r.rule
    const runs =
      rule.kind === 'keys' ||
      (rule.kind === 'below' && mayRead(ref, held, dc, NUMBER_OF[dc])) ||
      (rule.kind === 'city' &&
        mayRead(ref, held, dc, CITY_PATH[dc]!) &&
        dcs.has('Company') &&
        mayRead(ref, held, 'Company', 'city'))
    dcs.add(dc)
    if (!runs) {
      closed.add(dc)
      visible[dc] = new Set()
      continue
    }
    const want = ruleQuery(dc, rule).params[0]
    const keys = new Set<number>()
    for (const [k, row] of rows[dc]) {
      const v = row.values
      const pass =
        rule.kind === 'keys'
          ? rule.keys.includes(k)
          : rule.kind === 'below'
            ? typeof v[NUMBER_OF[dc]] === 'number' &&
              (v[NUMBER_OF[dc]] as number) < (want as number)
            : (() => {
                const fk = v[CITY_PATH[dc]!] as number | null
                const company = fk === null ? undefined : rows.Company.get(fk)
                return (
                  company !== undefined &&
                  (visible.Company?.has(fk!) ?? true) &&
                  sameText(company.values.city, want)
                )
              })()
      if (pass) keys.add(k)
    }
    visible[dc] = keys
  }
  const attrs = {} as Record<DcName, Set<string>>
  const codeRefused = new Map<string, string>()
  for (const dc of DATACLASSES) {
    attrs[dc] = new Set()
    if (!dcs.has(dc)) continue
    const reading = new Set([...dcs, dc])
    for (const a of ['ID', ...Object.keys(ORACLE_ATTRS[dc])]) {
      if (readableAttr(ref, held, reading, dc, a)) attrs[dc].add(a)
      else if (ORACLE_ATTRS[dc][a]?.kind === 'calculated' && mayRead(ref, held, dc, a)) {
        // Its name is readable, its code is not: compat.md, a projection leaves its value out.
        attrs[dc].add(a)
        codeRefused.set(
          `${dc}.${a}`,
          CODE_READS[`${dc}.${a}`]!.get.find((r) => !readableAttr(ref, held, reading, dc, r))!,
        )
      }
    }
  }
  return { dcs, closed, attrs, codeRefused, deleted: mayRead(ref, held, DELETED), visible }
}

/** Whether `sight` sees row `key` of `dc`. */
export const sees = (sight: Sight, dc: DcName, key: number): boolean =>
  sight.dcs.has(dc) && (sight.visible[dc]?.has(key) ?? true)

// ---- the projected datastore's model, roles and data

/** How a projected datastore is made for one request. */
export interface Projection {
  readonly model: ModelJson
  /** Reads open; create, update, drop and execute as the view may. */
  readonly roles: RolesJson
  /** The dataclasses it holds (the view reads them, or creates in them). */
  readonly dataClasses: ReadonlySet<DcName>
  /** The computed attributes it keeps. */
  readonly computed: ReadonlySet<string>
  /** Those of them whose getter is refused, with the attribute it reads that the view may not. */
  readonly codeRefused: ReadonlyMap<string, string>
  /**
   * The attributes it holds only to be written (a create may give values it cannot read), and
   * so leaves out of what it answers; `*` for a dataclass the view only creates in.
   */
  readonly writeOnly: Readonly<Record<DcName, ReadonlySet<string>>>
  /** What tells two projections apart: the pool keeps one datastore per key. */
  readonly key: string
}

const grant = (yes: boolean): string[] => (yes ? ['guest'] : [])

/** A dataclass that keeps change tracking on when the view reads no tracked one. */
const PLACEHOLDER = {
  name: 'TrackingKept',
  tableNumber: 9,
  exposed: false,
  attributes: [
    { name: 'ID', type: 'long', autosequence: true },
    { name: GLOBAL_STAMP, type: 'long64', indexed: true },
  ],
}

/**
 * The projected datastore of `sight` for `view`: the dataclasses and attributes it may read, the
 * others left out (numbered as in the real model, so that a deleted row names the same table); a
 * relation it may not read kept unexposed when it is the inverse of one it may read. `creates`:
 * what the view may give a value on creation is kept too, in the dataclasses it may read or not
 * (4D: create needs no read), as `writeOnly`.
 */
export function projectionOf(ref: RefRoles, view: View, sight: Sight, creates = false): Projection {
  const held = view.held
  const may = (action: 'create' | 'update' | 'drop', dc: string, attr?: string) =>
    ref.may(
      held,
      action,
      attr === undefined
        ? { type: 'dataclass', dataClass: dc }
        : { type: 'attribute', dataClass: dc, attribute: attr },
    )
  const allowed: RolesJson['permissions']['allowed'][number][] = [
    {
      applyTo: 'ds',
      type: 'datastore',
      read: ['guest'],
      create: [],
      update: [],
      drop: [],
      execute: [],
    },
  ]
  const writeOnly = {} as Record<DcName, Set<string>>
  const computed = new Set<string>()
  const kept = new Set<DcName>()
  const dataClasses = ORACLE_MODEL.dataClasses.flatMap((json) => {
    const dc = json.name as TableName
    if (dc === DELETED) {
      allowed.push({ applyTo: DELETED, type: 'dataclass', read: ['guest'] })
      return [sight.deleted ? json : { ...json, exposed: false }]
    }
    writeOnly[dc] = new Set()
    const reads = sight.dcs.has(dc)
    if (!reads && !(creates && may('create', dc))) return []
    kept.add(dc)
    if (!reads) writeOnly[dc].add('*')
    allowed.push({
      applyTo: dc,
      type: 'dataclass',
      read: ['guest'],
      create: grant(may('create', dc)),
      update: grant(reads && may('update', dc)),
      drop: grant(reads && may('drop', dc)),
    })
    const attributes = json.attributes.flatMap((a) => {
      const info = ORACLE_ATTRS[dc][a.name]
      const entry = (exposed: boolean) => {
        if (info && a.name !== 'ID')
          allowed.push({
            applyTo: `${dc}.${a.name}`,
            type: 'attribute',
            read: ['guest'],
            create: grant(may('create', dc, a.name)),
            update: grant(may('update', dc, a.name)),
            drop: grant(may('drop', dc, a.name)),
          })
        if (info?.kind === 'calculated') computed.add(`${dc}.${a.name}`)
        return [exposed ? a : { ...a, exposed: false }]
      }
      if (a.name === 'ID' || a.name === GLOBAL_STAMP || sight.attrs[dc].has(a.name))
        return entry(true)
      // The inverse of a to-many relation the view reads, kept for it.
      if (
        info?.kind === 'relatedEntity' &&
        sight.dcs.has(info.target!) &&
        Object.entries(ORACLE_ATTRS[info.target!]).some(
          ([name, i]) =>
            i.kind === 'relatedEntities' && i.target === dc && sight.attrs[info.target!]?.has(name),
        )
      )
        return entry(false)
      // What a creation may give: a stored value, or one a computed attribute's setter stores.
      const setter = CODE_READS[`${dc}.${a.name}`]?.set
      if (
        creates &&
        may('create', dc, a.name) &&
        (info?.kind === 'storage' ||
          (setter !== undefined && setter.every((t) => may('create', dc, t))))
      ) {
        writeOnly[dc].add(a.name)
        return entry(true)
      }
      return []
    })
    return [{ ...json, attributes }]
  })
  if (!TRACKED.some((dc) => kept.has(dc))) dataClasses.push(PLACEHOLDER as never)
  // A function keeps its own entry: execute is decided with the session's own privileges.
  for (const fn of [...Object.keys(FUNCTIONS), 'ds.getGlobalStamp', 'ds.setGlobalStamp']) {
    const [owner, name] = fn.split('.') as [string, string]
    allowed.push({
      applyTo: fn,
      type: 'method',
      execute: grant(
        ref.may(view.own, 'execute', {
          type: 'method',
          dataClass: owner === 'ds' ? '' : owner,
          name,
        }),
      ),
    })
  }
  const model = { ...ORACLE_MODEL, dataClasses } as ModelJson
  const codeRefused = new Map([...sight.codeRefused].filter(([name]) => computed.has(name)))
  const roles: RolesJson = {
    privileges: [],
    roles: [],
    permissions: { allowed },
    restrictedByDefault: false,
    forceLogin: false,
  }
  return {
    model,
    roles,
    dataClasses: kept,
    computed,
    codeRefused,
    writeOnly,
    key: JSON.stringify([model, allowed, [...codeRefused]]),
  }
}

/**
 * The rows of the projected datastore: those `sight` sees, with the attributes `projection` keeps;
 * a relation to a row it does not see (or that is gone) reads null (docs/security.md: "a hidden
 * related entity reads as null"); `deleted`: the `__DeletedRecords` rows it may learn of.
 */
export function projectedData(
  projection: Projection,
  sight: Sight,
  rows: FullRows,
  deleted: (row: FullRow) => boolean,
): DataFile {
  const out: Record<string, unknown[]> = {}
  for (const json of projection.model.dataClasses) {
    const dc = json.name as TableName
    if (dc !== DELETED && !projection.dataClasses.has(dc)) continue
    const names = json.attributes
      .filter((a) => (a.kind ?? 'storage') === 'storage' || a.kind === 'relatedEntity')
      .map((a) => a.name)
    const list: unknown[] = []
    for (const [key, row] of rows[dc]) {
      if (dc === DELETED ? !deleted(row) : !sees(sight, dc, key)) continue
      const r: Record<string, unknown> = {
        __STAMP: row.stamp,
        __TIMESTAMP: new Date(row.timestamp).toISOString(),
      }
      for (const a of names) {
        const v = row.values[a]
        const target = dc === DELETED ? undefined : ORACLE_ATTRS[dc][a]?.target
        r[a] =
          target !== undefined && v !== null && !seenRow(sight, rows, target, v as number)
            ? null
            : v
      }
      list.push(r)
    }
    out[dc] = list
  }
  return out as unknown as DataFile
}

/** Whether `sight` sees row `key` of `dc`, and it is there. */
export const seenRow = (sight: Sight, rows: FullRows, dc: DcName, key: number): boolean =>
  rows[dc].has(key) && sees(sight, dc, key)

/** The function `fn` as the reference model names it. */
export const fnResource = (fn: FnName) => {
  const [owner, name] = fn.split('.') as [string, string]
  return { type: 'method' as const, dataClass: owner === 'ds' ? '' : owner, name }
}
