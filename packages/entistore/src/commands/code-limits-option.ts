/**
 * @module `entistore serve --code-limits name=value,…`, read: the bounds of a `--project`'s 4D
 * code (@entistore/4d's CodeLimits), each not named keeping its default. Read before anything
 * loads, so that a misspelt name or a bad number is a usage error, not a server that runs with
 * other bounds than its command line says.
 */
import type { CodeLimits } from '@entistore/4d'
import { UsageError } from './command.js'

const NAMES: readonly (keyof CodeLimits)[] = [
  'callDepth',
  'elements',
  'textLength',
  'blobBytes',
  'fileEntries',
  'regexMs',
]

/** `callDepth=500,regexMs=20` as bounds; undefined for no option. */
export function parseCodeLimits(text: string | undefined): Partial<CodeLimits> | undefined {
  if (text === undefined) return undefined
  const out: Partial<Record<keyof CodeLimits, number>> = {}
  for (const part of text.split(',')) {
    const item = part.trim()
    if (item === '') continue
    const eq = item.indexOf('=')
    const name = (eq < 0 ? item : item.slice(0, eq).trim()) as keyof CodeLimits
    if (!NAMES.includes(name))
      throw new UsageError(
        `--code-limits: "${name}" is not a bound (${NAMES.join(', ')}): name=value, separated by commas`,
      )
    const value = Number(
      eq < 0
        ? ''
        : item
            .slice(eq + 1)
            .trim()
            .replaceAll('_', ''),
    )
    if (!(Number.isSafeInteger(value) && value > 0))
      throw new UsageError(
        `--code-limits: ${name} must be a positive whole number, as ${name}=1000`,
      )
    out[name] = value
  }
  if (Object.keys(out).length === 0)
    throw new UsageError(`--code-limits needs name=value pairs, as callDepth=500,regexMs=20`)
  return out
}
