/**
 * @module Issue 61's oracle: what a write did. What changed in the data, row by row; what the
 * projected datastore stored against what the real one did, as the view sees it; what the real
 * write changed that its view may not write.
 */
import type { RefRoles } from '../../../core/src/roles/roles-reference.fixture.js'
import { GLOBAL_STAMP, ORACLE_ATTRS } from './oracle-app.fixture.js'
import { describeDifference, firstDifference } from './oracle-compare.fixture.js'
import type { Problem } from './oracle-findings.fixture.js'
import {
  sees,
  TABLES,
  type FullRows,
  type Projection,
  type Sight,
  type View,
} from './oracle-view.fixture.js'
import { DATACLASSES, type DcName } from './privileges-app.fixture.js'

/** What changed between two readings of the data, row by row, in a few words. */
export function rowChanges(a: FullRows, b: FullRows): string[] {
  const out: string[] = []
  for (const dc of TABLES) {
    for (const [k, row] of b[dc]) {
      const old = a[dc].get(k)
      if (!old) out.push(`${dc}(${k}) created`)
      else if (old.stamp !== row.stamp || firstDifference(old.values, row.values))
        out.push(`${dc}(${k}) changed`)
    }
    for (const k of a[dc].keys()) if (!b[dc].has(k)) out.push(`${dc}(${k}) deleted`)
  }
  return out
}

/**
 * An allowed write: the rows the projected datastore stored equal the real ones as the view
 * sees them (the attributes it keeps, relations to rows it does not see as null).
 */
export function storedProblems(
  what: string,
  sight: Sight,
  projection: Projection,
  projectedBefore: FullRows,
  projectedAfter: FullRows,
  before: FullRows,
  after: FullRows,
): Problem[] {
  const out: Problem[] = []
  for (const json of projection.model.dataClasses) {
    const dc = json.name as DcName
    if (!projection.dataClasses.has(dc)) continue
    const names = json.attributes
      .filter((a) => (a.kind ?? 'storage') === 'storage' || a.kind === 'relatedEntity')
      .map((a) => a.name)
    const keys = new Set([
      ...projectedBefore[dc].keys(),
      ...projectedAfter[dc].keys(),
      ...[...after[dc].keys()].filter((k) => !before[dc].has(k)),
    ])
    for (const k of keys) {
      const r = after[dc].get(k)
      const p = projectedAfter[dc].get(k)
      if (!r || !p) {
        if (r || p)
          out.push({
            check: 'stored',
            kind: `${what}: a row ${r ? 'kept' : 'gone'} in the real datastore, ${p ? 'kept' : 'gone'} in the projected one`,
            detail: `${dc}(${k})`,
          })
        continue
      }
      // A relation to a row the view does not see, or that is gone, reads null.
      const seen = (target: DcName, fk: number) =>
        after[target].has(fk) && (sees(sight, target, fk) || !before[target].has(fk))
      for (const a of names) {
        const target = ORACLE_ATTRS[dc][a]?.target
        let v = r.values[a]
        let w = p.values[a]
        if (target && v !== null && !seen(target, v as number)) v = null
        if (target && w !== null && !projectedAfter[target].has(w as number)) w = null
        if (firstDifference(v, w))
          out.push({
            check: 'stored',
            kind: `${what}: ${dc}.${a} stored differently`,
            detail: `${dc}(${k}).${a}: real ${JSON.stringify(v)}, projected ${JSON.stringify(w)}`,
          })
      }
      if (r.stamp !== p.stamp || r.timestamp !== p.timestamp)
        out.push({
          check: 'stored',
          kind: `${what}: ${dc} stamps stored differently`,
          detail: `${dc}(${k}): real ${r.stamp} ${r.timestamp}, projected ${p.stamp} ${p.timestamp}`,
        })
    }
  }
  return out
}

/**
 * What a write changed in the real datastore that its view may not write: a row it does not
 * see, an attribute it may not update (or give on creation), a dataclass it may not drop from.
 * This holds whatever the projected datastore did, so that a side door both sides share (the
 * same code serves both) is still found.
 */
export function effectProblems(
  ref: RefRoles,
  what: string,
  view: View,
  sight: Sight,
  before: FullRows,
  after: FullRows,
): Problem[] {
  const out: Problem[] = []
  const may = (action: 'create' | 'update' | 'drop', dc: DcName, attr?: string) =>
    ref.may(
      view.held,
      action,
      attr === undefined
        ? { type: 'dataclass', dataClass: dc }
        : { type: 'attribute', dataClass: dc, attribute: attr },
    )
  const flag = (kind: string, detail: string) =>
    out.push({ check: 'write-effect', kind: `${what}: ${kind}`, detail })
  for (const dc of DATACLASSES) {
    for (const [k, r] of after[dc]) {
      const b = before[dc].get(k)
      if (!b) {
        if (!may('create', dc)) flag(`created in ${dc} without create`, `${dc}(${k})`)
        // A value it may not give on creation, nor set afterwards (an `$atomic` batch may create
        // an entity and update it: what two requests could do).
        for (const [a, v] of Object.entries(r.values))
          if (
            v !== null &&
            a !== 'ID' &&
            a !== GLOBAL_STAMP &&
            !may('create', dc, a) &&
            !may('update', dc, a)
          )
            flag(
              `created with ${dc}.${a} without create or update`,
              `${dc}(${k}).${a} = ${JSON.stringify(v)}`,
            )
        continue
      }
      const attrs = Object.keys(r.values).filter(
        (a) => a !== GLOBAL_STAMP && firstDifference(r.values[a], b.values[a]),
      )
      if (attrs.length === 0) continue
      if (!sees(sight, dc, k))
        flag(`changed a row of ${dc} the view does not see`, `${dc}(${k}).${attrs.join(',')}`)
      for (const a of attrs)
        if (!may('update', dc, a))
          flag(
            `changed ${dc}.${a} without update`,
            `${dc}(${k}).${a}: ${JSON.stringify(b.values[a])} → ${JSON.stringify(r.values[a])}`,
          )
    }
    for (const k of before[dc].keys())
      if (!after[dc].has(k)) {
        if (!sees(sight, dc, k)) flag(`deleted a row of ${dc} the view does not see`, `${dc}(${k})`)
        else if (!may('drop', dc)) flag(`deleted from ${dc} without drop`, `${dc}(${k})`)
      }
  }
  return out
}
