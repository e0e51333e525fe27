/**
 * @module The `entistore` command.
 *
 *   entistore serve --model <model.json> [--data <data.json>] [--users <users.json>] [--port N] [--host H]
 *
 * Prints one line with `http://HOST:PORT` once listening (`--port 0` picks a free port), then
 * serves until SIGINT/SIGTERM. Exit codes: 0 done, 1 a file or runtime problem, 2 a usage error.
 */
import { parseArgs } from 'node:util'
import { FileError, loadDatastoreFiles, readJsonFile } from './load-files.js'
import { serve, type RunningServer } from './serve.js'
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

Options:
  --model, -m   the model: a JSON file in the shape of GET /rest/$catalog/$all (required)
  --data,  -d   the data: a JSON file { "<DataClass>": [ {...}, ... ] }
  --users, -u   users who may log in ($directory/login); only they may read and write data:
                { "<name>": { "password": "…", "groups": ["…"] } }
  --port,  -p   the port to listen on; 0 picks a free one (default 8080)
  --host        the address to listen on (default 127.0.0.1)
  --help,  -h   this text`

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
  }
  let command: string | undefined
  let port: number
  try {
    const parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        model: { type: 'string', short: 'm' },
        data: { type: 'string', short: 'd' },
        users: { type: 'string', short: 'u' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    values = parsed.values
    command = parsed.positionals[0]
    if (values.help) {
      io.out(USAGE)
      return 0
    }
    if (command !== 'serve')
      throw new UsageError(
        command === undefined ? 'missing command' : `unknown command "${command}"`,
      )
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
    if (
      code === 'EADDRINUSE' ||
      code === 'EACCES' ||
      code === 'EADDRNOTAVAIL' ||
      code === 'ENOTFOUND'
    ) {
      io.err(
        `entistore: cannot listen on ${values.host ?? '127.0.0.1'}:${values.port ?? 8080} (${code})`,
      )
      return 1
    }
    io.err(`entistore: ${(e as Error).stack ?? String(e)}`)
    return 1
  }
}
