/**
 * @module `entistore model --from <data.json>`: the model inferred from a data file (a draft, in
 * the notes what it guessed), written out to edit and serve with `--model` (docs/infer-model.md).
 */
import { writeOutput } from './output-file.js'
import { existsSync } from 'node:fs'
import type { ModelJson } from '@entistore/core'
import { FileError } from '../files/file-error.js'
import { inferDataFile } from '../load/infer-data.js'

/**
 * A model as `entistore model` writes it: the catalog's shape, two spaces a level, each attribute
 * on one line, so that a model of many attributes reads (and diffs) as a list.
 */
export function modelText(model: ModelJson): string {
  const json = (v: unknown): string => JSON.stringify(v)
  const flat = (o: object): string =>
    `{ ${Object.entries(o)
      .map(([k, v]) => `${json(k)}: ${json(v)}`)
      .join(', ')} }`
  const dataClass = (dc: ModelJson['dataClasses'][number]): string => {
    const { attributes, key, ...rest } = dc
    const lines = [
      ...Object.entries(rest).map(([k, v]) => `      ${json(k)}: ${json(v)},`),
      `      "attributes": [`,
      attributes.map((a) => `        ${flat(a)}`).join(',\n'),
      `      ]${key === undefined ? '' : ','}`,
      ...(key === undefined ? [] : [`      "key": [${key.map(flat).join(', ')}]`]),
    ]
    return `    {\n${lines.join('\n')}\n    }`
  }
  const { dataClasses, ...head } = model
  return [
    '{',
    ...Object.entries(head).map(([k, v]) => `  ${json(k)}: ${json(v)},`),
    '  "dataClasses": [',
    dataClasses.map(dataClass).join(',\n'),
    '  ]',
    '}',
    '',
  ].join('\n')
}

const exists = (file: string): FileError =>
  new FileError(
    file,
    'the file exists (it may hold a model edited by hand): pass --force to replace it',
  )

export interface ModelCommandOptions {
  /** The data file to infer the model from, or with `project` the 4D project folder. */
  readonly from: string
  /** `from` is a 4D project folder (`--from-project`). @default false */
  readonly project?: boolean
  /** The file to write; undefined: the model is printed. */
  readonly out: string | undefined
  /** Replace `out` if it exists (it may hold a model edited by hand). */
  readonly force: boolean
}

/** A project's model and its notes, its restrict events among them (a model file holds none). */
async function projectModel(from: string): Promise<{ model: ModelJson; notes: string[] }> {
  const project = await (
    await import('../project/load-project.js')
  ).loadProject(from, { code: false })
  const { restrictNotInModel } = await import('../project/restrict-events.js')
  return {
    model: project.model,
    notes: [
      ...project.notes,
      ...project.restricts.map((e) => restrictNotInModel(e, project.files.project)),
    ],
  }
}

/**
 * Infers the model of `from` (a draft: what it cannot infer exactly is guessed) and prints it or
 * writes it to `out`, each guess a line on stderr. An existing `out` is kept unless `force`.
 */
export async function runModelCommand(
  options: ModelCommandOptions,
  io: { out(line: string): void; err(line: string): void },
): Promise<void> {
  // Said before the data is read: a model edited by hand is worth more than the notes of a new one.
  if (options.out !== undefined && !options.force && existsSync(options.out))
    throw exists(options.out)
  const { model, notes } = options.project
    ? await projectModel(options.from)
    : await inferDataFile(options.from, { draft: true })
  for (const note of notes) io.err(`entistore: ${options.from}: ${note}`)
  const names = model.dataClasses.map((dc) => dc.name).join(', ')
  await writeOutput(
    modelText(model),
    {
      out: options.out,
      what: 'the model',
      written:
        `Wrote the model of ${options.from} to ${options.out} (${names}): ` +
        (options.project
          ? `entistore serve --model ${options.out} --data <data> serves it`
          : `entistore serve --model ${options.out} --data ${options.from} serves it`),
      ...(options.force ? {} : { keep: { exists } }),
    },
    io,
  )
}
