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
 *
 * The value lives here, below the conversions and the operators that make and read it; its
 * `.slice()` is a function object, which runs on the running context above: classes/blob.ts,
 * the class `4D.Blob`, makes it and hands it down (`provideBlobSlice`) when it loads.
 */
import { raise } from '../errors/fourd-error.js'
import {
  GET_INDEX,
  GET_MEMBER,
  SET_MEMBER,
  TO_JSON,
  type JsonHost,
  type IndexHost,
  type MemberHost,
} from './host.js'

/** What `JSON Stringify` writes for either BLOB: the name of 4D's native class. */
export const BLOB_JSON = '[object Blob]'

// `.slice()`: the function object of classes/blob.ts (undefined until that module has loaded).
let slice: unknown

/** Gives the function object `$blob.slice` reads (classes/blob.ts, once). */
export function provideBlobSlice(fn: unknown): void {
  slice = fn
}

export class BlobObject implements MemberHost, IndexHost, JsonHost {
  constructor(readonly bytes: Uint8Array) {}

  [GET_MEMBER](name: string): unknown {
    if (name === 'size') return this.bytes.length
    return name === 'slice' ? slice : undefined
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
