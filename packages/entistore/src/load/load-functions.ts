/**
 * @module Class functions from an ES module on disk: `entistore serve --functions <module>`, and the
 * `functions` option of loadDatastoreFiles and the fixtures when it is a path. The module's default
 * export is the definitions (`export default defineFunctions({…})`, or a plain object), or a
 * function that receives `{ model }` and returns them (one module for several models).
 *
 * The module is imported with `import(fileURL)`, so Node decides what it can run: JavaScript
 * (`.js`, `.mjs`) always, TypeScript only on a Node that strips types (22.18 and later). Every
 * failure names the file, as FileError: one that does not exist, does not import, has no default
 * export, or whose definitions the datastore refuses (InvalidFunctions, 9104).
 */
import { stat } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  DatastoreError,
  type Datastore,
  type FunctionInfo,
  type FunctionsDef,
  type ModelSource,
} from '@entistore/core'
import { FileError } from '../files/file-error.js'

/** What the library options take: the definitions, or the path of a module that exports them. */
// `any`: the definitions of a typed model (`defineFunctions<Model>`) are accepted as they are.
export type FunctionsSource = FunctionsDef<any> | string

/** What a function exported by default by a functions module receives. */
export interface FunctionsContext {
  /** The model served: the parsed model file (catalog JSON), or the model object a fixture got. */
  readonly model: ModelSource
}

/** The default export of a functions module. */
export type FunctionsModule =
  | FunctionsDef<any>
  | ((context: FunctionsContext) => FunctionsDef<any> | Promise<FunctionsDef<any>>)

export interface ImportFunctionsOptions {
  /** The model the functions are for, handed to a default export that is a function. */
  readonly model: ModelSource
  /**
   * Imports this version of the module (`?v=N` on its URL) rather than the one Node cached: a
   * version not imported before runs the file as it is now. Every version stays in memory. The
   * CLI's `--watch` counts up when the file changes. @default 0, the module as Node cached it
   */
  readonly version?: number
}

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts'])
// What Node says when it cannot run a TypeScript file: no type stripping (Node 20, 22 before
// 22.18 without the flag), syntax that stripping cannot erase (enums), a .ts under node_modules.
const TYPESCRIPT_CODES = new Set([
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
  'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING',
  'ERR_INVALID_TYPESCRIPT_SYNTAX',
])
// Files Node imports, but not as a module of code (JSON, WebAssembly), or not at all.
const NOT_JAVASCRIPT_CODES = new Set([
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_IMPORT_ATTRIBUTE_MISSING',
  'ERR_IMPORT_ASSERTION_TYPE_MISSING',
  'ERR_UNKNOWN_MODULE_FORMAT',
])

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Imports the functions module `file` (relative to the current directory) and returns its
 * definitions, calling its default export with `{ model }` when it is a function.
 * @throws FileError naming the file
 */
export async function importFunctions(
  file: string,
  options: ImportFunctionsOptions,
): Promise<FunctionsDef<any>> {
  const path = resolve(file)
  try {
    if ((await stat(path)).isDirectory())
      throw new FileError(file, 'the functions path is a directory, not a file')
  } catch (e) {
    if (e instanceof FileError) throw e
    const code = (e as NodeJS.ErrnoException).code
    throw new FileError(
      file,
      code === 'ENOENT'
        ? 'the functions module does not exist'
        : `cannot read the functions module (${code ?? String(e)})`,
      { cause: e },
    )
  }
  const version = options.version ?? 0
  const url = pathToFileURL(path).href + (version > 0 ? `?v=${version}` : '')
  let namespace: Record<string, unknown>
  try {
    namespace = (await import(url)) as Record<string, unknown>
  } catch (e) {
    throw importError(file, path, e)
  }
  const exported = namespace.default
  if (exported === undefined)
    throw new FileError(
      file,
      'the functions module has no default export: `export default defineFunctions({ … })`, ' +
        'or a function ({ model }) => definitions',
    )
  let defs: unknown = exported
  if (typeof exported === 'function') {
    try {
      defs = await (exported as (context: FunctionsContext) => unknown)({ model: options.model })
    } catch (e) {
      throw new FileError(
        file,
        `the default export of the functions module failed: ${(e as Error)?.message ?? String(e)}`,
        { cause: e },
      )
    }
  }
  if (!isRecord(defs))
    throw new FileError(
      file,
      `the default export of the functions module must be the definitions ` +
        `{ dataStore, dataClasses, singletons } or a function that returns them, not ${shown(defs)}`,
    )
  return defs as FunctionsDef<any>
}

const shown = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : `${typeof v} ${String(v).slice(0, 40)}`

/** Why `import()` of a functions module failed, said plainly and naming the file. */
function importError(file: string, path: string, e: unknown): FileError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code
  const message = (e as Error | undefined)?.message ?? String(e)
  const ext = extname(path).toLowerCase()
  if (TYPESCRIPT.has(ext) && code !== undefined && TYPESCRIPT_CODES.has(code)) {
    const reason =
      code === 'ERR_UNKNOWN_FILE_EXTENSION'
        ? `this Node (${process.version}) does not run TypeScript`
        : message
    return new FileError(
      file,
      `cannot import a TypeScript functions module: ${reason}; compile it to JavaScript (npx tsc, docs/functions.md: TypeScript on Node 20) and pass the .js, or use a Node that strips types (22.18 or later)`,
      { cause: e },
    )
  }
  if (code !== undefined && NOT_JAVASCRIPT_CODES.has(code))
    return new FileError(
      file,
      `the functions module is not a JavaScript module (${message}): use .js or .mjs`,
      { cause: e },
    )
  if (e instanceof SyntaxError) {
    // Node gives the place in the stack's first line (`/path/functions.js:3`), the column as the
    // caret under the source line.
    const lines = e.stack?.split('\n') ?? []
    const line = lines[0]?.startsWith(`${path}:`) ? Number(lines[0].slice(path.length + 1)) : NaN
    const caret = lines[2]?.indexOf('^') ?? -1
    return new FileError(file, `the functions module is not valid JavaScript: ${message}`, {
      cause: e,
      ...(Number.isInteger(line) && line > 0
        ? { line, ...(caret >= 0 ? { column: caret + 1 } : {}) }
        : {}),
    })
  }
  return new FileError(file, `the functions module cannot be imported: ${message}`, { cause: e })
}

/**
 * Whether `e` refuses the application's function definitions (InvalidFunctions), rather than
 * what a model declares (those name `model:`).
 */
export function refusesDefinitions(e: unknown): e is DatastoreError {
  return (
    DatastoreError.is(e) &&
    e.name === 'InvalidFunctions' &&
    !e.message.startsWith('Invalid functions: model')
  )
}

/** The functions of a datastore, by what they are: listed as `appInfo`, `Employee.raise`, `Stats.status`. */
export interface FunctionsSummary {
  /** Callable through REST. */
  readonly exposed: readonly string[]
  /** Defined, but only for code to call (not exposed). */
  readonly private: readonly string[]
  /** Declared by the model (a saved catalog's `methods`) with no code given. */
  readonly declared: readonly string[]
}

/** The functions of `ds`: the datastore's, each dataclass's (in model order), the singletons'. */
export function summarizeFunctions(ds: Datastore): FunctionsSummary {
  const all: FunctionInfo[] = [...ds.functions.list('dataStore')]
  for (const dc of ds.dataClasses)
    for (const kind of ['dataClass', 'entity', 'entitySelection'] as const)
      all.push(...ds.functions.list(kind, dc.name))
  for (const name of ds.functions.singletonNames())
    all.push(...ds.functions.list('singleton', name))
  const named = (fn: FunctionInfo): string =>
    fn.kind === 'dataStore' ? fn.name : `${fn.owner}.${fn.name}`
  return {
    exposed: all.filter((fn) => fn.impl !== undefined && fn.exposed).map(named),
    private: all.filter((fn) => fn.impl !== undefined && !fn.exposed).map(named),
    declared: all.filter((fn) => fn.impl === undefined).map(named),
  }
}

/**
 * `5 exposed (appInfo, Employee.highEarners, …), 1 private (Stats.count)`: what the CLI prints
 * after `Functions from <file>:`.
 */
export function describeFunctions(summary: FunctionsSummary): string {
  const group = (names: readonly string[], what: string): string | undefined =>
    names.length === 0 ? undefined : `${names.length} ${what} (${names.join(', ')})`
  const parts = [
    group(summary.exposed, 'exposed'),
    group(summary.private, 'private'),
    group(summary.declared, 'declared by the model without code'),
  ].filter((p) => p !== undefined)
  return parts.length === 0 ? 'none defined' : parts.join(', ')
}
