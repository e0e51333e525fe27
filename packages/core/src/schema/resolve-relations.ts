/**
 * @module The second pass over a model file, once every dataclass is drafted (model-draft.ts):
 * relations resolved to their targets, foreign keys and inverses, aliases to their paths, then each
 * dataclass finished into its frozen definition.
 */
import { didYouMean } from '../errors/closest-name.js'
import type {
  AliasAttributeDef,
  CalculatedAttributeDef,
  DataClassDef,
  RelatedEntitiesAttributeDef,
  RelatedEntityAttributeDef,
  StorageAttributeDef,
} from './definitions.js'
import { stableId } from './stable-id.js'
import { GLOBAL_STAMP } from './change-tracking.js'
import { DATACLASS_FIELDS, invalid, extras, methodList, keyFamily } from './model-checks.js'
import type { Draft, PendingRelation } from './model-draft.js'

export function resolveRelations(draft: Draft, drafts: ReadonlyMap<string, Draft>): void {
  const storageNamed = (name: string): StorageAttributeDef | undefined => {
    const a = draft.attributes.find((x) => !('pending' in x) && x.name === name)
    return a && !('pending' in a) && a.kind === 'storage' ? a : undefined
  }
  const implicit: StorageAttributeDef[] = []
  draft.attributes.forEach((a, i) => {
    if (!('pending' in a) || a.json.kind !== 'relatedEntity') return
    const { json, common, where } = a
    const targetName = json.path ?? json.type
    const target = targetName === undefined ? undefined : drafts.get(targetName)
    if (!target)
      return invalid(
        where,
        `the related dataclass ${JSON.stringify(targetName)} does not exist${targetName === undefined ? '' : didYouMean(targetName, drafts.keys())}`,
      )
    const targetKey = target.key!
    let fk: StorageAttributeDef | undefined
    if (json.foreignKey !== undefined) {
      fk = storageNamed(json.foreignKey)
      if (!fk)
        return invalid(
          where,
          `the foreignKey "${json.foreignKey}" is not a storage attribute of ${draft.where}`,
        )
    } else {
      fk = storageNamed(`${common.name}ID`)
    }
    if (fk && keyFamily(fk.type) !== keyFamily(targetKey.type)) {
      invalid(
        where,
        `the foreignKey "${fk.name}" (${fk.type}) cannot hold keys of "${target.name}" (${targetKey.type})`,
      )
    }
    if (!fk) {
      fk = Object.freeze<StorageAttributeDef>({
        name: common.name,
        fieldPos: undefined,
        scope: 'public',
        exposed: false,
        uuid: stableId(draft.name, common.name, 'key'),
        readOnly: false,
        extra: Object.freeze({}),
        kind: 'storage',
        type: targetKey.type,
        indexed: false,
        indexKind: 'hash',
        unique: false,
        notNull: false,
        autosequence: false,
        identifying: false,
        dateOnly: false,
        implicit: true,
      })
      implicit.push(fk)
    }
    draft.attributes[i] = Object.freeze<RelatedEntityAttributeDef>({
      ...common,
      kind: 'relatedEntity',
      type: target.name,
      target: target.name,
      foreignKey: fk.name,
      foreignKeyAttribute: fk,
      inverseName: json.inverseName,
    })
  })
  // relatedEntities and aliases read the relatedEntity attributes resolved here, possibly of other
  // dataclasses, so they wait for finish(), which runs once every dataclass is through this pass.
  draft.implicit.push(...implicit)
}

function resolveToMany(
  draft: Draft,
  a: PendingRelation,
  drafts: ReadonlyMap<string, Draft>,
): RelatedEntitiesAttributeDef {
  const { json, common, where } = a
  const inverse = json.path
  if (inverse === undefined)
    return invalid(
      where,
      'a relatedEntities attribute needs a "path" naming the inverse relatedEntity attribute',
    )
  const candidates = [...drafts.values()].filter((d) =>
    d.attributes.some(
      (x) =>
        !('pending' in x) &&
        x.kind === 'relatedEntity' &&
        x.name === inverse &&
        x.target === draft.name,
    ),
  )
  const byType =
    json.type === undefined
      ? undefined
      : candidates.filter(
          (d) => collectionName(d) === json.type || `${d.name}Selection` === json.type,
        )
  const pick = byType && byType.length === 1 ? byType : candidates
  if (pick.length !== 1) {
    // The relatedEntity names that do point here: a mistyped path is one of them.
    const pointing = [...drafts.values()].flatMap((d) =>
      d.attributes.flatMap((x) =>
        !('pending' in x) && x.kind === 'relatedEntity' && x.target === draft.name ? [x.name] : [],
      ),
    )
    return invalid(
      where,
      pick.length === 0
        ? `no dataclass has a relatedEntity "${inverse}" pointing to "${draft.name}"${didYouMean(inverse, pointing)}`
        : `several dataclasses have a relatedEntity "${inverse}" pointing to "${draft.name}": give "type" as <Class>Selection`,
    )
  }
  const target = pick[0]!
  // A type that names no selection of the dataclass found (`EmplyeeSelection`) is a typo, not a
  // choice: said, rather than ignored because the path alone found the dataclass.
  const types = [collectionName(target), `${target.name}Selection`, target.name]
  if (json.type !== undefined && !types.includes(json.type))
    invalid(
      where,
      `the type "${json.type}" is not the selection of ${target.name}, whose "${inverse}" this relation follows${didYouMean(json.type, types.slice(0, 2))}`,
    )
  return Object.freeze<RelatedEntitiesAttributeDef>({
    ...common,
    kind: 'relatedEntities',
    type: json.type ?? collectionName(target),
    target: target.name,
    inverse,
  })
}

const collectionName = (d: Draft): string => d.json.collectionName ?? `${d.name}Selection`

function resolveAlias(
  draft: Draft,
  a: PendingRelation,
  drafts: ReadonlyMap<string, Draft>,
): AliasAttributeDef {
  const { json, common, where } = a
  if (json.path === undefined || json.path === '') return invalid(where, 'an alias needs a "path"')
  const path = json.path.split('.')
  let dc: Draft = draft
  let type: string | undefined
  // A to-many step before the last (4D's `Alias teachers courses.teacher`): the alias holds a
  // selection, or the values of its last attribute over one.
  let many = false
  path.forEach((seg, i) => {
    const attr = dc.attributes.find((x) => ('pending' in x ? x.json.name : x.name) === seg)
    if (!attr)
      return invalid(
        where,
        `the alias path "${json.path}" names "${seg}", which is not an attribute of "${dc.name}"`,
      )
    const last = i === path.length - 1
    if ('pending' in attr) {
      if (attr.json.kind === 'alias')
        return invalid(where, `the alias path "${json.path}" goes through another alias ("${seg}")`)
      if (attr.calculated !== undefined) {
        if (!last)
          return invalid(
            where,
            `"${seg}" in the alias path "${json.path}" is not a relation attribute`,
          )
        type = resolveRelatedType({ ...attr, calculated: attr.calculated }, drafts).type
        return
      }
      // A relatedEntities step, resolved here: its type comes from the resolution (the model
      // often gives none), else the alias would claim to be a string.
      const toMany = resolveToMany(dc, attr, drafts)
      if (last) type = toMany.type
      else {
        many = true
        dc = drafts.get(toMany.target)!
      }
      return
    }
    if (last) {
      type =
        many && attr.kind === 'relatedEntity' ? collectionName(drafts.get(attr.target)!) : attr.type
      return
    }
    if (attr.kind !== 'relatedEntity')
      return invalid(where, `"${seg}" in the alias path "${json.path}" is not a relation attribute`)
    dc = drafts.get(attr.target)!
  })
  return Object.freeze<AliasAttributeDef>({
    ...common,
    kind: 'alias',
    type: json.type ?? type ?? 'string',
    path: Object.freeze(path),
    many,
  })
}

/**
 * A calculated attribute typed as a dataclass (a getter of an entity) or as its selection (of a
 * selection, 4D's `cs.EmployeeSelection`), once every dataclass is known.
 */
function resolveRelatedType(
  a: PendingRelation & { calculated: CalculatedAttributeDef },
  drafts: ReadonlyMap<string, Draft>,
): CalculatedAttributeDef {
  const name = a.json.type!
  const one = drafts.get(name)
  const many = [...drafts.values()].find((d) => collectionName(d) === name)
  if (one === undefined && many === undefined)
    return invalid(
      a.where,
      `unknown type ${JSON.stringify(name)}: a value type, a dataclass or a dataclass's selection${didYouMean(
        name,
        [...drafts.values()].flatMap((d) => [d.name, collectionName(d)]),
      )}`,
    )
  return Object.freeze<CalculatedAttributeDef>({
    ...a.calculated,
    related:
      one !== undefined
        ? { dataClass: one.name, many: false }
        : { dataClass: many!.name, many: true },
  })
}

export function finish(draft: Draft, drafts: ReadonlyMap<string, Draft>): DataClassDef {
  const j = draft.json
  const attributes = draft.attributes.map((a) => {
    if (!('pending' in a)) return a
    if (a.calculated !== undefined)
      return resolveRelatedType({ ...a, calculated: a.calculated }, drafts)
    return a.json.kind === 'relatedEntities'
      ? resolveToMany(draft, a, drafts)
      : resolveAlias(draft, a, drafts)
  })
  return Object.freeze<DataClassDef>({
    name: draft.name,
    className: j.className ?? draft.name,
    collectionName: collectionName(draft),
    tableNumber: j.tableNumber ?? draft.index + 1,
    scope: j.scope ?? 'public',
    exposed: j.exposed ?? true,
    uuid: j.uuid ?? stableId(draft.name),
    defaultTopSize: j.defaultTopSize ?? 100,
    extraProperties:
      j.extraProperties === undefined ? undefined : Object.freeze({ ...j.extraProperties }),
    attributes: Object.freeze(attributes),
    attributesByName: new Map(attributes.map((a) => [a.name, a])),
    storage: Object.freeze([
      ...attributes.filter((a): a is StorageAttributeDef => a.kind === 'storage'),
      ...draft.implicit,
    ]),
    key: draft.key!,
    tracked: attributes.some((a) => a.name === GLOBAL_STAMP),
    methods: methodList(draft.where, j.methods),
    extra: extras(j as unknown as Record<string, unknown>, DATACLASS_FIELDS),
  })
}
