/**
 * @module A 4D project bundled by `entistore bundle --project` (issue 81) opened as a datastore,
 * with nothing of Node's: in a page, a service worker's client, or a test. The bundle holds what
 * `serve --project` reads from the folder, already read and checked: the model (the structure's,
 * with the class files' functions and computed attributes), the code's source texts, the roles and
 * the data. Here the code is compiled (the 4D language loaded then, as a chunk of its own that only
 * a project loads) and its class functions, events and restricts made the datastore's, by the
 * same path `serve` takes (project/code-functions.ts, restrict-events.ts).
 *
 * A page has no project folder, no outgoing mail, no programs to launch: `File` and `Folder`,
 * `HTTP Request`, `SMTPTransporter.send()` and `LAUNCH EXTERNAL PROCESS` raise their 4D errors
 * when reached, as on a server whose options allow none.
 */
import {
  createDatastore,
  Roles,
  type Clock,
  type DataFile,
  type DatastoreWith,
  type ModelJson,
  type RolesJson,
} from '@entistore/core'
import type { CodeLimits, EventLog, ProjectSource } from '@entistore/4d/portable'
import type { HttpHandlerDef, HttpRuleDef } from '@entistore/rest'
import { codeFunctions } from '../project/code-functions.js'
import { Notes } from '../project/notes.js'
import { closeRestricted, type RestrictEvent } from '../project/restrict-events.js'

/** The format of a bundle this version writes and reads. */
export const BUNDLE_FORMAT = 'entistore-project/1'

/** What `entistore bundle --project` writes (the default export of its module). */
export interface BundledProject {
  readonly format: typeof BUNDLE_FORMAT
  /** The project's folder as the command was given it, for messages. */
  readonly project: string
  /** The model `serve --project` serves: the structure's, with the class files' members. */
  readonly model: ModelJson
  /** The class and method files (`Sources/Classes/Car.4dm`), as text. */
  readonly sources: readonly ProjectSource[]
  /** The calculated attributes a class file's `Function get` computes (`Car.label`). */
  readonly computed: readonly string[]
  /** The class functions the model left out (`Car.model`: named like an attribute). */
  readonly shadowed: readonly string[]
  /** The DataClass classes' `Function event restrict` declarations. */
  readonly restricts: readonly RestrictEvent[]
  /** The project's roles.json (or the one the command was given); none: everything open. */
  readonly roles?: RolesJson
  /** The data, as a data file holds it; none: empty. */
  readonly data?: DataFile
  /** The HTTP request handlers of its `HTTPHandlers.json`, which its classes answer. */
  readonly handlers?: readonly HttpHandlerDef[]
  /** The HTTP rules of its `HTTPRules.json`. */
  readonly rules?: readonly HttpRuleDef[]
}

export interface OpenProjectOptions {
  /** Where time comes from. @default the system clock */
  readonly clock?: Clock
  /** Where `LOG EVENT` writes. @default the console: `info`, `warn` or `error` by importance */
  readonly log?: EventLog
  /** Told what of the code is left out (an event of an attribute the dataclass lacks). */
  readonly onNote?: (note: string) => void
  /** The bounds of the code's sizes and call depth, each not given the default's. */
  readonly codeLimits?: Partial<CodeLimits>
}

const CONSOLE = {
  information: (line: string) => console.info(line),
  warning: (line: string) => console.warn(line),
  error: (line: string) => console.error(line),
} as const

/** Whether `value` is a bundle this version reads (the default export of a bundled module). */
export function isBundledProject(value: unknown): value is BundledProject {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { format?: unknown }).format === 'string' &&
    (value as { format: string }).format.startsWith('entistore-project/')
  )
}

/**
 * The datastore of a bundled project: its model, data and roles, its 4D code compiled and run as
 * `serve --project` runs it.
 * @throws TypeError for a module that is no bundle, or one another version of Entistore wrote
 */
export async function openProject(
  bundle: BundledProject,
  options: OpenProjectOptions = {},
): Promise<DatastoreWith<string>> {
  if (!isBundledProject(bundle))
    throw new TypeError(
      'openProject: not a bundled project (entistore bundle --project writes one)',
    )
  if (bundle.format !== BUNDLE_FORMAT)
    throw new TypeError(
      `openProject: the bundle's format is ${bundle.format}; this version reads ${BUNDLE_FORMAT}: bundle the project again`,
    )
  const fourD = await import('@entistore/4d/portable')
  const { model } = bundle
  const code = fourD.compileProject(bundle.sources, {
    dataClasses: model.dataClasses.map((dc) => dc.name),
    name: model.__NAME,
  })
  const notes = new Notes()
  const log: EventLog =
    options.log ?? ((importance, message) => CONSOLE[importance](`LOG EVENT: ${message}`))
  const { functions } = await codeFunctions(
    { code, shadowed: new Set(bundle.shadowed) },
    model.dataClasses,
    bundle.computed,
    { log, ...(options.codeLimits === undefined ? {} : { limits: options.codeLimits }) },
    notes,
  )
  for (const note of notes.lines()) options.onNote?.(note)
  return createDatastore(model, {
    functions:
      bundle.restricts.length === 0
        ? functions
        : closeRestricted(functions, bundle.restricts, '', options.onNote),
    ...(bundle.roles === undefined ? {} : { roles: new Roles(bundle.roles) }),
    ...(bundle.data === undefined ? {} : { data: bundle.data }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  })
}
