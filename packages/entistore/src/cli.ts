/**
 * @module The `entistore` command.
 *
 *   entistore serve --model <model.json> [--data <data.json>] [--users <users.json>] [--port N] [--host H]
 *   entistore --version | --help
 *
 * Prints one line with `http://HOST:PORT` once listening (`--port 0` picks a free port), then
 * serves until SIGINT/SIGTERM. Exit codes: 0 done, 1 a file or runtime problem, 2 a usage error.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { FileError, loadDatastoreFiles, readJsonFile } from './load-files.js'
import { serve, type RunningServer } from './serve.js'
import { closest } from './suggest.js'
import { usersAuthenticate } from './users.js'

export interface CliIo {
  readonly out: (line: string) => void
  readonly err: (line: string) => void
  /** Resolves when the server should stop. @default the first SIGINT or SIGTERM */
  readonly stopSignal?: Promise<void>
  /** Receives the server once it listens (tests use it). */
  readonly onListening?: (server: RunningServer) => void
}

const USAGE = `Usage:
  entistore serve --model <model.json> [--data <data.json>] [--users <users.json>] [--port N] [--host H]
  entistore --version

Options:
  --model, -m   the model: a JSON file in the shape of GET /rest/$catalog/$all (required)
  --data,  -d   the data: a JSON file { "<DataClass>": [ {...}, ... ] }
  --users, -u   users who may log in ($directory/login); only they may read and write data:
                { "<name>": { "password": "…", "groups": ["…"] } }
  --port,  -p   the port to listen on; 0 picks a free one (default 8080)
  --host        the address to listen on (default 127.0.0.1)
  --version, -v the version of entistore
  --help,  -h   this text

Examples:
  entistore serve --model model.json --data data.json --port 3000
  entistore serve -m model.json -d data.json --port 0     a free port: the URL is printed once listening
  entistore serve -m model.json -d data.json -u users.json   only logged-in users read and write data
  entistore serve -m examples/company/model.json -d examples/company/data.json
                the demo, from the repository's folder (npm start there does the same on port 8080)`

/** The options of `serve`, for parseArgs and for suggestions. */
const OPTIONS = {
  model: { type: 'string', short: 'm' },
  data: { type: 'string', short: 'd' },
  users: { type: 'string', short: 'u' },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

const COMMANDS = ['serve']

/**
 * The version in the entistore package's package.json, read when asked: cli.ts runs from src/ (tsx,
 * tests) or dist/ (the bin), both one folder below the package.
 */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}

/** parseArgs' error for an unknown option, reworded with the option meant when it is a typo. */
function unknownOption(e: Error): Error {
  const name = /^Unknown option '(-[^']*)'/.exec(e.message)?.[1]
  if ((e as NodeJS.ErrnoException).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || name === undefined)
    return e
  // A short option is one letter, too short to guess from.
  const meant = name.startsWith('--') ? closest(name.slice(2), Object.keys(OPTIONS)) : undefined
  return new UsageError(
    `unknown option "${name}"` + (meant === undefined ? '' : `, did you mean --${meant}?`),
  )
}

class UsageError extends Error {}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 8080
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${text}"`)
  return Number(text)
}

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}

function signals(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })
}

async function loadUsers(file: string): Promise<ReturnType<typeof usersAuthenticate>> {
  const json = await readJsonFile(file, 'users')
  try {
    return usersAuthenticate(json)
  } catch (e) {
    throw new FileError(file, `the users file is not valid: ${(e as Error).message}`)
  }
}

/** Runs the command line `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let values: {
    model?: string | undefined
    data?: string | undefined
    users?: string | undefined
    port?: string | undefined
    host?: string | undefined
    help?: boolean | undefined
    version?: boolean | undefined
  }
  let command: string | undefined
  let port: number
  try {
    let parsed
    try {
      parsed = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS })
    } catch (e) {
      throw unknownOption(e as Error)
    }
    values = parsed.values
    command = parsed.positionals[0]
    if (values.help) {
      io.out(USAGE)
      return 0
    }
    if (values.version) {
      io.out(version())
      return 0
    }
    if (command === undefined) throw new UsageError('missing command')
    if (!COMMANDS.includes(command)) {
      const meant = closest(command, COMMANDS)
      throw new UsageError(
        `unknown command "${command}"` + (meant === undefined ? '' : `, did you mean ${meant}?`),
      )
    }
    if (parsed.positionals.length > 1)
      throw new UsageError(`unexpected argument "${parsed.positionals[1]}"`)
    if (values.model === undefined) throw new UsageError('--model is required')
    // Checked with the other usage errors, so that a bad port also shows the usage text.
    port = parsePort(values.port)
  } catch (e) {
    io.err(`entistore: ${(e as Error).message}`)
    io.err(USAGE)
    return 2
  }
  try {
    const ds = await loadDatastoreFiles({
      model: values.model,
      ...(values.data === undefined ? {} : { data: values.data }),
    })
    const auth =
      values.users === undefined
        ? {}
        : { authenticate: await loadUsers(values.users), forceLogin: true }
    const server = await serve(ds, {
      port,
      ...auth,
      ...(values.host === undefined ? {} : { host: values.host }),
    })
    const counts = ds.dataClasses.map((dc) => `${dc.name} ${dc.length}`).join(', ')
    io.out(`Entistore serving ${ds.name} (${counts}) at ${server.url}/rest/$catalog`)
    io.onListening?.(server)
    await (io.stopSignal ?? signals())
    await server.close()
    return 0
  } catch (e) {
    if (e instanceof FileError) {
      io.err(`entistore: ${e.message}`)
      return 1
    }
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') {
      io.err(
        `entistore: port ${port} is in use` +
          (values.host === undefined ? '' : ` on ${values.host}`) +
          ': pass --port 0 for a free one, or another port',
      )
      return 1
    }
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      io.err(
        `entistore: cannot listen on ${values.host ?? '127.0.0.1'}:${values.port ?? 8080} (${code})`,
      )
      return 1
    }
    io.err(`entistore: ${(e as Error).stack ?? String(e)}`)
    return 1
  }
}
