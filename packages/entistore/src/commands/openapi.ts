/**
 * @module `entistore openapi --model <model.json>`: the OpenAPI 3.1 description of the REST
 * interface `serve` would answer for a model (and its functions). The reading of its flags;
 * openapi-file.ts writes it, imported when it runs.
 */
import { modelSource, noMorePositionals, PROJECT_HELP, type Command } from './command.js'

const HELP = `Usage:
  entistore openapi --model <model.json> [--functions <module>] [--out <file.json>]
  entistore openapi --project <folder> [--functions <module>] [--out <file.json>]

Writes the OpenAPI 3.1 description of the REST interface that serve answers for a model: the one
GET /rest/$openapi serves (see docs/openapi.md).

Options:
  --model, -m      the model (the same file serve reads)
${PROJECT_HELP}, its class functions' paths too
  --functions, -f  the class functions module, for their paths and parameters (as serve takes it)
  --out,  -o       the .json file to write (default: print it)
  --help,  -h      this text

Example:
  entistore openapi -m model.json -f functions.js -o openapi.json
                then: npx openapi-typescript openapi.json -o api.d.ts`

export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'write the OpenAPI 3.1 description of the REST interface',
  help: HELP,
  options: {
    model: { type: 'string', short: 'm' },
    project: { type: 'string' },
    functions: { type: 'string', short: 'f' },
    out: { type: 'string', short: 'o' },
  },
  prepare(values, positionals) {
    noMorePositionals(positionals, 0)
    const options = {
      ...modelSource(values),
      functions: values.functions as string | undefined,
      out: values.out as string | undefined,
    }
    return async (io) => {
      const { runOpenApiCommand } = await import('../outputs/openapi-file.js')
      await runOpenApiCommand(options, io)
      return 0
    }
  },
}
