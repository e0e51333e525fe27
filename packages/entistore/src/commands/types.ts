/**
 * @module `entistore types --model <model.json>` (or `--project <folder>`): the TypeScript types
 * of a model. The reading of its flags; model-types.ts writes them, imported when it runs.
 */
import { modelSource, noMorePositionals, PROJECT_HELP, type Command } from './command.js'

const HELP = `Usage:
  entistore types --model <model.json> [--out <file.ts>]
  entistore types --project <folder> [--out <file.ts>]

Writes the TypeScript types of a model, for createDatastore<Model>() and its typed dataclasses.

Options:
  --model, -m   the model to write TypeScript types for (the same file serve reads)
${PROJECT_HELP}
  --out,  -o    the .ts file to write (default: print them)
  --help,  -h   this text

Example:
  entistore types -m model.json -o src/model-types.ts
                types for createDatastore<Model>(): ds.dataClass('Employee').get(3)?.get('salary') is number | null`

export const typesCommand: Command = {
  name: 'types',
  summary: 'write the TypeScript types of a model',
  help: HELP,
  options: {
    model: { type: 'string', short: 'm' },
    project: { type: 'string' },
    out: { type: 'string', short: 'o' },
  },
  prepare(values, positionals) {
    noMorePositionals(positionals, 0)
    const options = { ...modelSource(values), out: values.out as string | undefined }
    return async (io) => {
      const { runTypesCommand } = await import('../outputs/model-types.js')
      await runTypesCommand(options, io)
      return 0
    }
  },
}
