/**
 * @module The `entistore` command: finds the command in the command line, reads its flags, and
 * runs it. Each command lives in commands/, read there (options, help, usage errors) and run
 * from a module imported only when it runs, so `--version`, `--help` and every usage error load
 * no engine.
 *
 *   entistore serve --model <model.json> [options]      commands/serve.ts, serve-run.ts
 *   entistore clone <url> --out <dir> [options]          commands/clone.ts
 *   entistore types --model <model.json> [--out <file>]  commands/types.ts
 *   entistore model --from <data.json> [--out <file>]    commands/model.ts
 *   entistore openapi --model <model.json> [--out <file>]  commands/openapi.ts
 *   entistore check --project <folder> [--json]          commands/check.ts
 *   entistore test --project <folder> [pattern…]         commands/test.ts, test-project.ts
 *   entistore bundle --project <folder> --out <file.js>  commands/bundle.ts, bundle-run.ts
 *   entistore [<command>] --help | --version
 *
 * A usage error is one line and a pointer to the help, the way git and npm do it, so that the
 * line that matters does not scroll away under the help:
 *
 *   entistore: unknown option "--prot", did you mean --port?
 *   run 'entistore serve --help' for its options
 *
 * Exit codes: 0 done, 1 a file, network or runtime problem, 2 a usage error.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
// The one piece of the engine the reading needs, alone: the whole core costs a start its import.
import { closest } from '@entistore/core/names'
import { clusterWorker } from './commands/cluster-worker.js'
import { MissingPackageError } from './cluster/optional-package.js'
import type { CliIo } from './commands/cli-io.js'
import { checkCommand } from './commands/check.js'
import { testCommand } from './commands/test.js'
import { bundleCommand } from './commands/bundle.js'
import { cloneCommand } from './commands/clone.js'
import {
  UsageError,
  withBareValues,
  type Command,
  type Options,
  type Values,
} from './commands/command.js'
import { modelCommand } from './commands/model.js'
import { serveCommand } from './commands/serve.js'
import { typesCommand } from './commands/types.js'
import { openapiCommand } from './commands/openapi.js'
import { FileError } from './files/file-error.js'

export type { CliIo } from './commands/cli-io.js'

/** The commands, in the order `--help` and docs/cli.md list them. */
export const COMMAND_LIST: readonly Command[] = [
  serveCommand,
  cloneCommand,
  typesCommand,
  modelCommand,
  openapiCommand,
  checkCommand,
  testCommand,
  bundleCommand,
]

const COMMANDS: Readonly<Record<string, Command>> = Object.fromEntries(
  COMMAND_LIST.map((c) => [c.name, c]),
)

/** Options every command takes. */
const GLOBAL: Options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
}

/** The first lines of a command's help, its usage: `entistore serve --model …` and its options. */
export const synopsis = (command: Command): string[] => {
  const lines = command.help.split('\n')
  return lines.slice(1, lines.indexOf(''))
}

// The commands' names in a column as wide as the longest, and two spaces.
const width = Math.max(...Object.values(COMMANDS).map((c) => c.name.length)) + 2
const name = (command: Command): string => command.name.padEnd(width)

/** `entistore --help`: the commands, then where each one's options are. */
export const OVERVIEW = `Usage: entistore <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${name(c)}${c.summary}`)
  .join('\n')}

${Object.values(COMMANDS).flatMap(synopsis).join('\n')}
  entistore --version
  entistore --help

Run 'entistore <command> --help' for the options and examples of a command.
  --version, -v the version of entistore
  --help,  -h   this text

Examples:
  entistore serve -m model.json -d data.json --port 0     a free port: the URL is printed once listening
  entistore clone http://127.0.0.1:8080 --out fixture
  entistore types -m model.json -o src/model-types.ts
  entistore model --from db.json -o model.json             the model inferred from a data file, to edit
  entistore openapi -m model.json -f functions.js -o openapi.json
  entistore check --project Project                          what of a 4D project's code cannot run here
  entistore serve -m examples/company/model.json -d examples/company/data.json -f examples/company/functions.js
                the demo, from the repository's folder (npm start there does the same on port 8080)`

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

/**
 * parseArgs' errors, reworded for one line: an unknown option with the one meant when it is a
 * typo, and an option without its value (Node's own wording of the latter takes three lines).
 */
function parseError(e: Error, known: readonly string[]): Error {
  const code = (e as NodeJS.ErrnoException).code
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // `Option '-m, --model <value>' argument missing`, `Option '--port' argument is ambiguous.`
    const option = /^Option '(?:-\w, )?(--[\w-]+)/.exec(e.message)?.[1]
    if (option === undefined) return e
    return new UsageError(
      e.message.includes('ambiguous')
        ? `${option} needs a value (one that starts with a dash is written ${option}=-…)`
        : `${option} needs a value`,
    )
  }
  const name = /^Unknown option '(-[^']*)'/.exec(e.message)?.[1]
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || name === undefined) return e
  // A short option is one letter, too short to guess from.
  const meant = name.startsWith('--') ? closest(name.slice(2), known) : undefined
  return new UsageError(
    `unknown option "${name}"` + (meant === undefined ? '' : `, did you mean --${meant}?`),
  )
}

// Where stdout's lines go once serve logs requests (its logging thread): there they keep their
// place among the log's.
let logLines: ((line: string) => void) | undefined

// A reader that stops early (`entistore check … | head`) closes the pipe: what is left to print
// has no one to read it, which is no failure of the command (as `ls | head` ends quietly).
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e
  process.exit(process.exitCode ?? 0)
})

const defaultIo: CliIo = {
  out: (line) => (logLines ? logLines(line) : process.stdout.write(`${line}\n`)),
  err: (line) => process.stderr.write(`${line}\n`),
  // Imported only by a serve that logs: it loads the line's formatting, and the engine with it.
  requestLog: async (format, worker) => {
    const { threadedLog } = await import('./log-output/threaded-log.js')
    const { MAX_WRITE, MAX_WRITE_ALONE } = await import('./log-output/line-batch.js')
    const log = threadedLog({
      format,
      worker,
      // A worker of `--workers N` (it has a channel to its primary) shares stdout with the others.
      maxWrite: process.send === undefined ? MAX_WRITE_ALONE : MAX_WRITE,
    })
    logLines = log.line
    return log.entry
  },
}

/** Runs the command line `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  // A worker of `serve --workers N` (commands/cluster-worker.ts decides) talks through its primary.
  if ((await clusterWorker()) === undefined) return runCommand(argv, io)
  // A worker, running the primary's command line: what it says goes to the primary, and the
  // channel to it is let go at the end so that the process can exit.
  const { workerIo } = await import('./commands/worker-io.js')
  const worker = workerIo(io)
  try {
    return await runCommand(argv, worker.io)
  } finally {
    worker.release()
  }
}

/** Where a usage error sends the user: the command's help, or the list of commands. */
const helpHint = (command: Command | undefined): string =>
  command === undefined
    ? "run 'entistore --help' for the commands"
    : `run 'entistore ${command.name} --help' for its options`

/** The options of any command that may be given without a value (`--cors`), with the value then. */
const BARE_VALUES: Readonly<Record<string, string>> = Object.assign(
  {},
  ...Object.values(COMMANDS).map((c) => c.bareValues ?? {}),
)

async function runCommand(given: readonly string[], io: CliIo): Promise<number> {
  let run: (io: CliIo) => Promise<number>
  let command: Command | undefined
  const argv = withBareValues(given, BARE_VALUES)
  try {
    // A first reading, lenient, only finds the command, so that the strict one knows its options.
    const every: Options = Object.assign(
      {},
      GLOBAL,
      ...Object.values(COMMANDS).map((c) => c.options),
    )
    const first = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: false,
      options: every,
    })
    const name = first.positionals[0]
    // `entistore help serve`, as git and npm take it, is `entistore serve --help`.
    const asked = name === 'help' ? first.positionals[1] : name
    command = asked === undefined ? undefined : COMMANDS[asked]
    // Help and version win over any mistake beside them: they are what the user asked for.
    if (first.values.help === true || name === 'help') {
      io.out(command?.help ?? OVERVIEW)
      return 0
    }
    if (first.values.version === true) {
      io.out(version())
      return 0
    }
    if (name === undefined) {
      // `entistore --verison`: the option meant says more than "missing command".
      try {
        parseArgs({ args: [...argv], options: GLOBAL })
      } catch (e) {
        throw parseError(e as Error, Object.keys(GLOBAL))
      }
      throw new UsageError('missing command')
    }
    if (command === undefined) {
      const meant = closest(name, Object.keys(COMMANDS))
      throw new UsageError(
        `unknown command "${name}"` + (meant === undefined ? '' : `, did you mean ${meant}?`),
      )
    }
    const options = { ...GLOBAL, ...command.options }
    let parsed
    try {
      parsed = parseArgs({ args: [...argv], allowPositionals: true, options })
    } catch (e) {
      throw parseError(e as Error, Object.keys(options))
    }
    run = command.prepare(parsed.values as Values, parsed.positionals.slice(1))
  } catch (e) {
    io.err(`entistore: ${(e as Error).message}`)
    io.err(helpHint(command))
    return 2
  }
  try {
    return await run(io)
  } catch (e) {
    // The errors that say all there is in their message: a file, a missing package.
    if (e instanceof FileError || e instanceof MissingPackageError) {
      io.err(`entistore: ${(e as Error).message}`)
      return 1
    }
    io.err(`entistore: ${(e as Error).stack ?? String(e)}`)
    return 1
  }
}
