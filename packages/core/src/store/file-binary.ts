/**
 * @module Pictures and BLOBs in a data file: `{"$base64": "...", "type": "image/png", "version": 3}`,
 * written by dump-data.ts and read by load-data.ts. A change-log record may hold them so too, or,
 * made for a file that carries bytes (a journal), as `{"$bytes": 0, "type": "image/png", "version":
 * 3}`: the index of the bytes in the record's attachments (change-log.ts).
 *
 * The version is the `$version` of the URI a REST read gives for the value, which clients cache by:
 * kept through a save and a load, a client's cached copy stays valid exactly as long as the bytes
 * do. It is written only when it is not 1, so that the file of a store whose pictures were never
 * rewritten holds none. Only a data file gives a version: a value written through REST or the TS
 * API does not choose its own (values/coerce.ts ignores the field).
 */
import { binaryValue, encodeBase64, isBinaryValue, type BinaryValue } from '../values/binary.js'
import {
  CoercionError,
  coerceForAttribute,
  type CoercionTarget,
  type StoredValue,
} from '../values/coerce.js'

/** A picture or BLOB as a data file holds it. */
export interface FileBinary {
  readonly $base64: string
  readonly type: string
  /** Left out when 1. */
  readonly version?: number
}

export function fileBinary(value: BinaryValue): FileBinary {
  const written = { $base64: encodeBase64(value.bytes), type: value.type }
  return value.version === 1 ? written : { ...written, version: value.version }
}

/** A picture or BLOB as a record with attachments holds it: `attachments[$bytes]` are its bytes. */
export interface AttachedBinary {
  readonly $bytes: number
  readonly type: string
  /** Left out when 1. */
  readonly version?: number
}

/** `value` as a record with `attachments` holds it: its bytes appended there as they are. */
export function attachedBinary(value: BinaryValue, attachments: Uint8Array[]): AttachedBinary {
  const written = { $bytes: attachments.push(value.bytes) - 1, type: value.type }
  return value.version === 1 ? written : { ...written, version: value.version }
}

/** Whether a record's raw value names an attachment (only a picture or BLOB attribute's can). */
export function isAttachedBinary(raw: unknown): raw is { readonly $bytes: unknown } {
  return typeof raw === 'object' && raw !== null && '$bytes' in raw
}

/**
 * The value an attachment reference names, checked (the index one of `attachments`, a media type,
 * a version of 1 or more); the bytes are taken as they are, not copied. Throws CoercionError.
 */
export function fromAttachment(
  raw: { readonly $bytes: unknown },
  attachments: readonly Uint8Array[] | undefined,
): BinaryValue {
  const { $bytes: at, type, version = 1 } = raw as Partial<AttachedBinary>
  const bytes = Number.isSafeInteger(at) ? attachments?.[at!] : undefined
  if (bytes === undefined)
    throw new CoercionError(`"$bytes" names no attachment of the record (${String(at)})`)
  if (typeof type !== 'string') throw new CoercionError('"type" must be a media type string')
  if (!Number.isSafeInteger(version) || version < 1)
    throw new CoercionError('"version" must be a positive integer')
  return binaryValue(bytes, type, version)
}

/** A value of a data file row for `attr`: coerced as any other, a picture or BLOB with its version. */
export function coerceFileValue(attr: CoercionTarget, raw: unknown): StoredValue {
  const value = coerceForAttribute(attr, raw)
  // A BinaryValue given in code (loadData from TS) is kept as it is, version included.
  if (!isBinaryValue(value) || value === raw) return value
  const version = (raw as { version?: unknown }).version
  if (version === undefined) return value
  if (!Number.isSafeInteger(version) || (version as number) < 1)
    throw new CoercionError('"version" must be a positive integer')
  return binaryValue(value.bytes, value.type, version as number)
}
