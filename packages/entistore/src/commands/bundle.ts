/**
 * @module `entistore bundle --project <folder> --out project.js`: a 4D project as one ES module for
 * `entistore/msw`'s `projectHandlers`, its front end served in a page with no server (issue 81).
 * The reading of its flags; outputs/project-bundle.ts writes it, imported when it runs.
 */
import { noMorePositionals, UsageError, type Command } from './command.js'

const HELP = `Usage:
  entistore bundle --project <folder> --out <project.js> [--data <data.json>|<csv folder>]
                   [--roles <roles.json>] [--components <folder>] [--watch]

Writes a 4D project as one ES module, read as serve --project reads it: its model, its class and
method files (compiled when a page opens the module), its roles, HTTP handlers and rules, and
its data. entistore/msw's
projectHandlers serves it to a page's fetch (setupWorker) or a test's (setupServer), the
project's class functions running there, with no server process (docs/in-the-browser.md). A
project.d.ts beside the module types it. What serve would say of the project is said on stderr.

Options:
  --project, -p  the 4D project folder (its Project folder, or the one that holds it)
  --out,  -o     the module to write (.js or .mjs); written again if it exists
  --data, -d     its data: a data file, or a folder of CSV files (as serve's); none: empty
  --roles        a roles file instead of the project's roles.json
  --components   a folder of downloaded 4D components for what dependencies.json names
  --watch, -w    write the module again whenever the code, the structure or the data change
  --help,  -h    this text

Examples:
  entistore bundle --project MyApp --data MyApp/csv --out src/mocks/project.js
  entistore bundle -p MyApp -o src/mocks/project.js --watch`

export const bundleCommand: Command = {
  name: 'bundle',
  summary: 'write a 4D project as one ES module, served in a page through MSW',
  help: HELP,
  options: {
    project: { type: 'string', short: 'p' },
    out: { type: 'string', short: 'o' },
    data: { type: 'string', short: 'd' },
    roles: { type: 'string' },
    components: { type: 'string', multiple: true },
    watch: { type: 'boolean', short: 'w' },
  },
  prepare(values, positionals) {
    noMorePositionals(positionals, 0)
    const project = values.project as string | undefined
    const out = values.out as string | undefined
    if (project === undefined) throw new UsageError('--project <folder> is required')
    if (out === undefined) throw new UsageError('--out <project.js> is required')
    if (!/\.m?js$/.test(out))
      throw new UsageError(`--out names an ES module (.js or .mjs), got "${out}"`)
    const options = {
      project,
      out,
      ...(values.data === undefined ? {} : { data: values.data as string }),
      ...(values.roles === undefined ? {} : { roles: values.roles as string }),
      ...(values.components === undefined
        ? {}
        : { components: values.components as unknown as string[] }),
      watch: values.watch === true,
    }
    return async (io) => {
      const { runBundleCommand } = await import('./bundle-run.js')
      return runBundleCommand(options, io)
    }
  },
}
