/**
 * @module The relations inference reads in a data file's names (infer-model.ts): an attribute named
 * after another collection and a key suffix (`employerID`, `postId`, `author_id`) whose every value
 * that is not null is a key of that collection becomes an N→1 relation (`employer`, `post`,
 * `author`) through it, the attribute itself kept so that the rows read back as they were given;
 * the collection it leads to gets the 1→N inverse, named like the collection that points to it
 * (`posts.comments`), or `<collection>By<Relation>` when that name is taken (`postsByEditor`).
 *
 * No relation is made where the values do not all resolve, nor to a collection whose key inference
 * added (its numbers are not the data's), nor where the names are taken; a note says why when the
 * name pointed at a collection.
 */
import type { Collection, InferMode } from './infer-collection.js'
import { rowAt } from './infer-collection.js'
import { collectionNamed, referencePrefix } from './infer-names.js'
import type { ValueType } from './model-json.js'

const family = (t: ValueType): 'integer' | 'string' | undefined =>
  t === 'long' || t === 'long64' ? 'integer' : t === 'string' ? 'string' : undefined

const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

/**
 * Adds the relations of `collections` to them (their `relations`, `inverses` and `names`): first
 * every N→1 relation, whose names the data's own attribute names give, then their inverses, which
 * take the names left.
 */
export function inferRelations(collections: readonly Collection[], mode: InferMode): void {
  const byName = new Map(collections.map((c) => [c.name, c]))
  const made: { readonly from: Collection; readonly name: string; readonly to: Collection }[] = []
  for (const c of collections) {
    for (const [column, values] of c.columns) {
      if (column === c.key.name || values.present === 0 || c.mixed.has(column)) continue
      const prefix = referencePrefix(column)
      const target = prefix === undefined ? undefined : collectionNamed(prefix, byName.keys())
      if (prefix === undefined || target === undefined) continue
      const t = byName.get(target)!
      const at = `${c.name}.${column}`
      if (t.key.generated) continue
      const type = c.types.get(column)!
      if (family(type) !== family(t.key.type)) {
        mode.notes.push(
          `${at}: not a relation to ${t.name}: it holds ${type} values and the key of ${t.name} ${t.key.type} values`,
        )
        continue
      }
      const stray = c.rows.findIndex((row) => {
        const v = row[column]
        return v !== null && v !== undefined && !t.key.values.has(v)
      })
      if (stray >= 0) {
        mode.notes.push(
          `${at}: not a relation to ${t.name}: ${rowAt(c, stray)} holds ${JSON.stringify(c.rows[stray]![column])}, which is no key of ${t.name}`,
        )
        continue
      }
      if (c.names.has(prefix)) {
        mode.notes.push(
          `${at}: its values are keys of ${t.name}, but ${c.name} has an attribute ${prefix} already: no relation made`,
        )
        continue
      }
      c.names.add(prefix)
      c.relations.set(column, {
        name: prefix,
        kind: 'relatedEntity',
        type: t.name,
        path: t.name,
        foreignKey: column,
      })
      made.push({ from: c, name: prefix, to: t })
    }
  }
  for (const { from, name, to } of made) {
    const names = [from.name, `${from.name}By${capitalised(name)}`]
    const inverse = names.find((n) => !to.names.has(n))
    if (inverse === undefined) {
      mode.notes.push(
        `${to.name}: has attributes ${names.join(' and ')} already: no 1→N relation back from ${from.name}.${name}`,
      )
      continue
    }
    to.names.add(inverse)
    to.inverses.push({
      name: inverse,
      kind: 'relatedEntities',
      type: `${from.name}Selection`,
      path: name,
      reversePath: true,
    })
  }
}
