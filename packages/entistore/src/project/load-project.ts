/**
 * @module A 4D project folder as a model source (`serve --project`, `model --from-project`,
 * `loadProject`): its structure file (Sources/catalog.4DCatalog) read into the model Entistore
 * serves, its class files' exposed functions, computed attributes and aliases added to it, its
 * roles.json found, and what Entistore cannot honour said in notes. The model is the same JSON a
 * `--model` file holds: everything after this (the datastore, REST) is as for any model.
 */
import { existsSync, statSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { basename, join, relative } from 'node:path'
import type { DataClassJson, ModelJson } from '@entistore/core'
import { FileError } from '../files/file-error.js'
import { readClassDeclarations, type ClassFile } from './four-d-classes.js'
import type { RestrictEvent } from './restrict-events.js'
import { structureModel } from './structure-model.js'
import { readStructure, StructureError } from './structure-xml.js'
import { parseXml, XmlSyntaxError } from './xml-reader.js'

/** The files of a project folder that Entistore reads. */
export interface ProjectFiles {
  /** The `Project` folder. */
  readonly project: string
  /** `Project/Sources/catalog.4DCatalog`. */
  readonly catalog: string
  /** `Project/Sources/roles.json`, when the project has one. */
  readonly roles: string | undefined
  /** `Project/Sources/Classes`, when the project has one. */
  readonly classes: string | undefined
}

export interface LoadedProject {
  /** The model, as a `--model` file would hold it (`entistore model --from-project` writes it). */
  readonly model: ModelJson
  /** What the project holds that Entistore does not serve as 4D would: one line each. */
  readonly notes: readonly string[]
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
  readonly files: ProjectFiles
}

const CATALOG = join('Sources', 'catalog.4DCatalog')

/**
 * The files of the project at `folder`: the `Project` folder itself, or the folder that holds it
 * (the one with the `.4DProject` file's folder in it, as 4D lays a project out).
 */
export function projectFiles(folder: string): ProjectFiles {
  const candidates = [folder, join(folder, 'Project')]
  const project = candidates.find((dir) => existsSync(join(dir, CATALOG)))
  if (project === undefined) {
    const why = !existsSync(folder)
      ? 'the project folder does not exist'
      : !statSync(folder).isDirectory()
        ? 'the project path is a file, not a folder'
        : `no ${CATALOG} in it nor in its Project folder: give the 4D project's Project folder, or the folder that holds it`
    throw new FileError(folder, why)
  }
  const sources = join(project, 'Sources')
  const roles = join(sources, 'roles.json')
  const classes = join(sources, 'Classes')
  return {
    project,
    catalog: join(project, CATALOG),
    roles: existsSync(roles) ? roles : undefined,
    classes: existsSync(classes) ? classes : undefined,
  }
}

/** The application's name: the `.4DProject` file's, else the structure's, else the folder's. */
async function projectName(files: ProjectFiles, base: string | undefined): Promise<string> {
  const project = (await readdir(files.project)).find((n) => n.endsWith('.4DProject'))
  if (project !== undefined) return project.slice(0, -'.4DProject'.length)
  return base ?? basename(join(files.project, '..'))
}

async function readClassFiles(files: ProjectFiles): Promise<ClassFile[]> {
  if (files.classes === undefined) return []
  const names = (await readdir(files.classes)).filter((n) => n.endsWith('.4dm'))
  return Promise.all(
    names.map(async (n) => ({
      name: n.slice(0, -'.4dm'.length),
      // Named from the project folder, as a 4D developer finds it: Sources/Classes/Employee.4dm.
      path: relative(files.project, join(files.classes!, n)),
      text: (await readFile(join(files.classes!, n))).toString('utf8'),
    })),
  )
}

/**
 * Reads the 4D project at `folder` (its `Project` folder or the one above): the model of its
 * structure and classes, and the notes of what Entistore does not serve as 4D would.
 * @throws FileError naming the file and the place of a mistake (a truncated structure file, an
 *   unknown type code, a relation to a table the structure does not have)
 */
export async function loadProject(folder: string): Promise<LoadedProject> {
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
  let fromStructure
  try {
    fromStructure = structureModel(structure, await projectName(files, structure.name))
  } catch (e) {
    if (e instanceof StructureError) throw new FileError(files.catalog, e.message, e.place)
    throw e
  }
  const { model } = fromStructure
  const classes = readClassDeclarations(
    await readClassFiles(files),
    new Set(model.dataClasses.map((dc) => dc.name)),
  )
  const dataClasses: DataClassJson[] = model.dataClasses.map((dc) => {
    const methods = classes.dataClasses.get(dc.name) ?? []
    const added = classes.attributes.get(dc.name) ?? []
    return {
      ...dc,
      attributes: [...dc.attributes, ...added],
      ...(methods.length === 0 ? {} : { methods }),
    }
  })
  return {
    model: {
      __NAME: model.__NAME,
      ...(classes.dataStore.length === 0 ? {} : { methods: classes.dataStore }),
      ...(classes.singletons.length === 0 ? {} : { singletons: classes.singletons }),
      dataClasses,
    },
    notes: [...fromStructure.notes, ...classes.notes],
    computed: dataClasses.flatMap((dc) =>
      dc.attributes.filter((a) => a.kind === 'calculated').map((a) => `${dc.name}.${a.name}`),
    ),
    restricts: classes.restricts,
    files,
  }
}
