/**
 * @module `entistore types --model <model.json>`: the TypeScript types of a model. The reading of
 * its flags; model-types.ts writes them, imported when it runs.
 */
import { noMorePositionals, UsageError, type Command } from './command.js'

const HELP = `Usage:
  entistore types --model <model.json> [--out <file.ts>]

Writes the TypeScript types of a model, for createDatastore<Model>() and its typed dataclasses.

Options:
  --model, -m   the model to write TypeScript types for (the same file serve reads)
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
    out: { type: 'string', short: 'o' },
  },
  prepare(values, positionals) {
    noMorePositionals(positionals, 0)
    if (values.model === undefined) throw new UsageError('--model is required')
    const options = { model: values.model as string, out: values.out as string | undefined }
    return async (io) => {
      const { runTypesCommand } = await import('../model-types.js')
      await runTypesCommand(options, io)
      return 0
    }
  },
}
