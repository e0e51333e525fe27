/** @module The error type family: every failure Entistore reports carries an `errCode` and a `componentSignature`. */
import { ERRORS, type ErrorArgs, type ErrorCategory, type ErrorName } from './err-codes.js'

// A symbol from the global registry survives two copies of this package in one process
// (a bundled copy plus a node_modules copy): `DatastoreError.is` checks it instead of `instanceof`.
const FOOTPRINT = Symbol.for('@entistore/core:DatastoreError')

export interface DatastoreErrorOptions {
  readonly cause?: unknown
  /** Structured facts for programs (a filter error's offset, a data error's row). */
  readonly details?: Readonly<Record<string, unknown>>
  /**
   * The code a class function gave when it threw 4D's way (`{ errCode, message,
   * componentSignature }`), or an entity event refused a write with: reported instead of the
   * table's. Only FunctionFailed and EventRefused take it.
   */
  readonly code?: { readonly errCode: number; readonly componentSignature: string }
}

export class DatastoreError extends Error {
  override readonly name: ErrorName
  readonly errCode: number
  readonly componentSignature: string
  readonly category: ErrorCategory
  readonly details: Readonly<Record<string, unknown>> | undefined
  readonly [FOOTPRINT] = true

  constructor(name: ErrorName, message: string, options: DatastoreErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    const entry = ERRORS[name]
    this.name = name
    const own = name === 'FunctionFailed' || name === 'EventRefused' ? options.code : undefined
    this.errCode = own?.errCode ?? entry.errCode
    this.componentSignature = own?.componentSignature ?? entry.componentSignature
    this.category = entry.category
    this.details = options.details
  }

  static is(value: unknown): value is DatastoreError {
    return typeof value === 'object' && value !== null && FOOTPRINT in value
  }

  /** The chain `[this, cause, cause of cause, …]` of DatastoreErrors: 4D reports errors as a stack. */
  stack4D(): DatastoreError[] {
    const out: DatastoreError[] = []
    let e: unknown = this
    while (DatastoreError.is(e) && out.length < 16) {
      out.push(e)
      e = e.cause
    }
    return out
  }
}

/** Builds the error named `name` with the table's message. */
export function datastoreError<N extends ErrorName>(
  name: N,
  args: ErrorArgs<N>,
  options?: DatastoreErrorOptions,
): DatastoreError {
  const message = (ERRORS[name].message as (...a: ErrorArgs<N>) => string)(...args)
  return new DatastoreError(name, message, options)
}

/** The one place errors are thrown from (immer's `die`): `fail('EntityNotFound', [key, 'Employee'])`. */
export function fail<N extends ErrorName>(
  name: N,
  args: ErrorArgs<N>,
  options?: DatastoreErrorOptions,
): never {
  throw datastoreError(name, args, options)
}
