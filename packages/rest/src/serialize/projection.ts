/**
 * @module Which attributes a read writes: `$attributes` (and the path form `/rest/Employee/a,b`) and
 * `$expand`, parsed once per request into a tree the entity writer follows.
 *
 * - no list, or `*`: every visible attribute, relations in the deferred form;
 * - `name`: only the attributes named (after `__KEY`, `__TIMESTAMP`, `__STAMP`);
 * - `relatedEntity` alone: its deferred form; `relatedEntity.*` or `relatedEntity.a`: the related
 *   entity written out, whole or with those attributes (paths go on: `employer.boss.name`);
 * - `relatedEntities.*` or `relatedEntities.a`: the related selection embedded, whole or projected;
 * - `objectAttribute.a.b`: the object with only those properties;
 * - `$expand=relation`: that relation written out whole, on top of what `$attributes` selects.
 *
 * A name that is not a visible attribute is 1500, followed by 1804 (`$attributes`) or 1805
 * (`$expand`), as the real server reports it.
 */
import {
  attributeNames,
  datastoreError,
  isShownAttribute,
  type AttributeDef,
  type DataClassDef,
  type SchemaDef,
} from '@entistore/core'

/** What is written for one attribute. */
export type Member =
  /** Its usual form (a relation deferred). */
  | { readonly kind: 'value' }
  /** An object attribute pruned to some property paths. */
  | { readonly kind: 'object'; readonly tree: ObjectTree }
  /** A relatedEntity written out, with the related dataclass's projection. */
  | { readonly kind: 'entity'; readonly projection: Projection }
  /** A relatedEntities selection embedded, each entity with the projection. */
  | { readonly kind: 'entities'; readonly projection: Projection }

/** Property name → its sub-properties (an empty map: the whole value). */
export type ObjectTree = Map<string, ObjectTree>

export interface Projection {
  /** Every visible attribute is written (those in `members` as `members` says). */
  readonly all: boolean
  /** Attribute name → how it is written. */
  readonly members: ReadonlyMap<string, Member>
  /**
   * Whether a relation is written out (an `entity` or `entities` member): then one entity's text
   * may be any size (a selection embedded in each entity of a selection embedded in each…), and
   * it is written in pieces (reply-parts.ts) and measured before the reply is sent.
   */
  readonly nested: boolean
}

/** Every attribute, relations deferred: the default shape. */
export const ALL: Projection = Object.freeze({ all: true, members: new Map(), nested: false })

type Source = '$attributes' | '$expand'

/** Throws when the session may not read a named attribute (permissions.ts's `needRead`). */
export type Check = (dc: DataClassDef, attr: AttributeDef) => void

interface Draft {
  all: boolean
  members: Map<string, DraftMember>
}
type DraftMember =
  | { kind: 'value' }
  | { kind: 'object'; tree: ObjectTree }
  | { kind: 'entity' | 'entities'; projection: Draft }

/**
 * The projection for `attributes` (`$attributes` or the path form) and `expand`; undefined when
 * neither changes the default shape.
 */
export function parseProjection(
  schema: SchemaDef,
  dc: DataClassDef,
  attributes: readonly string[] | undefined,
  expand: readonly string[] | undefined,
  check?: Check,
): Projection | undefined {
  const selects = attributes !== undefined && !attributes.every((a) => a === '*')
  if (!selects && expand === undefined) return undefined
  const root: Draft = { all: !selects, members: new Map() }
  if (selects) {
    for (const path of attributes!) {
      if (path !== '*') add(schema, dc, root, path.split('.'), path, '$attributes', check)
    }
  }
  for (const name of expand ?? []) {
    // `$expand` names relations; an image or BLOB named here is for the attribute's own URL.
    const attr = visible(schema, dc, name, name, '$expand')
    if (attr.kind !== 'relatedEntity' && attr.kind !== 'relatedEntities') continue
    add(schema, dc, root, [name, '*'], name, '$expand', check)
  }
  return freeze(root)
}

function visible(
  schema: SchemaDef,
  dc: DataClassDef,
  name: string,
  path: string,
  source: Source,
): AttributeDef {
  const attr = dc.attributesByName.get(name)
  if (attr && isShownAttribute(schema, attr)) return attr
  throw datastoreError('AttributeNotFound', [name, dc.name, attributeNames(schema, dc, true)], {
    cause: datastoreError(
      source === '$attributes' ? 'CannotBuildAttributeList' : 'CannotBuildExpandList',
      [path, dc.name],
    ),
  })
}

function add(
  schema: SchemaDef,
  dc: DataClassDef,
  into: Draft,
  steps: readonly string[],
  path: string,
  source: Source,
  check: Check | undefined,
): void {
  const [first, ...rest] = steps
  if (first === '*') {
    into.all = true
    return
  }
  const attr = visible(schema, dc, first!, path, source)
  check?.(dc, attr)
  const existing = into.members.get(attr.name)
  if (rest.length === 0) {
    if (!existing) into.members.set(attr.name, { kind: 'value' })
    return
  }
  switch (attr.kind) {
    case 'relatedEntity':
    case 'relatedEntities': {
      const kind = attr.kind === 'relatedEntity' ? 'entity' : 'entities'
      let member = existing
      if (!member || member.kind !== kind) {
        member = { kind, projection: { all: false, members: new Map() } }
        into.members.set(attr.name, member)
      }
      const target = schema.byName.get(attr.target)!
      add(schema, target, (member as { projection: Draft }).projection, rest, path, source, check)
      return
    }
    case 'storage':
      if (attr.type === 'object') {
        let member = existing
        if (!member || member.kind !== 'object') {
          member = { kind: 'object', tree: new Map() }
          into.members.set(attr.name, member)
        }
        let tree = (member as { tree: ObjectTree }).tree
        for (const step of rest) {
          let next = tree.get(step)
          if (!next) tree.set(step, (next = new Map()))
          tree = next
        }
        return
      }
      break
    default:
      break
  }
  // A dotted path into an attribute that has no parts (`lastName.x`).
  throw datastoreError('AttributeNotFound', [rest.join('.'), `${dc.name}.${attr.name}`], {
    cause: datastoreError(
      source === '$attributes' ? 'CannotBuildAttributeList' : 'CannotBuildExpandList',
      [path, dc.name],
    ),
  })
}

function freeze(d: Draft): Projection {
  const members = new Map<string, Member>()
  let nested = false
  for (const [name, m] of d.members) {
    if (m.kind === 'value' || m.kind === 'object') members.set(name, m)
    else {
      nested = true
      members.set(name, { kind: m.kind, projection: freeze(m.projection) } as Member)
    }
  }
  return { all: d.all, members, nested }
}

/** `value` keeping only the property paths of `tree` (an empty tree keeps it whole). */
export function prune(value: unknown, tree: ObjectTree): unknown {
  if (tree.size === 0) return value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  // No prototype: a property called "__proto__" is then a plain key like any other.
  const out = Object.create(null) as Record<string, unknown>
  for (const [name, sub] of tree) {
    if (Object.hasOwn(value, name)) out[name] = prune((value as Record<string, unknown>)[name], sub)
  }
  return out
}
