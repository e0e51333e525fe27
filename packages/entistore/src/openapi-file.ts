/**
 * @module `entistore openapi`: the OpenAPI description of a model's REST interface, written as
 * JSON. The model and functions are loaded as `serve` loads them (without data), so a mistake in
 * either is the same one line; the description is @entistore/rest's, the one `GET /rest/$openapi`
 * serves.
 */
import { writeFile } from 'node:fs/promises'
import { openApiDocument } from '@entistore/rest'
import { FileError, loadDatastoreFiles } from './load-files.js'

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
  if (options.out === undefined) {
    io.out(text.trimEnd())
    return
  }
  try {
    await writeFile(options.out, text)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new FileError(options.out, `cannot write the description (${code ?? String(e)})`, {
      cause: e,
    })
  }
  io.out(`Wrote the OpenAPI description of ${options.model} to ${options.out}`)
}
