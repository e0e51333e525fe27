/**
 * @module `entistore types`: the TypeScript types of a JSON model (the file `serve --model` reads),
 * written as a module that `createDatastore<Model>(model)` takes, so that code using the datastore
 * is checked against the model: `ds.Employee.get(3)?.get('salary')` is a `number | null` and a
 * misspelled attribute does not compile. The model is loaded by the engine's own loader first, so
 * the types say what the engine does (defaults, keys, relation targets, alias paths), and a bad
 * model is refused with the loader's error. docs/typed-models.md describes the result.
 */
import { writeOutput } from './output-file.js'
import {
  DatastoreError,
  loadModel,
  readsNull,
  type AttributeDef,
  type DataClassDef,
  type SchemaDef,
  type ValueType,
} from '@entistore/core'
import { FileError } from '../files/file-error.js'
import { readJsonFile } from '../files/json-file.js'
import { sourceOf, type ModelSource } from './model-source.js'

/**
 * How each value type is written in the generated file: the stored form, as `ValueTypes` of
 * @entistore/core says (the test of this module checks that both agree for every type).
 */
const TS_TYPES: { readonly [T in ValueType]: string } = {
  bool: 'boolean',
  blob: 'entistore.BinaryValue',
  byte: 'number',
  date: 'string',
  duration: 'number',
  image: 'entistore.BinaryValue',
  long: 'number',
  long64: 'number',
  number: 'number',
  string: 'string',
  uuid: 'string',
  word: 'number',
  object: 'entistore.ObjectValue',
}

// Names the generated module declares itself; a dataclass named so gets no alias of its own.
const DECLARED = new Set(['Model', 'TypedDatastore', 'entistore'])
// Words that cannot name a type alias.
const RESERVED = new Set(
  (
    'any boolean break case catch class const continue debugger default delete do else enum export ' +
    'extends false finally for function if import in instanceof never new null number object return ' +
    'string super switch symbol this throw true try typeof undefined unknown var void while with'
  ).split(' '),
)
// The loader allows letters, digits and _ in names: each is a TypeScript identifier as it is.
const quote = (name: string): string => `'${name}'`

/** What an attribute is in the generated `Model` (schema/typed-model.ts of @entistore/core). */
function attributeType(schema: SchemaDef, dc: DataClassDef, attr: AttributeDef): string {
  switch (attr.kind) {
    case 'storage':
      return attr === dc.key || !readsNull(attr)
        ? TS_TYPES[attr.type]
        : `${TS_TYPES[attr.type]} | null`
    case 'relatedEntity':
      return `entistore.RelatedEntity<${quote(attr.target)}>`
    case 'relatedEntities':
      return `entistore.RelatedEntities<${quote(attr.target)}>`
    case 'calculated':
      return `entistore.Computed<${TS_TYPES[attr.type]} | null>`
    case 'alias':
      return `entistore.Computed<${aliasType(schema, dc, attr.path)}>`
  }
}

// An alias reads what its path leads to (see Entity#follow): each relatedEntity step may be
// missing, which reads as null. The loader has checked the path.
function aliasType(schema: SchemaDef, dc: DataClassDef, path: readonly string[]): string {
  let at = dc
  for (const step of path.slice(0, -1)) {
    const attr = at.attributesByName.get(step)
    if (attr?.kind !== 'relatedEntity') return 'unknown'
    at = schema.byName.get(attr.target)!
  }
  const last = at.attributesByName.get(path[path.length - 1]!)
  if (!last || last.kind === 'alias') return 'unknown'
  const type = attributeType(schema, at, last).replace(/^entistore\.Computed<(.*)>$/, '$1')
  return path.length > 1 && !type.endsWith('| null') ? `${type} | null` : type
}

export interface RenderOptions {
  /** Where the model came from, named in the header so a reader knows what to run again. */
  readonly source?: string
  /** The source is a 4D project folder (`--project`), not a model file. */
  readonly project?: boolean
}

/**
 * The TypeScript module of a JSON model's types: `Model` (each dataclass's attributes), the
 * `TypedDatastore` that `createDatastore<Model>(model)` returns, and for each dataclass an alias
 * of its Entity and EntitySelection types. Deterministic: the same model gives the same text.
 *
 * @throws DatastoreError InvalidModel (9020) for a model the engine would not load.
 */
export function renderModelTypes(model: unknown, options: RenderOptions = {}): string {
  const schema = loadModel(model)
  const command = `entistore types ${options.project ? '--project' : '--model'} ${options.source ?? '<model.json>'}`
  const out: string[] = [
    `// The types of the model "${schema.name}", written by \`${command}\`.`,
    '// Do not edit: run the command again when the model changes. See docs/typed-models.md.',
    "import type * as entistore from '@entistore/core'",
    '',
    '/** Each dataclass with what its attributes read as. */',
    'export interface Model {',
  ]
  for (const dc of schema.dataClasses) {
    out.push(`  ${dc.name}: {`)
    for (const attr of dc.attributes)
      out.push(`    ${attr.name}: ${attributeType(schema, dc, attr)}`)
    out.push('  }')
  }
  out.push(
    '}',
    '',
    '/** What `createDatastore<Model>(model, options)` returns: `ds.Employee`, typed. */',
    'export type TypedDatastore = entistore.DatastoreOf<Model>',
  )
  const aliases = new Set<string>()
  const free = (name: string): boolean =>
    !RESERVED.has(name) && !DECLARED.has(name) && !aliases.has(name)
  for (const dc of schema.dataClasses) {
    const selection = `${dc.name}Selection`
    // A dataclass already named like another's selection alias keeps its own name.
    const names = schema.byName.has(selection) ? [dc.name] : [dc.name, selection]
    out.push('')
    for (const name of names) {
      if (!free(name)) continue
      aliases.add(name)
      const kind = name === dc.name ? 'Entity' : 'EntitySelection'
      out.push(`export type ${name} = entistore.${kind}<Model, ${quote(dc.name)}>`)
    }
  }
  return `${out.join('\n')}\n`
}

/** The JSON model file or the 4D project folder, and where to write the types (else `io.out`). */
export type TypesCommandOptions = ModelSource & { readonly out?: string | undefined }

/**
 * `entistore types --model model.json [--out file]`: reads the model, renders its types, writes
 * them to `out` (and says so) or prints them. A file that cannot be read, bad JSON or a model the
 * engine refuses throws a FileError naming the file.
 */
export async function runTypesCommand(
  options: TypesCommandOptions,
  io: { out(line: string): void },
): Promise<void> {
  const source = sourceOf(options)
  // A project's model is the one serve --project serves (load-project.ts reads it, and names the
  // file of a mistake); its notes are serve's to say.
  const model =
    'project' in options
      ? (
          await (
            await import('../project/load-project.js')
          ).loadProject(options.project, { code: false })
        ).model
      : await readJsonFile(options.model, 'model')
  let text: string
  try {
    text = renderModelTypes(model, { source, project: 'project' in options })
  } catch (e) {
    if (DatastoreError.is(e)) throw new FileError(source, e.message, { cause: e })
    throw e
  }
  await writeOutput(
    text,
    {
      out: options.out,
      what: 'the types',
      written: `Wrote the types of ${source} to ${options.out}`,
    },
    io,
  )
}
