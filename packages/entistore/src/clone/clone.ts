/**
 * @module `entistore clone <url> --out <dir>`: a running server (a real 4D or Qodly one, or
 * Entistore) saved as a model file and a data file that `entistore serve` loads back — a local
 * fixture of a real server.
 *
 * The model is the server's `$catalog/$all`, which is already the model format: only what belongs
 * to that server (its URIs, `__UNIQID`) is left out. The data is read dataclass by dataclass through
 * an entity set (`$method=entityset`, then `$skip`/`$top` pages on `$entityset/{id}`), so that the
 * pages are slices of one fixed selection even while others write, and the set is released at the
 * end. Each entity keeps its `__STAMP` and `__TIMESTAMP`; its storage values are written as they
 * are, pictures and BLOBs fetched from their URIs (with the URI's `$version`), relations as the
 * related key. Computed values
 * (calculated attributes, aliases) and to-many relations are left out: they follow from the rest.
 *
 * Each page goes straight into the streaming load of the copy (`beginLoad`, one commit at the end),
 * as a data file read as a stream does: the rows are checked and kept in the load's columns page by
 * page, never all alive as parsed objects (kept so, 1M short rows took 559 MB of RSS, 10M would
 * not fit in the heap), and that load is the check that what `clone` writes, `serve` loads, or
 * `clone` says why not (a refused row ends it at its page). The data file is the copy's rows,
 * written as `--save` writes them: a slice at a time, never as one string (save.ts).
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import {
  DatastoreError,
  openStoreView,
  parseDate,
  type Datastore,
  type ModelJson,
} from '@entistore/core'
import { writeDataFile, writeFileAtomic } from '../persist/save.js'
import { createDatastore } from '../persist/create-datastore.js'

/** A clone that cannot be done: the server, the network or the answer is the problem. */
export class CloneError extends Error {
  override readonly name = 'CloneError'
}

export interface CloneOptions {
  /** The server: `http://host:port`, or any URL below its `/rest` (`…/rest/$catalog`). */
  readonly url: string
  /** The folder to write `model.json` and `data.json` to; created if needed. */
  readonly out: string
  /** Log in first (`$directory/login`) as this user. */
  readonly user?: string
  readonly password?: string
  /** Entities read per request. @default 1000 */
  readonly pageSize?: number
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch
}

export interface CloneResult {
  readonly name: string
  /** The REST root read: `http://host:port/rest`. */
  readonly base: string
  readonly counts: Readonly<Record<string, number>>
  readonly model: ModelJson
  /** The datastore the copy was loaded into: the data file holds its rows. */
  readonly copy: Datastore
  readonly modelFile: string
  readonly dataFile: string
}

/** `http://host:port/rest` from a URL of the server, its REST root or anything below it. */
export function restBase(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new CloneError(`"${url}" is not a URL: give the server's, as http://host:port`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new CloneError(`"${url}" is not an http or https URL`)
  const path = parsed.pathname
  const at = path.search(/\/rest(\/|$)/)
  const prefix = at >= 0 ? path.slice(0, at) : path.replace(/\/+$/, '')
  return `${parsed.origin}${prefix}/rest`
}

interface CatalogAttribute {
  readonly name: string
  readonly kind?: string
  readonly type?: string
  /** relatedEntity: the target dataclass. */
  readonly path?: string
  readonly foreignKey?: string
}
interface CatalogDataClass {
  readonly name: string
  readonly attributes: readonly CatalogAttribute[]
  readonly key?: readonly { readonly name: string }[]
  readonly [field: string]: unknown
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The model file of a `$catalog/$all` answer: the catalog less what describes the server rather
 * than the model (`__UNIQID`, `__BASEID`, `properties`, each dataclass's `dataURI`).
 */
export function modelFromCatalog(catalog: Record<string, unknown>): ModelJson {
  const dataClasses = (catalog.dataClasses as Record<string, unknown>[]).map((dc) => {
    const { dataURI: _uri, ...rest } = dc
    return rest
  })
  return {
    ...(typeof catalog.__NAME === 'string' ? { __NAME: catalog.__NAME } : {}),
    ...(Array.isArray(catalog.methods) && catalog.methods.length > 0
      ? { methods: catalog.methods }
      : {}),
    dataClasses,
  } as unknown as ModelJson
}

/** A client of one server: keeps its cookies (the session), names each failure clearly. */
class Client {
  readonly #cookies = new Map<string, string>()
  constructor(
    readonly base: string,
    readonly fetch: typeof globalThis.fetch,
  ) {}

  /** `path` below the REST root (`/$catalog/$all`), or an absolute URL as is. */
  url(path: string): string {
    return /^https?:/.test(path) ? path : `${this.base}${path}`
  }

  /** A URI the server wrote (`/rest/Company/$entityset/…`): from the server's root. */
  fromServer(uri: string): string {
    return new URL(uri, this.base).href
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const url = this.url(path)
    const headers = new Headers(init.headers)
    if (this.#cookies.size > 0)
      headers.set('cookie', [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    let res: Response
    try {
      res = await this.fetch(url, { ...init, headers, signal: AbortSignal.timeout(120_000) })
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause
      throw new CloneError(
        `cannot reach ${url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
      )
    }
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      if (eq > 0) this.#cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim())
    }
    return res
  }

  /** The JSON answer of a GET (or `init`), or a CloneError saying what came instead. */
  async json(path: string, init?: RequestInit): Promise<unknown> {
    const res = await this.request(path, init)
    const text = await res.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    if (!res.ok) {
      const first = isRecord(body) && Array.isArray(body.__ERROR) ? body.__ERROR[0] : undefined
      const why = isRecord(first)
        ? `${String(first.message)} (errCode ${String(first.errCode)})`
        : `${text.slice(0, 200)}`
      throw new CloneError(
        `${init?.method ?? 'GET'} ${this.url(path)} answered ${res.status}: ${why}` +
          (res.status === 401 ? ' — pass --user and --password if the server needs a login' : ''),
      )
    }
    if (body === undefined)
      throw new CloneError(
        `${this.url(path)} did not answer JSON (${res.headers.get('content-type') ?? 'no content type'}): is it a 4D REST server?`,
      )
    return body
  }
}

/** Clones the server at `options.url` into `options.out`. */
export async function clone(options: CloneOptions): Promise<CloneResult> {
  const client = new Client(restBase(options.url), options.fetch ?? globalThis.fetch)
  if (options.user !== undefined) await login(client, options.user, options.password ?? '')
  const catalog = await client.json('/$catalog/$all')
  if (!isRecord(catalog) || !Array.isArray(catalog.dataClasses))
    throw new CloneError(
      `${client.url('/$catalog/$all')} is not a 4D catalog (no "dataClasses"): is it a 4D REST server?`,
    )
  const model = modelFromCatalog(catalog)
  // Made before anything is read, so that a model serve would refuse is reported at once.
  const copy = loading(client, () => createDatastore(model))
  const load = copy.beginLoad()
  const counts: Record<string, number> = {}
  const classes = model.dataClasses as unknown as CatalogDataClass[]
  for (const dc of classes)
    counts[dc.name] = await readDataClass(client, dc, options.pageSize ?? 1000, (rows) =>
      loading(client, () => load.add(dc.name, rows)),
    )
  // The references to rows that never came are found here; the file written is the loaded copy's
  // dump, in the form --save writes (related keys of their target's key type, as the loader read
  // them from the wire's `__deferred`).
  loading(client, () => load.commit())
  const { modelFile, dataFile } = await writeCopy(options.out, model, copy)
  return {
    name: model.__NAME ?? 'entistore',
    base: client.base,
    counts,
    model,
    copy,
    modelFile,
    dataFile,
  }
}

/**
 * Writes `model` and the rows of `copy` as `model.json` and `data.json` in `out` (created if
 * needed): the files `serve --model --data` loads.
 */
export async function writeCopy(
  out: string,
  model: ModelJson,
  copy: Datastore,
): Promise<{ modelFile: string; dataFile: string }> {
  await mkdir(out, { recursive: true })
  const modelFile = join(out, 'model.json')
  const dataFile = join(out, 'data.json')
  await writeFileAtomic(modelFile, `${JSON.stringify(model, null, 2)}\n`)
  const view = openStoreView(copy)
  try {
    await writeDataFile(dataFile, view)
  } finally {
    view.release()
  }
  return { modelFile, dataFile }
}

/** `step` of loading the copy, a refusal said as the copy of the server that would not load. */
function loading<T>(client: Client, step: () => T): T {
  try {
    return step()
  } catch (e) {
    if (!DatastoreError.is(e)) throw e
    throw new CloneError(`the copy of ${client.base} would not load: ${e.message}`)
  }
}

async function login(client: Client, user: string, password: string): Promise<void> {
  const answer = await client.json('/$directory/login', {
    method: 'POST',
    headers: { 'username-4D': user, 'password-4D': password },
  })
  if (!isRecord(answer) || answer.result !== true)
    throw new CloneError(`the server refused the login of "${user}"`)
}

interface Page {
  readonly __ENTITYSET?: string
  readonly __COUNT?: number
  readonly __ENTITIES?: readonly Record<string, unknown>[]
}

/**
 * Reads every entity of `dc`, paged through one entity set, and gives each page's rows to `take`
 * as it comes (a page's entities are garbage once taken); resolves with the rows taken. The next
 * page is asked for while the current one is turned into rows: the server writes one while this
 * process reads the other, and still answers one page at a time.
 */
async function readDataClass(
  client: Client,
  dc: CatalogDataClass,
  pageSize: number,
  take: (rows: object[]) => void,
): Promise<number> {
  const path = `/${encodeURIComponent(dc.name)}`
  const first = (await client.json(
    `${path}?$method=entityset&$timeout=3600&$top=${pageSize}`,
  )) as Page
  if (!isRecord(first) || !Array.isArray(first.__ENTITIES) || typeof first.__COUNT !== 'number')
    throw new CloneError(`${client.url(path)} did not answer an entity selection`)
  const set = first.__ENTITYSET
  if (typeof set !== 'string')
    throw new CloneError(`${client.url(path)}?$method=entityset did not answer an entity set`)
  const count = first.__COUNT
  const reader = new RowReader(client, dc)
  let next: Promise<unknown> | undefined
  let taken = 0
  try {
    let page = first.__ENTITIES
    for (let read = 0; ;) {
      read += page.length
      // An empty page before the count ends the loop too: a server that ends early is not waited on.
      next =
        read < count && page.length > 0
          ? client.json(`${client.fromServer(set)}?$skip=${read}&$top=${pageSize}`)
          : undefined
      // Awaited below, or in `finally` when this page fails: never an unhandled rejection.
      next?.catch(() => {})
      const rows = await reader.rows(page)
      take(rows)
      taken += rows.length
      if (next === undefined) break
      const answer = await next
      page = isRecord(answer) && Array.isArray(answer.__ENTITIES) ? answer.__ENTITIES : []
    }
  } finally {
    // A page still asked for is waited on first, so that the release comes after it.
    await next?.catch(() => {})
    // The set would expire anyway; releasing it frees the server now. A failure here changes nothing.
    await client
      .request(`${client.fromServer(set)}?$method=release`)
      .then((r) => r.body?.cancel())
      .catch(() => {})
  }
  return taken
}

/** Turns the entities of one dataclass, as a REST read shows them, into data file rows. */
class RowReader {
  readonly #client: Client
  readonly #dc: CatalogDataClass
  /** The attributes written as they are read (storage values, relations as keys). */
  readonly #plain: readonly CatalogAttribute[]
  /** The pictures and BLOBs, each fetched from its URI. */
  readonly #binaries: readonly CatalogAttribute[]
  readonly #keyName: string | undefined

  constructor(client: Client, dc: CatalogDataClass) {
    this.#client = client
    this.#dc = dc
    const storage = new Set(
      dc.attributes.filter((a) => (a.kind ?? 'storage') === 'storage').map((a) => a.name),
    )
    // A relation whose foreign key is a storage attribute of the catalog is written through it.
    const written = dc.attributes.filter((a) => {
      const kind = a.kind ?? 'storage'
      return (
        kind === 'storage' ||
        (kind === 'relatedEntity' && !(a.foreignKey !== undefined && storage.has(a.foreignKey)))
      )
    })
    const binary = (a: CatalogAttribute): boolean =>
      (a.kind ?? 'storage') === 'storage' && (a.type === 'image' || a.type === 'blob')
    this.#plain = written.filter((a) => !binary(a))
    this.#binaries = written.filter(binary)
    this.#keyName = dc.key?.[0]?.name
  }

  /**
   * The rows of a page's entities, a member deleted since the set was made left out. Their
   * pictures and BLOBs are fetched one after the other: a page of them at once would be a burst
   * of requests for the server.
   */
  async rows(entities: readonly Record<string, unknown>[]): Promise<object[]> {
    const rows: object[] = []
    for (const entity of entities) {
      const row = this.#row(entity)
      if (row === undefined) continue
      for (const attr of this.#binaries) {
        const v = entity[attr.name]
        if (v !== undefined && v !== null) row[attr.name] = await this.#binary(v, attr)
      }
      rows.push(row)
    }
    return rows
  }

  /** The row of `entity` but its pictures and BLOBs, or undefined for a deleted member. */
  #row(entity: Record<string, unknown>): Record<string, unknown> | undefined {
    if (entity.__KEY === undefined) return undefined
    const row: Record<string, unknown> = {}
    if (this.#keyName === undefined || !Object.hasOwn(entity, this.#keyName))
      row.__KEY = entity.__KEY
    if (typeof entity.__STAMP === 'number' && entity.__STAMP >= 1) row.__STAMP = entity.__STAMP
    // In the stored form, which the load then reads at no cost; a timestamp that is not a date is
    // left out (the copy's row is then stamped with the time of the load).
    const timestamp = parseDate(entity.__TIMESTAMP, false)
    if (timestamp !== undefined) row.__TIMESTAMP = timestamp
    for (const attr of this.#plain) {
      const v = entity[attr.name]
      if (v === undefined || v === null) continue
      // A relation stays {"__deferred": {"__KEY": …}}, which the loader reads as the target's key.
      row[attr.name] =
        attr.type === 'date' && typeof v === 'string' && (attr.kind ?? 'storage') === 'storage'
          ? v.replace(/^!!(.*)!!$/, '$1')
          : v
    }
    return row
  }

  /**
   * A picture or BLOB: its deferred URI fetched, as `{ "$base64", "type", "version" }`. The read
   * says null where there is no value, so an empty answer is an empty value and stays one.
   */
  async #binary(v: unknown, attr: CatalogAttribute): Promise<unknown> {
    const uri = isRecord(v) && isRecord(v.__deferred) ? v.__deferred.uri : undefined
    if (typeof uri !== 'string')
      throw new CloneError(
        `${this.#dc.name}.${attr.name}: expected a deferred ${attr.type} with a "uri", got ${JSON.stringify(v).slice(0, 100)}`,
      )
    const url = this.#client.fromServer(uri)
    const res = await this.#client.request(url)
    const bytes = new Uint8Array(await res.arrayBuffer())
    if (!res.ok) throw new CloneError(`GET ${url} answered ${res.status} for a ${attr.type}`)
    const version = versionOf(url)
    return {
      $base64: Buffer.from(bytes).toString('base64'),
      type: res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream',
      ...(version === undefined ? {} : { version }),
    }
  }
}

/**
 * The `$version` of a picture's or BLOB's URI, kept so that the copy's URIs are the original's (a
 * client's cache stays right); undefined where it is not a positive integer (the copy says 1).
 */
export function versionOf(url: string): number | undefined {
  const text = new URL(url).searchParams.get('$version') ?? ''
  const version = Number(text)
  return /^\d+$/.test(text) && Number.isSafeInteger(version) && version >= 1 ? version : undefined
}
