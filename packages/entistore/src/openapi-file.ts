/**
 * @module `entistore openapi`: the OpenAPI description of a model's REST interface, written as
 * JSON. The model and functions are loaded as `serve` loads them (without data), so a mistake in
 * either is the same one line; the description is @entistore/rest's, the one `GET /rest/$openapi`
 * serves.
 */
import { writeOutput } from './output-file.js'
import { openApiDocument } from '@entistore/rest'
import { loadDatastoreFiles } from './load-files.js'

export interface OpenApiCommandOptions {
  readonly model: string
  readonly functions?: string | undefined
  readonly out?: string | undefined
}

export async function runOpenApiCommand(
  options: OpenApiCommandOptions,
  io: { out(line: string): void },
): Promise<void> {
  const ds = await loadDatastoreFiles({
    model: options.model,
    ...(options.functions === undefined ? {} : { functions: options.functions }),
  })
  const text = `${JSON.stringify(openApiDocument(ds), null, 2)}\n`
  await writeOutput(
    text,
    {
      out: options.out,
      what: 'the description',
      written: `Wrote the OpenAPI description of ${options.model} to ${options.out}`,
    },
    io,
  )
}
