/**
 * @module The classic document commands that move bytes as they are (docs/commands-legacy/):
 * `DOCUMENT TO BLOB(document; blob)` reads a file of the project's folders whole, `BLOB TO
 * DOCUMENT(document; blob)` writes one, each by its system path; OK is 1 once done. An empty
 * name opens a dialog in 4D and cannot run here. `Is picture file(path {; *})` tells a picture by
 * its extension among the codecs read here, or with `*` by its header (image-size.ts, or an SVG's
 * text).
 */
import { wrongType } from '../arguments/arguments.js'
import { isOutParameter, outArg } from '../arguments/out-parameter.js'
import { documentOf } from '../files/file-of.js'
import { blobBytes } from '../values/blob-object.js'
import { isStar } from '../arguments/arguments.js'
import { imageSize } from './image-size.js'
import type { CommandSpec } from './table.js'

export const DOCUMENT_COMMANDS: readonly CommandSpec[] = [
  {
    number: 525,
    name: 'DOCUMENT TO BLOB',
    signature: '(document: Text; blob: any)',
    writes: [1],
    impl: (rt, document, blob) => {
      const file = documentOf(rt, 'DOCUMENT TO BLOB', document)
      outArg('DOCUMENT TO BLOB', 'blob', blob).set(file.host.readBytes(file.at))
      rt.pvSet('OK', 1)
    },
  },
  {
    number: 526,
    name: 'BLOB TO DOCUMENT',
    signature: '(document: Text; blob: any)',
    impl: (rt, document, blob) => {
      const value = isOutParameter(blob) ? blob.get() : blob
      const bytes = blobBytes(value) ?? wrongType('BLOB TO DOCUMENT', 'blob', 'a BLOB', value)
      const file = documentOf(rt, 'BLOB TO DOCUMENT', document)
      file.host.writeBytes(file.at, bytes)
      rt.pvSet('OK', 1)
    },
  },
  {
    number: 1113,
    name: 'Is picture file',
    signature: '(filePath: Text; star?: any): Boolean',
    impl: (rt, path, star) => {
      if (path === '') return false
      const file = documentOf(rt, 'Is picture file', path)
      if (file.host.stat(file.at)?.kind !== 'file') return false
      if (!isStar(star)) return PICTURE_EXTENSIONS.test(file.at.names.at(-1) ?? '')
      const bytes = file.host.readBytes(file.at)
      return imageSize(bytes) !== undefined || isSvg(bytes)
    },
  },
]

// The codecs read here (image-size.ts, and sharp's when it is installed): PNG, JPEG, GIF, BMP,
// WebP, TIFF, SVG.
const PICTURE_EXTENSIONS = /\.(png|jpe?g|jpe|gif|bmp|webp|tiff?|svg)$/i

const isSvg = (bytes: Uint8Array): boolean =>
  /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(
    new TextDecoder().decode(bytes.subarray(0, 4096)),
  )
