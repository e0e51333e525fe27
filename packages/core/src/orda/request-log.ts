/**
 * @module 4D's ORDA request log (`ds.startRequestLog()`, `ds.getRequestLog()`,
 * `ds.stopRequestLog()`): the ORDA requests made through a datastore, each as 4D's log object
 * (`sequenceNumber`, `url`, `startTime`, `endTime`, `duration`, `response`).
 *
 * What is a request: a read by key (`dataClass.get`, and so a relation read), a query
 * (`dataClass.query`, `dataClass.all`), and every write (a create, an update, a drop, each save of
 * a draft), whether it comes from TypeScript or from a REST request. Its `url` is the REST request
 * 4D's client would send for it (`/rest/Employee(3)`, `/rest/Employee?$filter="salary > :1"&$params=[5000]`,
 * `/rest/Employee?$method=update`); its times are on the datastore's clock.
 *
 * Bounded: the log in memory keeps the last `keep` requests (a ring: the oldest go first), 1,000
 * unless `startRequestLog(n)` says otherwise. Free when off: the reads are recorded by wrappers
 * put on each dataclass only while the log records (and taken off by `stop`), and a write asks one
 * field (`ds.requestLog`) whether to record.
 */
import { DatastoreError } from '../errors/datastore-error.js'
import type { Clock } from '../clock/clock.js'
import type { KeyValue } from '../store/entity-record.js'

/** One ORDA request, as 4D's request log writes it. */
export interface RequestLogEntry {
  /** Unique and sequential in the log's session (since the datastore was made). */
  readonly sequenceNumber: number
  /** The REST request 4D's client would send for it. */
  readonly url: string
  /** ISO 8601, on the datastore's clock. */
  readonly startTime: string
  readonly endTime: string
  /** Milliseconds. */
  readonly duration: number
  /**
   * `{ status: 200 }` when it was answered; the error's body (`__ERROR`, 4D's error stack) when it
   * was refused. (The core has no HTTP: a refused request's status is the REST adapter's to give.)
   */
  readonly response: RequestLogResponse
}

export type RequestLogResponse =
  | { readonly status: 200 }
  | {
      readonly body: {
        readonly __ERROR: readonly {
          readonly message: string
          readonly componentSignature: string
          readonly errCode: number
        }[]
      }
    }

/** 4D's log file, adapted: a function given each request as it is recorded (to append to a file). */
export type RequestLogSink = (entry: RequestLogEntry) => void

/**
 * What the log needs of a dataclass: its name for the URLs, and the read members it wraps by name
 * (`get`, `query`, `all`). A DataClass is one; named apart so that the log, which the datastore and
 * the writes import, does not name the public objects back.
 */
interface LoggedDataClass {
  readonly name: string
}

/** Requests the log in memory keeps when `startRequestLog()` is given no number. */
export const REQUEST_LOG_KEEP = 1_000

/** The dataclass members recorded as requests, and the URL of each call. */
const READS: Readonly<Record<string, (dc: LoggedDataClass, args: readonly unknown[]) => string>> = {
  get: (dc, [key]) => entityUrl(dc.name, key as KeyValue),
  query: (dc, [text, ...params]) => queryUrl(dc.name, String(text), params),
  all: (dc) => `/rest/${dc.name}`,
}

export class RequestLog {
  readonly #clock: Clock
  readonly #dataClasses: () => readonly LoggedDataClass[]
  #entries: RequestLogEntry[] = []
  // Where the next entry goes once the ring is full (the oldest entry's place).
  #next = 0
  #keep = REQUEST_LOG_KEEP
  #sink: RequestLogSink | undefined
  #sequence = 0
  #recording = false

  constructor(clock: Clock, dataClasses: () => readonly LoggedDataClass[]) {
    this.#clock = clock
    this.#dataClasses = dataClasses
  }

  /** Whether requests are being recorded. */
  get recording(): boolean {
    return this.#recording
  }

  /**
   * Starts recording (4D's `startRequestLog`): `keep`, a number, empties the log in memory and
   * keeps that many requests from now; a function (4D's file) is given each request and the log
   * in memory is stopped and emptied; nothing, the log in memory goes on with the number it had.
   * @throws RangeError for a number that is not a whole number above 0.
   */
  start(to?: number | RequestLogSink): void {
    if (typeof to === 'number') {
      if (!Number.isSafeInteger(to) || to < 1)
        throw new RangeError(`startRequestLog: ${String(to)} is not a whole number above 0`)
      this.#sink = undefined
      this.#empty()
      this.#keep = to
    } else if (typeof to === 'function') {
      this.#sink = to
      this.#empty()
    }
    if (this.#recording) return
    this.#recording = true
    for (const dc of this.#dataClasses()) wrapReads(dc, this)
  }

  /** Stops recording (4D's `stopRequestLog`); what the log in memory holds stays readable. */
  stop(): void {
    if (!this.#recording) return
    this.#recording = false
    this.#sink = undefined
    for (const dc of this.#dataClasses()) unwrapReads(dc)
  }

  /** The requests the log in memory holds, the most recent first (4D's `getRequestLog`). */
  entries(): RequestLogEntry[] {
    const ring = this.#entries
    const oldestFirst = [...ring.slice(this.#next), ...ring.slice(0, this.#next)]
    return oldestFirst.reverse()
  }

  /** Runs `fn`, recorded as the request `url`; what it returns or throws goes on. */
  record<T>(url: string, fn: () => T): T {
    const start = this.#clock.now()
    let result: T
    try {
      result = fn()
    } catch (error) {
      this.#add(url, start, refused(error))
      throw error
    }
    this.#add(url, start, ANSWERED)
    return result
  }

  #add(url: string, start: number, response: RequestLogResponse): void {
    const end = this.#clock.now()
    const entry: RequestLogEntry = {
      sequenceNumber: ++this.#sequence,
      url,
      startTime: new Date(start).toISOString(),
      endTime: new Date(end).toISOString(),
      duration: end - start,
      response,
    }
    if (this.#sink !== undefined) return this.#sink(entry)
    if (this.#entries.length < this.#keep) this.#entries.push(entry)
    else {
      this.#entries[this.#next] = entry
      this.#next = (this.#next + 1) % this.#keep
    }
  }

  #empty(): void {
    this.#entries = []
    this.#next = 0
  }
}

const ANSWERED: RequestLogResponse = Object.freeze({ status: 200 })

/** What the log records of a refusal: the error's stack as 4D's `__ERROR` body. */
function refused(error: unknown): RequestLogResponse {
  const stack = DatastoreError.is(error) ? error.stack4D() : []
  const __ERROR =
    stack.length > 0
      ? stack.map((e) => ({
          message: e.message,
          componentSignature: e.componentSignature,
          errCode: e.errCode,
        }))
      : [
          {
            message: error instanceof Error ? error.message : String(error),
            componentSignature: 'enti',
            errCode: 9099,
          },
        ]
  return { body: { __ERROR } }
}

/** The URL of entity `key` of `dataClass`, with 4D's `$method` for a write when given. */
export const entityUrl = (dataClass: string, key: KeyValue | undefined, method?: string): string =>
  `/rest/${dataClass}${key === undefined ? '' : `(${String(key)})`}${method === undefined ? '' : `?$method=${method}`}`

function queryUrl(dataClass: string, text: string, params: readonly unknown[]): string {
  // A last object of 4D's query settings is not a placeholder's value.
  const last = params[params.length - 1]
  const values =
    typeof last === 'object' && last !== null && !Array.isArray(last) && !(last instanceof Date)
      ? params.slice(0, -1)
      : params
  const filter = `$filter=${JSON.stringify(text)}`
  return `/rest/${dataClass}?${values.length === 0 ? filter : `${filter}&$params=${safeJson(values)}`}`
}

function safeJson(values: readonly unknown[]): string {
  try {
    return JSON.stringify(values)
  } catch {
    return '[…]'
  }
}

// Each recorded member, put on the dataclass itself over its class's (and taken off by
// `unwrapReads`): while the log is off, a call costs nothing more than before.
function wrapReads(dc: LoggedDataClass, log: RequestLog): void {
  const proto = Object.getPrototypeOf(dc) as Record<string, unknown>
  for (const [name, urlOf] of Object.entries(READS)) {
    const member = proto[name]
    if (typeof member !== 'function') continue
    Object.defineProperty(dc, name, {
      configurable: true,
      writable: true,
      value(this: LoggedDataClass, ...args: unknown[]) {
        return log.record(urlOf(this, args), () =>
          (member as (...a: unknown[]) => unknown).apply(this, args),
        )
      },
    })
  }
}

function unwrapReads(dc: LoggedDataClass): void {
  for (const name of Object.keys(READS)) delete (dc as unknown as Record<string, unknown>)[name]
}
