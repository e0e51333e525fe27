/**
 * @module `entistore openapi`: the OpenAPI description of a model's REST interface, written as
 * JSON. The model and functions are loaded as `serve` loads them (without data), so a mistake in
 * either is the same one line; the description is @entistore/rest's, the one `GET /rest/$openapi`
 * serves.
 */
import { writeOutput } from './output-file.js'
import { openApiDocument } from '@entistore/rest'
import { loadDatastoreFiles } from '../load/load-files.js'
import { sourceOf, type ModelSource } from './model-source.js'

export type OpenApiCommandOptions = ModelSource & {
  readonly functions?: string | undefined
  readonly out?: string | undefined
}

export async function runOpenApiCommand(
  options: OpenApiCommandOptions,
  io: { out(line: string): void },
): Promise<void> {
  // A project's notes are serve's start-up lines: the description is what is written here.
  const ds = await loadDatastoreFiles({
    ...('project' in options ? { project: options.project } : { model: options.model }),
    ...(options.functions === undefined ? {} : { functions: options.functions }),
  })
  const text = `${JSON.stringify(openApiDocument(ds), null, 2)}\n`
  await writeOutput(
    text,
    {
      out: options.out,
      what: 'the description',
      written: `Wrote the OpenAPI description of ${sourceOf(options)} to ${options.out}`,
    },
    io,
  )
}
