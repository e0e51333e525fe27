/**
 * @module `entistore clone --project <folder> --data <csv folder> --out <dir>`: a 4D project
 * folder and its data as the `model.json` and `data.json` that `serve --model --data` loads, so
 * that a team can keep, diff or edit a fixture of the project without 4D. The project is read as
 * `serve --project` reads it (load-project.ts, load-files.ts): the model is the one `model
 * --from-project` writes, and the data the rows the datastore loaded.
 */
import type { ModelJson } from '@entistore/core'
import { writeCopy } from './clone.js'
import { loadDatastoreFiles } from '../load/load-files.js'
import { loadProject } from '../project/load-project.js'

export interface CloneProjectOptions {
  /** The project folder: its `Project` folder or the one that holds it. */
  readonly project: string
  /** The data: a JSON file, or a folder of CSV files, as `serve --project --data` takes it. */
  readonly data?: string
  /** The folder to write `model.json` and `data.json` to; created if needed. */
  readonly out: string
  /** What the project holds that Entistore does not serve as 4D would, one line each. */
  readonly onNote?: (note: string) => void
}

export interface CloneProjectResult {
  readonly name: string
  readonly counts: Readonly<Record<string, number>>
  readonly model: ModelJson
  readonly modelFile: string
  readonly dataFile: string
}

export async function cloneProject(options: CloneProjectOptions): Promise<CloneProjectResult> {
  // The model as a model file holds it (functions declared, their 4D code not in it: 9107 when
  // called), the rows as the project's datastore loaded them.
  const { model } = await loadProject(options.project, { code: false })
  const ds = await loadDatastoreFiles({
    project: options.project,
    ...(options.data === undefined ? {} : { data: options.data }),
    ...(options.onNote === undefined ? {} : { onNote: options.onNote }),
  })
  const { modelFile, dataFile } = await writeCopy(options.out, model, ds)
  const counts = Object.fromEntries(
    model.dataClasses.map((dc) => [dc.name, ds.dataClass(dc.name).length]),
  )
  return { name: model.__NAME ?? 'entistore', counts, model, modelFile, dataFile }
}
