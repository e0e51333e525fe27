/**
 * @module The OpenAPI 3.1 description of a datastore's REST interface, generated from the model and
 * the functions the handler serves: `GET /rest/$openapi` (resources/openapi.ts) and
 * `entistore openapi`. Pure: no I/O, the same input gives the same document (docs/openapi.md).
 *
 * What it shows is what the model exposes to REST: exposed, public dataclasses and attributes
 * (core's `isPublic`, `isShownAttribute`, as `$catalog` and every reply decide), exposed
 * functions. `shows` narrows it further (the handler passes the session's `describe` and `execute`
 * permissions when a roles file or an `authorize` hook applies, as `$catalog` does).
 */
import {
  isPublic,
  isShownAttribute,
  type AttributeDef,
  type DataClassDef,
  type FunctionInfo,
  type FunctionKind,
  type FunctionRegistry,
  type SchemaDef,
} from '@entistore/core'
import { dataClassPaths, type Paths } from './dataclass-paths.js'
import { dataClassSchemas, type DataClassView } from './dataclass-schemas.js'
import { functionPaths, type FunctionContext } from './function-paths.js'
import { servicePaths } from './service-paths.js'
import { PARAMETERS, RESPONSES, SHARED_SCHEMAS } from './shared-schemas.js'
import type { Schema } from './value-schemas.js'

/** What the description is made from: a datastore's model and functions (a Datastore is one). */
export interface OpenApiSource {
  readonly schema: SchemaDef
  readonly functions: FunctionRegistry
}

/** What the description shows, beyond the model's exposure (each absent: everything exposed). */
export interface OpenApiShows {
  readonly dataClass?: (dc: DataClassDef) => boolean
  readonly attribute?: (dc: DataClassDef, attr: AttributeDef) => boolean
  readonly function?: (fn: FunctionInfo) => boolean
}

export interface OpenApiOptions {
  /** Where the interface is served. @default '/rest' */
  readonly basePath?: string
  /** The session cookie's name. @default `4DSID_<model name>` */
  readonly sessionCookieName?: string
  /** `info.version`: the version of the application the description is of. @default '1.0.0' */
  readonly version?: string
  /** The origin the client calls (`servers`). @default `/`: the origin the description came from */
  readonly server?: string
  readonly shows?: OpenApiShows
}

/** An OpenAPI 3.1 document, as JSON. */
export type OpenApiDocument = { readonly openapi: '3.1.0' } & Record<string, unknown>

/** The OpenAPI 3.1 description of `source`'s REST interface. */
export function openApiDocument(
  source: OpenApiSource,
  options: OpenApiOptions = {},
): OpenApiDocument {
  const { schema, functions } = source
  const base = (options.basePath ?? '/rest').replace(/\/+$/, '')
  const shows = options.shows ?? {}
  const dataClasses = schema.dataClasses.filter(
    (dc) => isPublic(dc) && (shows.dataClass?.(dc) ?? true),
  )
  const byName = new Map(dataClasses.map((dc) => [dc.name, dc]))
  const attributes = new Map(
    dataClasses.map((dc) => [
      dc,
      dc.attributes.filter(
        (a) => isShownAttribute(schema, a) && (shows.attribute?.(dc, a) ?? true),
      ),
    ]),
  )
  const fnShown = (fn: FunctionInfo): boolean => fn.exposed && (shows.function?.(fn) ?? true)
  const singletons = functions
    .singletonNames()
    .filter((name) => functions.list('singleton', name).some(fnShown))
  const ctx: FunctionContext & DataClassView = {
    base,
    shown: (name) => byName.get(name),
    attributes: (dc) => attributes.get(dc) ?? [],
    functions: (kind: FunctionKind, owner = '') =>
      // A dataclass's functions only where the description shows it.
      kind === 'dataStore' || kind === 'singleton' || byName.has(owner)
        ? functions.list(kind, owner).filter(fnShown)
        : [],
    dataClasses,
    singletons,
  }
  const schemas: Record<string, Schema> = { ...SHARED_SCHEMAS }
  const paths: Paths = servicePaths(
    base,
    dataClasses.map((dc) => dc.name),
  )
  for (const dc of dataClasses) {
    Object.assign(schemas, dataClassSchemas(ctx, dc))
    Object.assign(paths, dataClassPaths(ctx, dc))
  }
  Object.assign(paths, functionPaths(ctx))
  uniqueOperationIds(paths)
  const cookie = options.sessionCookieName ?? `4DSID_${schema.name}`
  return {
    openapi: '3.1.0',
    info: {
      title: `${schema.name}: REST interface`,
      version: options.version ?? '1.0.0',
      description: `4D's Entity Data REST interface (ORDA) over the \`${schema.name}\` model, served by Entistore. Generated from the model: the dataclasses, attributes and functions it exposes. Errors are \`{"__ERROR": [{"message", "componentSignature", "errCode"}]}\`.`,
    },
    // `/` is what OpenAPI reads when there are none, written out: linters ask for servers.
    servers: [{ url: options.server ?? '/' }],
    tags: [
      { name: 'catalog', description: 'What the datastore exposes' },
      { name: 'session', description: 'The session: login, logout, its user, what it keeps' },
      ...dataClasses.map((dc) => ({ name: dc.name, description: `The ${dc.name} dataclass` })),
      ...(ctx.functions('dataStore').length > 0
        ? [{ name: 'datastore', description: "The datastore's functions" }]
        : []),
      ...singletons.map((name) => ({
        name: `singleton ${name}`,
        description: `The shared singleton ${name}`,
      })),
      { name: 'files', description: 'Pictures and BLOBs sent as bytes' },
      { name: 'changes', description: 'The live feed of changes' },
    ],
    // A session is optional, unless the server is set to force a login (401 then).
    security: [{}, { session: [] }],
    paths,
    components: {
      ...referenced(paths, { schemas, parameters: PARAMETERS, responses: RESPONSES }),
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: cookie,
          description:
            'The session cookie, set by the first reply that opens a session (`POST $directory/login`, a `$lock`).',
        },
      },
    },
  }
}

/**
 * Makes every operationId unique: names joined with `_` may meet (a dataclass `A_b` and a relation
 * `b` of `A`); the later one gets a number.
 */
function uniqueOperationIds(paths: Paths): void {
  const seen = new Set<string>()
  for (const item of Object.values(paths))
    for (const [method, operation] of Object.entries(item)) {
      const id = operation.operationId as string
      let unique = id
      for (let n = 2; seen.has(unique); n++) unique = `${id}_${n}`
      seen.add(unique)
      if (unique !== id) item[method] = { ...operation, operationId: unique }
    }
}

type Components = Record<'schemas' | 'parameters' | 'responses', Readonly<Record<string, Schema>>>

/**
 * The components that `paths` reference, directly or through other components: the shared ones
 * are written for any model (a BLOB's deferred form, an error a status), and a model or a session's
 * view may use only some of them.
 */
function referenced(paths: Paths, all: Components): Components {
  const used = new Set<string>()
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit)
    else if (typeof value === 'object' && value !== null)
      for (const [key, inner] of Object.entries(value)) {
        if (key !== '$ref' || typeof inner !== 'string') visit(inner)
        else if (!used.has(inner)) {
          used.add(inner)
          const [, , kind, name] = inner.split('/') as [string, string, keyof Components, string]
          visit(all[kind]?.[name])
        }
      }
  }
  visit(paths)
  const keep = (kind: keyof Components) =>
    Object.fromEntries(
      Object.entries(all[kind]).filter(([name]) => used.has(`#/components/${kind}/${name}`)),
    )
  return { schemas: keep('schemas'), parameters: keep('parameters'), responses: keep('responses') }
}
