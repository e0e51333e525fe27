/**
 * @module `entistore model --from <data.json>`: the model inferred from a data file, to edit. The
 * reading of its flags; model-file.ts writes it, imported when it runs.
 */
import { noMorePositionals, UsageError, type Command } from './command.js'

const HELP = `Usage:
  entistore model --from <data.json> [--out <model.json>] [--force]
  entistore model --from-project <folder> [--out <model.json>] [--force]

Writes the model inferred from a data file, as serve --data infers it without --model: a
dataclass per collection, types from the values, keys and relations from names such as id and
postId (docs/infer-model.md). Edit it, then serve it with --model. What cannot be inferred
exactly (two types in one attribute, a collection without rows) is guessed and said on stderr.
With --from-project, writes the model of a 4D project folder: the catalog a 4D server serves for
its structure and classes, what Entistore does not serve as 4D would said on stderr
(docs/from-your-project.md).

Options:
  --from        the data file: { "<collection>": [ {...}, ... ] } (json-server's db.json), or JSON Lines
  --from-project  a 4D project folder (its Project folder, or the one that holds it)
  --out,  -o    the model file to write (default: print it); an existing file is kept
  --force       replace the --out file if it exists
  --help,  -h   this text

Example:
  entistore model --from db.json --out model.json
                then edit model.json and run: entistore serve --model model.json --data db.json
  entistore model --from-project Project --out model.json`

export const modelCommand: Command = {
  name: 'model',
  summary: 'write the model inferred from a data file, to edit',
  help: HELP,
  options: {
    from: { type: 'string' },
    'from-project': { type: 'string' },
    out: { type: 'string', short: 'o' },
    force: { type: 'boolean' },
  },
  prepare(values, positionals) {
    noMorePositionals(positionals, 0)
    const fromProject = values['from-project'] as string | undefined
    if (values.from !== undefined && fromProject !== undefined)
      throw new UsageError('--from and --from-project cannot go together')
    if (values.from === undefined && fromProject === undefined)
      throw new UsageError('--from <data.json> or --from-project <folder> is required')
    if (values.force === true && values.out === undefined)
      throw new UsageError('--force goes with --out')
    const options = {
      from: (values.from ?? fromProject) as string,
      project: fromProject !== undefined,
      out: values.out as string | undefined,
      force: values.force === true,
    }
    return async (io) => {
      const { runModelCommand } = await import('../outputs/model-file.js')
      await runModelCommand(options, io)
      return 0
    }
  },
}
