/**
 * @module 4D code as the 4d-language suite runs it: `@entistore/4d` as `entistore serve` runs it,
 * its dist (tsc's output), and a method compiled once, called on a new Runtime each time with a
 * budget of a minute, as a request runs a function.
 *
 * Not its sources through tsx: tsx compiles with esbuild's keepNames, which wraps every closure
 * the runtime and the bridge make in a defineProperty (≈1.4× on the ORDA loop). The dist imports
 * `@entistore/core` as the bench does (the same module: the TypeScript side runs on the same
 * engine).
 */
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { EmitOptions, RuntimeOptions } from '@entistore/4d'
import { systemClock } from '@entistore/core'
import type { Collection } from '../packages/4d/src/runtime/values/collection.ts'
import { ensurePackagesBuilt } from './engine.ts'

export type FourD = typeof import('@entistore/4d') & { readonly Collection: typeof Collection }

const dist = join(fileURLToPath(new URL('..', import.meta.url)), 'packages/4d/dist')

/** `@entistore/4d`'s dist, built first when a source is newer (`npm run build`). */
export async function loadFourD(): Promise<{ fd: FourD; build: string }> {
  const build = ensurePackagesBuilt('auto')
  const [pkg, values] = await Promise.all([
    import(pathToFileURL(join(dist, 'index.js')).href) as Promise<typeof import('@entistore/4d')>,
    import(pathToFileURL(join(dist, 'runtime/values/collection.js')).href) as Promise<{
      Collection: typeof Collection
    }>,
  ])
  return { fd: { ...pkg, Collection: values.Collection }, build }
}

/** A 4D method compiled once, called with `args` on a new Runtime each time (as a request does). */
export function fourD(
  fd: FourD,
  text: string,
  args: () => unknown[],
  options: { readonly emit?: Partial<EmitOptions>; readonly runtime?: RuntimeOptions } = {},
): () => number {
  const method = fd.compileMethod(text, { emit: options.emit })
  if (method.problems.some((p) => p.severity === 'error'))
    throw new Error(`4D code does not compile: ${JSON.stringify(method.problems)}`)
  return () =>
    method.call(
      new fd.Runtime({ budget: fd.budgetOf(60_000, systemClock), ...options.runtime }),
      args(),
    ) as number
}
