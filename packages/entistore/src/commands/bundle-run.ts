/**
 * @module `entistore bundle` run (commands/bundle.ts reads its flags): the module written once, or
 * with `--watch` again at each change, a change that does not load said and the last module kept.
 */
import type { CliIo } from './cli-io.js'
import { writeBundle, wroteLine, type BundleOptions } from '../outputs/project-bundle.js'

export interface BundleCommandOptions extends BundleOptions {
  readonly out: string
  readonly watch: boolean
}

export async function runBundleCommand(options: BundleCommandOptions, io: CliIo): Promise<number> {
  const once = async (): Promise<number> => {
    const made = await writeBundle(options, options.out)
    for (const note of made.notes) io.err(`entistore: ${note}`)
    io.out(wroteLine(options.out, made))
    return 0
  }
  if (!options.watch) return once()
  const { watchedSources } = await import('../project/project-files.js')
  const { whileWatching } = await import('./watch-loop.js')
  return whileWatching(
    {
      files: [
        ...watchedSources(options.project, options.roles),
        ...[options.roles, options.data].filter((f) => f !== undefined),
      ],
      run: once,
      ...(io.onWatchRun === undefined ? {} : { onRun: io.onWatchRun }),
      command: 'entistore bundle',
      watching: options.project,
      afterFileError: ` (${options.out} is left as it was)`,
    },
    io,
  )
}
