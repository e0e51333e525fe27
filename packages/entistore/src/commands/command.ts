/**
 * @module What every command of the `entistore` CLI is made of, and the helpers that read its flags.
 *
 * A command is split in two on purpose: its *reading* (options, help text, `prepare`) is in a
 * small module the dispatcher imports at start, and its *running* is in another module that
 * `prepare`'s runner imports when it runs. So `entistore --version`, `--help` and every usage
 * error are answered without loading the engine (the whole of @entistore/core and rest), which
 * is most of a start's time.
 */
import type { ParseArgsConfig } from 'node:util'
import type { ModelSource } from '../outputs/model-source.js'
import type { CliIo } from './cli-io.js'

export type Options = NonNullable<ParseArgsConfig['options']>
export type Values = Record<string, string | boolean | undefined>

/** A mistake in the command line: said in one line, with where to read the options; exit code 2. */
export class UsageError extends Error {}

/** One command of the CLI: what `--help` says of it, its options, how its arguments are read. */
export interface Command {
  /** `serve` */
  readonly name: string
  /** One line for the overview of `entistore --help`. */
  readonly summary: string
  /** The text of `entistore <name> --help`: its usage lines, options and examples. */
  readonly help: string
  readonly options: Options
  /**
   * Options that may be given alone, and the value they then take: `{ cors: '*' }` reads `--cors`
   * at the end of the line or before another option as `--cors=*`.
   */
  readonly bareValues?: Readonly<Record<string, string>>
  /**
   * Reads the values and positionals (throwing UsageError), returning what to run. The runner
   * imports what the command needs, so that reading loads nothing heavy.
   */
  readonly prepare: (
    values: Values,
    positionals: readonly string[],
  ) => (io: CliIo) => Promise<number>
}

export function noMorePositionals(positionals: readonly string[], expected: number): void {
  if (positionals.length > expected)
    throw new UsageError(`unexpected argument "${positionals[expected]}"`)
}

/** `parse(text)`, or a usage error `message, got "text"`; undefined when the option is absent. */
export function read<T>(
  text: string | boolean | undefined,
  parse: (text: string) => T | undefined,
  message: string,
): T | undefined {
  if (typeof text !== 'string') return undefined
  const value = parse(text)
  if (value === undefined) throw new UsageError(`${message}, got "${text}"`)
  return value
}

/** A reader of decimal integers from `min` to `max`: undefined for anything else. */
export const integerIn =
  (min: number, max: number) =>
  (text: string): number | undefined =>
    /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined

// setTimeout holds at most 2^31 - 1 ms (24.8 days); past it, it fires at once.
export const MAX_TIMER_MS = 2 ** 31 - 1
export const parseMilliseconds = integerIn(0, MAX_TIMER_MS)

/**
 * `argv` with each option of `bare` that is given alone (last, or before another option) given
 * its value: node's parseArgs has no option whose value is optional.
 */
export function withBareValues(
  argv: readonly string[],
  bare: Readonly<Record<string, string>>,
): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') return [...out, ...argv.slice(i)]
    const value = arg.startsWith('--') ? bare[arg.slice(2)] : undefined
    const next = argv[i + 1]
    out.push(
      value !== undefined && (next === undefined || next.startsWith('-')) ? `${arg}=${value}` : arg,
    )
  }
  return out
}

/**
 * The `--model` or `--project` of `values` (a command that takes either, as `serve` does): one of
 * them is required, and not both.
 */
export function modelSource(values: Values): ModelSource {
  const { model, project } = values
  if (typeof model === 'string' && typeof project === 'string')
    throw new UsageError('--model and --project cannot go together: the project is the model')
  if (typeof project === 'string') return { project }
  if (typeof model !== 'string') throw new UsageError('--model or --project <folder> is required')
  return { model }
}

/** The text `--help` gives `--project` in the commands that take it instead of `--model`. */
export const PROJECT_HELP = `  --project     a 4D project folder (its Project folder, or the one that holds it) instead of
                --model: its structure and class files, as serve --project reads them`
