/**
 * @module The drivers only the cluster uses, `pg` (`--postgres`, joinCluster) and `ioredis`
 * (`--redis`, connectRedis), are optional peer dependencies of entistore: installed by whoever
 * uses them, and imported only when asked for, so that every other start-up neither needs them
 * nor loads them. Where one is missing, the error names it and the command that installs it.
 *
 * The loaders are given by the callers (`() => import('pg')`), so that this module's public
 * declarations name no driver's types: they compile for a user who installed neither.
 */

/** `error.code` of a MissingPackageError. */
export const MISSING_PACKAGE = 'ERR_ENTISTORE_MISSING_PACKAGE'

/** A package that a feature needs, and how to load it. */
export interface OptionalPackage<T = unknown> {
  /** The package's name: `pg`. */
  readonly name: string
  /** What needs it, as the user asked for it: `--postgres`, `joinCluster`. */
  readonly neededBy: string
  readonly load: () => Promise<T>
}

/**
 * An optional peer dependency is not installed. One line:
 * `--postgres needs the package pg: npm install pg`.
 */
export class MissingPackageError extends Error {
  override readonly name = 'MissingPackageError'
  readonly code = MISSING_PACKAGE
  /** The packages to install. */
  readonly packages: readonly string[]

  constructor(missing: readonly Omit<OptionalPackage, 'load'>[], options?: ErrorOptions) {
    const names = missing.map((m) => m.name)
    const one = missing.length === 1
    super(
      `${missing.map((m) => m.neededBy).join(' and ')} ${one ? 'needs the package' : 'need the packages'} ` +
        `${names.join(' and ')}: npm install ${names.join(' ')}`,
      options,
    )
    this.packages = names
  }
}

/** Loads `wanted`, or throws MissingPackageError if its package is not installed. */
export async function importOptional<T>(wanted: OptionalPackage<T>): Promise<T> {
  const [loaded] = await importOptionals([wanted])
  return loaded
}

/**
 * Loads each of `wanted`; if some are not installed, throws one MissingPackageError naming them
 * all, so that a command line asking for two is told both at once.
 */
export async function importOptionals<T extends readonly unknown[]>(wanted: {
  readonly [K in keyof T]: OptionalPackage<T[K]>
}): Promise<T> {
  const results = await Promise.allSettled(wanted.map((w) => w.load()))
  const missing = wanted.flatMap((w, i) => {
    const r = results[i]!
    return r.status === 'rejected' && isMissing(r.reason, w.name) ? [{ ...w, error: r.reason }] : []
  })
  if (missing.length > 0) throw new MissingPackageError(missing, { cause: missing[0]!.error })
  return results.map((r) => {
    if (r.status === 'rejected') throw r.reason
    return r.value
  }) as unknown as T
}

/**
 * Whether `error` says that the package `name` itself cannot be found (Node: "Cannot find package
 * 'pg' imported from …"), whether it was imported here or by a module imported here. A package
 * found whose own files or dependencies are missing is another problem, left as it is.
 */
function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    error instanceof Error &&
    new RegExp(`Cannot find (?:package|module) '${name}'`).test(error.message)
  )
}
