/**
 * @module What ORDA asks of the acting session (access/): every read, query, navigation, save,
 * drop, lock and call made while a request is served (its function's code, an entity event, a
 * computed attribute, `restrict`) is checked against that request's session and the promotions of
 * the functions on the call stack, as 4D checks "each time a resource is accessed within a
 * session (whatever the way it is accessed)". Outside any actor (the TypeScript API called
 * directly, start-up, tests) nothing is checked: code has full rights unless it asks to act as a
 * session (`ds.actAs`).
 *
 * Each check is one async-context read when nobody acts, and one map lookup a resource when
 * someone does (the Actor keeps its answers).
 */
import { currentActor } from '../../access/acting.js'
import type { Actor } from '../../access/actor.js'
import { generatedBy, type AttributeDef } from '../../schema/definitions.js'
import type { Assignments } from '../../txn/transaction.js'
import type { RestrictedClass } from './restricted-class.js'
import { fail } from '../../errors/datastore-error.js'

/** The actor whose rule checks the code running now on `ds`, if any. */
export function checker(ds: object): Actor | undefined {
  const actor = currentActor(ds)
  return actor?.rule !== undefined ? actor : undefined
}

/** Refuses (1557) a read of `dc` the acting session may not make. */
export function needRead(dc: RestrictedClass): void {
  checker(dc.datastore)?.need('read', dc.name)
}

/** Refuses a read of `attr` of `dc` (1607; 1557 for a relation's dataclass). */
export function needAttribute(dc: RestrictedClass, attr: AttributeDef): void {
  checker(dc.datastore)?.needRead(dc.def, attr)
}

/** Refuses an aggregate or an ordering over `path` (`salary`, `employer.name`, `extra.level`). */
export function needPathText(dc: RestrictedClass, path: string): void {
  const actor = checker(dc.datastore)
  if (actor === undefined) return
  actor.need('read', dc.name)
  actor.needPath(dc.def, path.split('.'))
}

/**
 * Refuses a creation (1559) or an update (1558) of `dc`, or a value in it (1608): a creation needs
 * `create` on each attribute it gives a value other than null (4D: "create entity with a value
 * different from the default value"), an update `update` on each attribute it sets. A relation
 * set (or its foreign key) also needs read on the related dataclass: naming an entity one may not
 * read would tell whether it exists.
 */
export function needWrite(dc: RestrictedClass, values: Assignments, creating: boolean): void {
  if (creating && dc.restrictFunction !== undefined) noChosenKey(dc, values)
  const actor = checker(dc.datastore)
  if (actor === undefined) return
  actor.need(creating ? 'create' : 'update', dc.name)
  const def = dc.def
  for (const name of Object.keys(values)) {
    const v = values[name]
    if (v === undefined || (creating && v === null)) continue
    // An alias's permissions are not asked for a write (4D: "ignored for alias attributes"): the
    // write itself refuses it as read-only (1516), whoever writes.
    if (def.attributesByName.get(name)?.kind === 'alias') continue
    if (creating) actor.needCreate(dc.name, name)
    else actor.needUpdate(dc.name, name)
    const target = relationTarget(dc, name)
    if (target !== undefined && v !== null) actor.need('read', target)
  }
}

/**
 * Refuses (9139) a creation by a session acting that gives a generated key (autosequence, uuid) of
 * a restricted dataclass a value: taken or not, the answer would tell whether an entity the
 * session cannot see holds it. A key that is not generated must be chosen: that one tells, as a
 * unique value does (docs/security.md says so).
 */
function noChosenKey(dc: RestrictedClass, values: Assignments): void {
  const key = dc.def.key
  const v = values[key.name]
  if (v === undefined || v === null) return
  if (generatedBy(dc.def, key) === undefined) return
  if (currentActor(dc.datastore) === undefined) return
  fail('GeneratedKeyGiven', [key.name, dc.name])
}

/** Refuses a drop of entities of `dc` (1560). */
export function needDrop(dc: RestrictedClass): void {
  checker(dc.datastore)?.need('delete', dc.name)
}

/** Refuses a lock or an unlock of an entity of `dc`: read and update (1557, 1558). */
export function needLock(dc: RestrictedClass): void {
  const actor = checker(dc.datastore)
  if (actor === undefined) return
  actor.need('read', dc.name)
  actor.need('update', dc.name)
}

// The dataclass a relation attribute (or a relation's foreign key) named `name` leads to.
function relationTarget(dc: RestrictedClass, name: string): string | undefined {
  const attr = dc.def.attributesByName.get(name)
  if (attr === undefined) return undefined
  if (attr.kind === 'relatedEntity') return attr.target
  if (attr.kind !== 'storage') return undefined
  for (const a of dc.def.attributes)
    if (a.kind === 'relatedEntity' && a.foreignKey === name && a.name !== name) return a.target
  return undefined
}
