/**
 * @module `entistore check --project <folder>`: a project checked before it is served, through the
 * start-up `serve` takes, and its 4D code as 4D's syntax check would. The reading of its flags;
 * check-project.ts runs it.
 */
import type { CheckFormat } from './check-project.js'
import { noMorePositionals, read, UsageError, type Command } from './command.js'

const FORMATS: readonly CheckFormat[] = ['text', 'json', 'github', 'sarif']

const HELP = `Usage:
  entistore check --project <folder> [--components <folder>] [--format text|json|github|sarif]

Takes the start-up serve --project takes, without a port: what would stop serve is an error, what
serve would say it does not serve as 4D does a warning, at the line of the file that caused it.
Then parses and compiles every class and method file (Project/Sources/Classes and
Project/Sources/Methods; or a folder of class files, without a structure yet) and prints one line
a problem, file:line:column: message: the lines that do not parse, the commands, constants and
constructs that parse but cannot run here (by name), and the warnings; then the code it does not
check (forms, database methods, triggers, components) and a summary. Exits 1 when serve would not
start or some code would fail when it runs, 0 otherwise (docs/cli.md).

Options:
  --project, -p  the 4D project folder (its Project folder, the one that holds it, or a folder of class files)
  --components   a folder of downloaded 4D components for what dependencies.json names (as serve's)
  --format       text (the default: one line a problem), json ({ "startup": [...], "files": [{ "file",
                 "syntaxErrors": [...], "notRunnable": [...] }], "unchecked": [...] }), github (an
                 Actions annotation a problem, on its line of the pull request) or sarif (a SARIF
                 2.1.0 log for code scanning)
  --json         the same as --format json
  --help,  -h    this text

Examples:
  entistore check --project examples/car-rental
  entistore check --project MyApp --format sarif > entistore.sarif`

export const checkCommand: Command = {
  name: 'check',
  summary: 'check a 4D project: what would stop serve, what does not parse or cannot run here',
  help: HELP,
  options: {
    project: { type: 'string', short: 'p' },
    json: { type: 'boolean' },
    format: { type: 'string' },
    components: { type: 'string', multiple: true },
  },
  prepare(values, positionals) {
    noMorePositionals(positionals, 0)
    if (values.project === undefined) throw new UsageError('--project <folder> is required')
    const format = read(
      values.format,
      (t) => (FORMATS.includes(t as CheckFormat) ? (t as CheckFormat) : undefined),
      `--format must be one of ${FORMATS.join(', ')}`,
    )
    if (values.json === true && format !== undefined && format !== 'json')
      throw new UsageError(`--json and --format ${format} cannot go together`)
    const options = {
      project: values.project as string,
      format: values.json === true ? ('json' as const) : (format ?? 'text'),
      components: (values.components as string[] | undefined) ?? [],
    }
    return async (io) => {
      const { runCheckCommand } = await import('./check-project.js')
      return runCheckCommand(options, io)
    }
  },
}
