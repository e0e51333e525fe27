/**
 * @module The class `4D.Blob` (docs/API/BlobClass.md): `new()`, and `.slice()`, the one function
 * of its objects. The value itself, a BlobObject, is values/blob-object.ts, below the conversions
 * and the operators that make it; this module gives it its `.slice()` when it loads.
 */
import { raise } from '../errors/fourd-error.js'
import { BlobObject, blobBytes, blobObject, provideBlobSlice } from '../values/blob-object.js'
import { typeName } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'
import { builtinClass, OBJECT_CLASS } from './builtin-class.js'
import { FourDFunction } from '../context/function-object.js'

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
provideBlobSlice(SLICE)

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
