/**
 * @module A model inferred from data alone, as json-server serves a `db.json` without one: a
 * dataclass for each top-level collection (`{ "posts": [ {...}, … ], "comments": [ … ] }`, the
 * shape of json-server's files and of Entistore's own data files), the type of each attribute from
 * its values (infer-column.ts), the key from its name (infer-collection.ts), and N→1 relations with
 * their 1→N inverses from names such as `postId` whose values resolve (infer-relations.ts).
 *
 * The model serves the data exactly as given: every row reads back with the values it was given,
 * of the types they were given in (a field a row leaves out reads as null; an added key reads as
 * its number). What cannot be inferred so is refused with CannotInferModel (9022), naming the
 * collection and attribute: not an object of collections, a collection without rows, two types in
 * one attribute, a name that cannot be a dataclass's or an attribute's. A draft (`draft: true`,
 * what `entistore model --from` writes out to edit) guesses instead, and says so in the notes.
 *
 * docs/infer-model.md lists what is inferred and what is not.
 */
import { readCollection, refuse, type Collection, type InferMode } from './infer-collection.js'
import { inferRelations } from './infer-relations.js'
import type { AttributeJson, DataClassJson, ModelJson } from './model-json.js'

export interface InferModelOptions {
  /** The model's `__NAME` (the application's name). @default none: the datastore's default */
  readonly name?: string
  /**
   * Make a model to edit rather than refuse what cannot be inferred exactly: two types in one
   * attribute become string (or object when objects are among them), a collection without rows
   * gets its key alone, a value that is not a collection is left out; each guess is a note.
   * @default false
   */
  readonly draft?: boolean
}

export interface InferredModel {
  /** The model, in the shape of `GET /rest/$catalog/$all`: `createDatastore(model)` takes it. */
  readonly model: ModelJson
  /**
   * The data to load into it: the collections as given, a top-level object as an array of its
   * one row (the form `createDatastore(model, { data })` and `loadData` take).
   */
  readonly data: Readonly<Record<string, readonly object[]>>
  /** What the inference chose that a user may want to change, one sentence each. */
  readonly notes: readonly string[]
  /** The key attribute added to each dataclass whose rows hold none (numbered 1, 2, … on load). */
  readonly generatedKeys: Readonly<Record<string, string>>
}

/**
 * The model of `data`, an object of collections (`{ "posts": [ {...}, … ], … }`), inferred from
 * its names and values. Throws CannotInferModel (9022) for what it cannot infer exactly.
 *
 * @example
 * const { model, data } = inferModel(JSON.parse(readFileSync('db.json', 'utf8')))
 * const ds = createDatastore(model, { data })
 */
export function inferModel(data: unknown, options: InferModelOptions = {}): InferredModel {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    refuse(
      'data',
      `expected an object of collections, { "posts": [ {...}, ... ], ... }, not ${Array.isArray(data) ? 'an array' : data === null ? 'null' : `a ${typeof data}`}`,
    )
  const mode: InferMode = { draft: options.draft === true, notes: [] }
  const collections: Collection[] = []
  for (const [name, value] of Object.entries(data as object)) {
    const c = readCollection(name, value, mode)
    if (c) collections.push(c)
  }
  if (collections.length === 0) refuse('data', 'no collection to make a dataclass of')
  inferRelations(collections, mode)
  return {
    model: {
      ...(options.name === undefined ? {} : { __NAME: options.name }),
      dataClasses: collections.map(dataClassOf),
    },
    data: Object.fromEntries(collections.map((c) => [c.name, c.rows])),
    notes: mode.notes,
    generatedKeys: Object.fromEntries(
      collections.filter((c) => c.key.generated).map((c) => [c.name, c.key.name]),
    ),
  }
}

/** A collection's dataclass: its key first if added, its attributes in order, each N→1 relation after the attribute that holds its key, the 1→N inverses last. */
function dataClassOf(c: Collection): DataClassJson {
  const { key } = c
  const numbered = key.type === 'long' || key.type === 'long64'
  const attributes: AttributeJson[] = []
  if (key.generated)
    attributes.push({ name: key.name, kind: 'storage', type: 'long', autosequence: true })
  for (const name of c.columns.keys()) {
    attributes.push({
      name,
      kind: 'storage',
      type: c.types.get(name)!,
      ...(name === key.name && numbered ? { autosequence: true } : {}),
    })
    const relation = c.relations.get(name)
    if (relation) attributes.push(relation)
  }
  attributes.push(...c.inverses)
  return { name: c.name, attributes, key: [{ name: key.name }] }
}
