/**
 * @module 4D's `throw` command (docs/commands/throw.md): `throw(errorCode {; description})` and
 * `throw(errorObj)`, the error they make. Where it goes (at once, or when the method returns for a
 * deferred one) is the compiled code's business.
 */
import { fillPlaceholders } from './error-codes.js'
import { FourDError } from './fourd-error.js'

/** The signature of an error the host project throws without one (throw.md). */
export const HOST_SIGNATURE = 'host'
/** The code of an error thrown without one (throw.md). */
export const DEFAULT_THROWN_CODE = -1

const RESERVED = new Set(['errCode', 'message', 'componentSignature', 'deferred'])

export interface ThrowContext {
  /**
   * The project's localized string for a resname (`ERR_{componentSignature}_{errCode}`), from its
   * xliff files: throw.md's fallback when `message` is missing or empty.
   */
  readonly localized?: (resname: string) => string | undefined
  /** How a property's value is written into a `{placeholder}` (4D's `String`). */
  readonly write?: (value: unknown) => string
  /** The signature when none is given: "host" for the host project, "C001"… for components. */
  readonly signature?: string
}

/**
 * The error of `throw(errorCode {; description})`: thrown at once. Without a description, the
 * message is "Error code: 50042 (host)", throw.md's example 3 wording.
 */
export function thrownCode(
  errCode: number,
  description?: string,
  context: ThrowContext = {},
): FourDError {
  const signature = context.signature ?? HOST_SIGNATURE
  const message =
    description === undefined || description === ''
      ? defaultMessage(errCode, signature, context)
      : description
  return new FourDError(errCode, message, signature)
}

/**
 * The error of `throw(errorObj)`: `errCode` (default -1), `componentSignature` (default "host"),
 * `message` whose `{property}` placeholders take the object's other properties (when it is missing
 * or empty, the project's localized `ERR_{signature}_{code}`, else "Error code: N (signature)"),
 * and `deferred`. The object's custom properties stay on the error (`details`).
 */
export function thrownObject(
  errorObj: Readonly<Record<string, unknown>>,
  context: ThrowContext = {},
): FourDError {
  const errCode =
    typeof errorObj.errCode === 'number' ? Math.trunc(errorObj.errCode) : DEFAULT_THROWN_CODE
  const signature =
    typeof errorObj.componentSignature === 'string' && errorObj.componentSignature !== ''
      ? errorObj.componentSignature
      : (context.signature ?? HOST_SIGNATURE)
  const given = typeof errorObj.message === 'string' ? errorObj.message : ''
  const template = given !== '' ? given : defaultMessage(errCode, signature, context)
  const details: Record<string, unknown> = {}
  for (const key of Object.keys(errorObj)) if (!RESERVED.has(key)) details[key] = errorObj[key]
  const message = fillPlaceholders(template, details, context.write)
  return new FourDError(errCode, message, signature, {
    deferred: errorObj.deferred === true,
    details,
  })
}

function defaultMessage(errCode: number, signature: string, context: ThrowContext): string {
  const localized = context.localized?.(`ERR_${signature}_${errCode}`)
  return localized !== undefined && localized !== ''
    ? localized
    : `Error code: ${errCode} (${signature})`
}
