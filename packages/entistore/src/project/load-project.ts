/**
 * @module A 4D project folder as a model source (`serve --project`, `check --project`, `model
 * --from-project`, `loadProject`): the one path both `check` and `serve` take, so that they agree.
 * Its structure file (Sources/catalog.4DCatalog) read into the model Entistore serves; its class
 * (and method) files read and parsed once by @entistore/4d's grammar, their exposed functions,
 * computed attributes and aliases added to the model from those trees; the model checked as the
 * datastore will check it, an error named at the class file's or the structure's line that
 * caused it; and what Entistore cannot honour said in notes, each at its place. The model is the
 * same JSON a `--model` file holds: everything after this (the datastore, REST) is as for any model.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { CompiledProject, ProjectDeclarations } from '@entistore/4d'
import { DatastoreError, loadModel, type DataClassJson, type ModelJson } from '@entistore/core'
import { FileError } from '../files/file-error.js'
import { Notes, type NotePlace, type PlacedNote } from './notes.js'
import type { RestrictEvent } from './restrict-events.js'
import { structureModel } from './structure-model.js'
import { readStructure, StructureError } from './structure-xml.js'
import { parseXml, XmlSyntaxError } from './xml-reader.js'
import { projectFiles, type ProjectFiles } from './project-files.js'

export { projectFiles, type ProjectFiles }

export interface LoadedProject {
  /** The model, as a `--model` file would hold it (`entistore model --from-project` writes it). */
  readonly model: ModelJson
  /** What the project holds that Entistore does not serve as 4D would: one line a kind. */
  readonly notes: readonly string[]
  /** The same notes, each at the place that caused it (`check --project` lists them). */
  readonly placedNotes: readonly PlacedNote[]
  /** The notes that have no place (`what: where`), the project's as a whole. */
  readonly unplacedNotes: readonly string[]
  /**
   * The computed attributes its class files declare (`Car.label`): their `Function get` computes
   * them (four-d-code.ts), unless a functions module's `computed` gives them.
   */
  readonly computed: readonly string[]
  /**
   * The `Function event restrict` of its DataClass classes: 4D code, which a model file cannot
   * hold; `loadDatastoreFiles` runs them, and closes the dataclass of one whose code does not
   * compile unless its functions give it a `restrict` (restrict-events.ts).
   */
  readonly restricts: readonly RestrictEvent[]
  /**
   * The class functions left out (`Car.model`): named like an attribute of their dataclass, or
   * refused by the model.
   */
  readonly shadowed: ReadonlySet<string>
  readonly files: ProjectFiles
  /**
   * The project's code, parsed and compiled once (class files only when loaded with `code:
   * false`): what `serve` runs and `check` reports.
   * @internal
   */
  readonly code: CompiledProject
}

export interface LoadProjectOptions {
  /**
   * Whether the method files are read and compiled too, as `serve` and `check` need; the model
   * alone needs the class files. @default true
   */
  readonly code?: boolean
  /**
   * Folders that hold downloaded components (4D's local cache of GitHub dependencies, and 4D's
   * own components: `4D NetKit`, `4D-NetKit`), searched for what dependencies.json names. The
   * project's Components folder and the folder beside it are searched always. @default none
   */
  readonly components?: readonly string[]
}

/** The application's name: the `.4DProject` file's, else the structure's, else the folder's. */
async function projectName(files: ProjectFiles, base: string | undefined): Promise<string> {
  const project = (await readdir(files.project)).find((n) => n.endsWith('.4DProject'))
  if (project !== undefined) return project.slice(0, -'.4DProject'.length)
  return base ?? basename(join(files.project, '..'))
}

/**
 * Reads the 4D project at `folder` (its `Project` folder or the one above): the model of its
 * structure and classes, and the notes of what Entistore does not serve as 4D would.
 * @throws FileError naming the file and the place of a mistake (a truncated structure file, an
 *   unknown type code, a relation to a table the structure does not have)
 */
export async function loadProject(
  folder: string,
  options: LoadProjectOptions = {},
): Promise<LoadedProject> {
  const files = projectFiles(folder)
  let text: string
  try {
    text = (await readFile(files.catalog)).toString('utf8')
  } catch (e) {
    throw new FileError(files.catalog, `cannot read the structure file (${String(e)})`, {
      cause: e,
    })
  }
  let structure
  try {
    structure = readStructure(parseXml(text))
  } catch (e) {
    if (e instanceof XmlSyntaxError)
      throw new FileError(files.catalog, `the structure file is not valid XML: ${e.message}`, e)
    if (e instanceof StructureError) throw new FileError(files.catalog, e.message, e.place)
    throw e
  }
  const fromStructure = structureModel(
    structure,
    await projectName(files, structure.name),
    files.catalog,
  )
  const { model, notes } = fromStructure
  const names = model.dataClasses.map((dc) => dc.name)
  const fourD = await import('@entistore/4d')
  const sources = await fourD.readProjectSources(files.project)
  // The model needs no component: the code that runs does.
  const components =
    options.code === false
      ? undefined
      : await fourD.readProjectComponents(files.project, { folders: options.components ?? [] })
  if (components !== undefined) componentNotes(components, files.project, notes)
  const code = fourD.compileProject(
    options.code === false ? sources.files.filter((f) => f.kind === 'class') : sources.files,
    {
      dataClasses: names,
      name: model.__NAME,
      ...(components === undefined ? {} : { components: components.found }),
    },
  )
  const declared = fourD.projectDeclarations(
    code,
    new Map(model.dataClasses.map((dc) => [dc.name, new Set(dc.attributes.map((a) => a.name))])),
  )
  const inProject = (p: { file: string; line: number; column: number }): NotePlace => ({
    ...p,
    file: join(sources.root, p.file),
  })
  for (const n of declared.notes) notes.add(n.what, n.where, inProject(n))
  const dataClasses: DataClassJson[] = model.dataClasses.map((dc) => {
    const methods = declared.dataClasses.get(dc.name) ?? []
    const added = declared.attributes.get(dc.name) ?? []
    return {
      ...dc,
      attributes: [...dc.attributes, ...added],
      ...(methods.length === 0 ? {} : { methods }),
    }
  })
  const served: ModelJson = {
    __NAME: model.__NAME,
    ...(declared.dataStore.length === 0 ? {} : { methods: declared.dataStore }),
    ...(declared.singletons.length === 0 ? {} : { singletons: declared.singletons }),
    dataClasses,
  }
  // What the model refuses is left out of the functions too (their registry would refuse it).
  const leftOut = new Set(declared.shadowed)
  const checked = checkedModel(served, declared, inProject, files.catalog, notes, leftOut)
  return {
    model: checked,
    notes: notes.lines(),
    placedNotes: notes.placed(),
    unplacedNotes: notes.unplaced(),
    computed: checked.dataClasses.flatMap((dc) =>
      dc.attributes.filter((a) => a.kind === 'calculated').map((a) => `${dc.name}.${a.name}`),
    ),
    restricts: declared.restricts,
    shadowed: leftOut,
    files,
    code,
  }
}

/** What of the components 4D would load cannot run here, at dependencies.json's line. */
function componentNotes(
  components: import('@entistore/4d').ProjectComponents,
  project: string,
  notes: Notes,
): void {
  const file = join(project, 'Sources', 'dependencies.json')
  const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
  const placeOf = (name: string): NotePlace | undefined => {
    const at = text.indexOf(JSON.stringify(name))
    if (at < 0) return undefined
    const before = text.slice(0, at).split('\n')
    return { file, line: before.length, column: before.at(-1)!.length + 1 }
  }
  for (const m of components.missing)
    notes.add(
      'components not found (their classes cannot run; serve --components names a folder of downloaded ones)',
      m.name,
      placeOf(m.name),
    )
  for (const c of components.found)
    if (c.compiled)
      notes.add('compiled components (.4DZ), whose code cannot run here', c.name, placeOf(c.name))
}

// `Invalid model: dataclass "Car" attribute "label": …`, `… dataclass "Car": methods[2]: …`
// (core's InvalidModel, 9020).
const MODEL_ERROR =
  /^Invalid model: dataclass "([^"]+)"(?: attribute "([^"]+)"|: methods\[(\d+)\])?/

/** The declaration an InvalidModel error of `model` names: `Car.label`, `Car.raise`. */
function declarationNamed(model: ModelJson, message: string): string | undefined {
  const [, dataClass, attribute, method] = MODEL_ERROR.exec(message) ?? []
  if (attribute !== undefined) return `${dataClass}.${attribute}`
  if (method === undefined) return undefined
  const fn = model.dataClasses.find((dc) => dc.name === dataClass)?.methods?.[Number(method)]
  return fn && `${dataClass}.${fn.name}`
}

/**
 * `model` as the datastore will take it (core's loadModel checks it), so that `check` and `serve`
 * agree: a computed attribute, an alias or a function of a class file that the model refuses (an
 * alias whose path names nothing) is left out and noted at its line, as 4D serves an application
 * whose class holds a member it cannot use; any other refusal is a FileError at the structure
 * file.
 */
function checkedModel(
  model: ModelJson,
  declared: ProjectDeclarations,
  inProject: (p: { file: string; line: number; column: number }) => NotePlace,
  catalog: string,
  notes: Notes,
  leftOut: Set<string>,
): ModelJson {
  for (;;) {
    try {
      loadModel(model)
      return model
    } catch (e) {
      if (!DatastoreError.is(e) || e.name !== 'InvalidModel') throw e
      const named = declarationNamed(model, e.message)
      const place = named === undefined ? undefined : declared.places.get(named)
      const message = e.message.replace(/^Invalid model: /, '')
      // Not a class member's, or one already left out (a field of its name is refused): the
      // structure's.
      if (place === undefined || leftOut.has(named!))
        throw new FileError(catalog, message, { cause: e })
      leftOut.add(named!)
      notes.add('class members the model refuses are left out', message, inProject(place))
      model = withoutDeclaration(model, named!)
    }
  }
}

/** `model` without the computed attribute, alias or function `named` (`Car.label`). */
function withoutDeclaration(model: ModelJson, named: string): ModelJson {
  const dot = named.indexOf('.')
  const [dataClass, name] = [named.slice(0, dot), named.slice(dot + 1)]
  return {
    ...model,
    dataClasses: model.dataClasses.map((dc) =>
      dc.name !== dataClass
        ? dc
        : {
            ...dc,
            attributes: dc.attributes.filter(
              (a) => a.name !== name || (a.kind !== 'alias' && a.kind !== 'calculated'),
            ),
            ...(dc.methods === undefined
              ? {}
              : { methods: dc.methods.filter((m) => m.name !== name) }),
          },
    ),
  }
}
