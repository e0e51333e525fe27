/**
 * @module The error 4D code raises or meets: 4D's three fields (`errCode`, `message`,
 * `componentSignature`, docs/Concepts/error-handling.md "Error codes"), whether it is deferred
 * (docs/commands/throw.md), and where it happened (`method`, `line`), which the compiled code fills
 * as the error passes through it, as 4D's `Error method` and `Error line` say.
 */
import { ERRORS, fillPlaceholders, type ErrorName } from './error-codes.js'

// A symbol from the global registry survives two copies of this package in one process.
const FOOTPRINT = Symbol.for('@entistore/4d:FourDError')

export interface FourDErrorOptions {
  readonly deferred?: boolean
  readonly cause?: unknown
  /** The custom properties of a thrown error object (`throw({errCode: 1; name: "x"})`). */
  readonly details?: Readonly<Record<string, unknown>>
}

export class FourDError extends Error {
  override readonly name = 'FourDError'
  readonly errCode: number
  readonly componentSignature: string
  /** Handled when the method that threw returns, or at the end of its `Try` block. */
  readonly deferred: boolean
  readonly details: Readonly<Record<string, unknown>> | undefined
  /** The method or class function the error happened in (`Car.drive`, `myMethod`). */
  method: string | undefined
  /** The file of that method or class (`Project/Sources/Classes/Car.4dm`). */
  file: string | undefined
  /** Its 4D line, 1-based. */
  line: number | undefined
  readonly [FOOTPRINT] = true

  constructor(
    errCode: number,
    message: string,
    componentSignature: string,
    options: FourDErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.errCode = errCode
    this.componentSignature = componentSignature
    this.deferred = options.deferred ?? false
    this.details = options.details
    this.method = undefined
    this.file = undefined
    this.line = undefined
  }

  static is(value: unknown): value is FourDError {
    return typeof value === 'object' && value !== null && FOOTPRINT in value
  }

  /** The error as `Last errors` gives it: `{errCode, message, componentSignature}`. */
  toErrorObject(): { errCode: number; message: string; componentSignature: string } {
    return {
      errCode: this.errCode,
      message: this.message,
      componentSignature: this.componentSignature,
    }
  }

  /** Records where the error happened, if nothing nearer did first. */
  at(method: string, line: number, file?: string): this {
    if (this.method === undefined) {
      this.method = method
      this.line = line
      this.file = file
    }
    return this
  }
}

/** Builds the error named `name`, its message filled from `args`. */
export function fourDError(
  name: ErrorName,
  args: Readonly<Record<string, unknown>> = {},
  options?: FourDErrorOptions,
): FourDError {
  const entry = ERRORS[name]
  return new FourDError(
    entry.errCode,
    fillPlaceholders(entry.message, args),
    entry.componentSignature,
    options,
  )
}

/** The one place the runtime throws its own errors from: `raise('DivisionByZero', {…})`. */
export function raise(name: ErrorName, args?: Readonly<Record<string, unknown>>): never {
  throw fourDError(name, args)
}
