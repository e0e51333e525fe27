/**
 * @module `entistore clone <url> --out <dir>`: copies a running server's catalog and data into the
 * files `serve` loads. The reading of its flags; clone.ts does the copying, imported when it runs.
 */
import { integerIn, noMorePositionals, read, UsageError, type Command } from './command.js'

const HELP = `Usage:
  entistore clone <url> --out <dir> [--user <name> --password <password>] [--page-size N]

Copies a running server (4D, Qodly or another Entistore) into a model.json and a data.json that
entistore serve loads.

Options:
  --out,  -o    the folder to write model.json and data.json to (created if needed)
  --user        log in as this user ($directory/login) before reading, with --password
  --password    the password of --user
  --page-size   entities read per request (default 1000)
  --help,  -h   this text

Example:
  entistore clone http://127.0.0.1:8080 --out fixture
                copy a running server's catalog and data, then: entistore serve -m fixture/model.json -d fixture/data.json`

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
  },
  prepare(values, positionals) {
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
      const { clone, CloneError } = await import('../clone.js')
      let result
      try {
        result = await clone(options)
      } catch (e) {
        // A server that cannot be reached or read: its message says all there is.
        if (!(e instanceof CloneError)) throw e
        io.err(`entistore: ${e.message}`)
        return 1
      }
      const counts = Object.entries(result.counts)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ')
      io.out(`Cloned ${result.name} (${counts}) from ${result.base}`)
      io.out(`Wrote ${result.modelFile} and ${result.dataFile}; serve them with:`)
      io.out(`  entistore serve --model ${result.modelFile} --data ${result.dataFile}`)
      return 0
    }
  },
}
