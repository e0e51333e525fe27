/**
 * @module `entistore clone <url> --out <dir>` (or `--project <folder>`): copies a running server's
 * catalog and data, or a 4D project folder and its data, into the files `serve` loads. The reading of its flags; clone.ts does the copying, imported when it runs.
 */
import type { CliIo } from './cli-io.js'
import {
  integerIn,
  noMorePositionals,
  read,
  UsageError,
  type Command,
  type Values,
} from './command.js'

const HELP = `Usage:
  entistore clone <url> --out <dir> [--user <name> --password <password>] [--page-size N]
  entistore clone --project <folder> [--data <data.json>|<csv folder>] --out <dir>

Copies a running server (4D, Qodly or another Entistore), or a 4D project folder and its data,
into a model.json and a data.json that entistore serve loads.

Options:
  --out,  -o    the folder to write model.json and data.json to (created if needed)
  --project     a 4D project folder (its Project folder, or the one that holds it), read as
                serve --project reads it, instead of a server's URL
  --data,  -d   with --project: its data, a JSON file or a folder of CSV files
  --user        log in as this user ($directory/login) before reading, with --password
  --password    the password of --user
  --page-size   entities read per request (default 1000)
  --help,  -h   this text

Example:
  entistore clone http://127.0.0.1:8080 --out fixture
                copy a running server's catalog and data, then: entistore serve -m fixture/model.json -d fixture/data.json
  entistore clone --project MyApp --data MyApp/csv --out fixture
                the same files from a 4D project folder and its CSV data`

const parsePageSize = integerIn(1, 100_000)

export const cloneCommand: Command = {
  name: 'clone',
  summary: "copy a running server's catalog and data into files that serve loads",
  help: HELP,
  options: {
    out: { type: 'string', short: 'o' },
    user: { type: 'string' },
    password: { type: 'string' },
    'page-size': { type: 'string' },
    project: { type: 'string' },
    data: { type: 'string', short: 'd' },
  },
  prepare(values, positionals) {
    if (values.project !== undefined) return prepareProject(values, positionals)
    if (values.data !== undefined) throw new UsageError('--data goes with --project')
    const url = positionals[0]
    if (url === undefined) throw new UsageError('clone needs the URL of a server')
    noMorePositionals(positionals, 1)
    if (values.out === undefined) throw new UsageError('--out is required')
    if ((values.user === undefined) !== (values.password === undefined))
      throw new UsageError('--user and --password go together')
    const pageSize =
      read(values['page-size'], parsePageSize, '--page-size must be an integer from 1 to 100000') ??
      1000
    const login =
      values.user === undefined
        ? {}
        : { user: values.user as string, password: values.password as string }
    const options = { url, out: values.out as string, pageSize, ...login }
    return async (io) => {
      const { clone, CloneError } = await import('../clone/clone.js')
      let result
      try {
        result = await clone(options)
      } catch (e) {
        // A server that cannot be reached or read: its message says all there is.
        if (!(e instanceof CloneError)) throw e
        io.err(`entistore: ${e.message}`)
        return 1
      }
      io.out(`Cloned ${result.name} (${counted(result.counts)}) from ${result.base}`)
      return written(io, result)
    }
  },
}

/** `clone --project`: a 4D project folder and its data, instead of a server. */
function prepareProject(values: Values, positionals: readonly string[]) {
  if (positionals.length > 0)
    throw new UsageError('clone takes the URL of a server or --project <folder>, not both')
  if (values.out === undefined) throw new UsageError('--out is required')
  for (const flag of ['user', 'password', 'page-size'])
    if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with a server's URL`)
  const options = {
    project: values.project as string,
    out: values.out as string,
    ...(values.data === undefined ? {} : { data: values.data as string }),
  }
  return async (io: CliIo): Promise<number> => {
    const { cloneProject } = await import('../clone/clone-project.js')
    const result = await cloneProject({
      ...options,
      onNote: (note) => io.err(`entistore: ${options.project}: ${note}`),
    })
    io.out(`Cloned ${result.name} (${counted(result.counts)}) from ${options.project}`)
    return written(io, result)
  }
}

/** Says the files written and how to serve them. */
function written(io: CliIo, files: { modelFile: string; dataFile: string }): number {
  io.out(`Wrote ${files.modelFile} and ${files.dataFile}; serve them with:`)
  io.out(`  entistore serve --model ${files.modelFile} --data ${files.dataFile}`)
  return 0
}

const counted = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ')
