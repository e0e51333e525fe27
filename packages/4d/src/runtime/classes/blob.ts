/**
 * @module 4D's two BLOBs (docs/Concepts/dt_blob.md "Blob Types", docs/API/BlobClass.md):
 * - a scalar BLOB (`var $b : Blob`) is a Uint8Array, a value of kind 'blob' (`Value type` Is
 *   BLOB). It is never changed in place: a command that alters a BLOB variable (`SET BLOB SIZE`,
 *   `TEXT TO BLOB`…) assigns it new bytes, so `$b2:=$b1` is the copy the page describes without
 *   copying at each assignment;
 * - a `4D.Blob` is a BlobObject: an Object (`Value type` Is object, `OB Instance of($x;4D.Blob)`),
 *   by reference, not alterable, with `.size`, `.slice()` and `$blob[i]` for a byte.
 * An object or a collection holds a 4D.Blob: a scalar BLOB put there becomes one (`stored`), and a
 * 4D.Blob assigned to a Blob variable becomes its bytes ("Automatic conversion of blob type").
 */
import { BLOB_JSON } from '../convert/json.js'
import { raise } from '../errors/fourd-error.js'
import {
  GET_INDEX,
  GET_MEMBER,
  SET_MEMBER,
  TO_JSON,
  type JsonHost,
  type IndexHost,
  type MemberHost,
} from '../values/host.js'
import { typeName } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'
import { builtinClass, OBJECT_CLASS } from './builtin-class.js'
import { FourDFunction } from './function-object.js'

export class BlobObject implements MemberHost, IndexHost, JsonHost {
  constructor(readonly bytes: Uint8Array) {}

  [GET_MEMBER](name: string): unknown {
    if (name === 'size') return this.bytes.length
    return name === 'slice' ? SLICE : undefined
  }

  [SET_MEMBER](name: string): void {
    raise('ReadOnlyMember', { property: name })
  }

  [TO_JSON](): unknown {
    return BLOB_JSON
  }

  /** `$blob[i]`: the byte, Undefined past the end (as a collection's element). */
  [GET_INDEX](index: number): unknown {
    return this.bytes[index]
  }
}

/** The bytes of either BLOB, undefined for any other value. */
export function blobBytes(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v
  return v instanceof BlobObject ? v.bytes : undefined
}

/** A 4D.Blob over `bytes` (read-only, so they are shared, not copied). */
export const blobObject = (bytes: Uint8Array): BlobObject => new BlobObject(bytes)

/** `.slice(start; end)`: negative positions count from the end (BlobClass.md). */
function sliceIndex(v: unknown, size: number, fallback: number): number {
  if (v === undefined) return fallback
  if (typeof v !== 'number') return raise('WrongParameterType', wrongSlice(v))
  const i = toInteger(v)
  return i < 0 ? Math.max(0, size + i) : Math.min(i, size)
}

const wrongSlice = (v: unknown) => ({
  parameter: 'start',
  command: 'Blob.slice',
  expected: 'Real',
  actual: typeName(v),
})

const SLICE = new FourDFunction('Blob.slice', (_rt, self, [start, end]) => {
  if (!(self instanceof BlobObject)) return raise('UnknownMemberMethod', { name: 'slice' })
  const size = self.bytes.length
  const from = sliceIndex(start, size, 0)
  const to = sliceIndex(end, size, size)
  return blobObject(self.bytes.subarray(from, Math.max(from, to)))
})

/** `4D.Blob`: `new()` an empty one, `new(blob)` one over a copy of a BLOB's bytes. */
export const BLOB_CLASS = builtinClass(
  'Blob',
  OBJECT_CLASS,
  (v) => v instanceof BlobObject,
  (_rt, [blob]) => {
    if (blob === undefined) return blobObject(new Uint8Array(0))
    const bytes = blobBytes(blob)
    if (bytes === undefined)
      return raise('WrongParameterType', {
        parameter: 'blob',
        command: '4D.Blob.new',
        expected: 'Blob or 4D.Blob',
        actual: typeName(blob),
      })
    return blobObject(bytes.slice())
  },
)
