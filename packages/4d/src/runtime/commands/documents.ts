/**
 * @module The classic document commands that move bytes as they are (docs/commands-legacy/):
 * `DOCUMENT TO BLOB(document; blob)` reads a file of the project's folders whole, `BLOB TO
 * DOCUMENT(document; blob)` writes one, each by its system path; OK is 1 once done. An empty
 * name opens a dialog in 4D and cannot run here.
 */
import { wrongType } from '../arguments/arguments.js'
import { isOutParameter, outArg } from '../arguments/out-parameter.js'
import { documentOf } from '../files/file-of.js'
import { blobBytes } from '../values/blob-object.js'
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
]
