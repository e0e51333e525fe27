/**
 * @module `entistore check --project <folder>`: the 4D code of a project checked as 4D's syntax
 * check would, before it is served. The reading of its flags; check-project.ts runs it.
 */
import { noMorePositionals, UsageError, type Command } from './command.js'

const HELP = `Usage:
  entistore check --project <folder> [--json]

Parses and compiles every class and method file of a 4D project (Project/Sources/Classes and
Project/Sources/Methods; or a folder of class files, without a structure yet) and prints one line
a problem, file:line:column: message, then a summary: the lines that do not parse, the commands,
constants and constructs that parse but cannot run here (by name), and the warnings. Exits 1 when
some code would fail when it runs, 0 otherwise (docs/4d-language.md).

Options:
  --project, -p  the 4D project folder (its Project folder, the one that holds it, or a folder of class files)
  --json         print { "files": [{ "file", "syntaxErrors": [{ "line", "column", "message" }], "notRunnable": [{ "line", "column", "name" }] }] }
  --help,  -h    this text

Example:
  entistore check --project examples/car-rental`

export const checkCommand: Command = {
  name: 'check',
  summary: "check a 4D project's code: what does not parse or cannot run here",
  help: HELP,
  options: {
    project: { type: 'string', short: 'p' },
    json: { type: 'boolean' },
  },
  prepare(values, positionals) {
    noMorePositionals(positionals, 0)
    if (values.project === undefined) throw new UsageError('--project <folder> is required')
    const options = { project: values.project as string, json: values.json === true }
    return async (io) => {
      const { runCheckCommand } = await import('./check-project.js')
      return runCheckCommand(options, io)
    }
  },
}
