/**
 * @module A function's result as JSON text, for `{"result": …}`: what `JSON.stringify` would write,
 * except for the engine's objects, written in their wire forms (an entity as a read of it writes
 * it, an entity selection as its envelope's first page, an entity being edited as a save would
 * leave it), `Map` and `Set` as an object and an array, and what JSON cannot hold (a BigInt, bytes,
 * an object that holds itself) refused with FunctionFailed, which names it, rather than sent
 * garbled: bytes go out with an OutgoingMessage.
 */
import {
  Entity,
  EntityDraft,
  EntitySelection,
  datastoreError,
  restrictedSelection,
  type DatastoreError,
} from '@entistore/core'
import type { Permissions } from '../permissions.js'
import type { EntityWriter } from '../serialize/entity.js'
import { selectionEnvelope } from '../serialize/selection.js'

/** Deeper than this, a result is refused: JSON written by hand must not overflow the stack. */
const MAX_DEPTH = 64

const refuse = (why: string): DatastoreError =>
  datastoreError('FunctionFailed', [`The function's result cannot be sent as JSON: ${why}`])

/**
 * The JSON text of `value` (undefined at the top is `null`). An entity or a selection anywhere in
 * it is answered only to a session that may read its dataclass (1557, as when returned alone), a
 * selection without what `restrict` hides from it.
 */
export function resultJson(
  value: unknown,
  writer: EntityWriter,
  perms?: Permissions | undefined,
): string {
  return write(value, { writer, perms }, new Set(), 0) ?? 'null'
}

/** What writes a result: the request's writer (it leaves out what the session may not read). */
interface Out {
  readonly writer: EntityWriter
  readonly perms: Permissions | undefined
}

// The JSON text of `value`, or undefined where JSON.stringify leaves a member out.
function write(value: unknown, out: Out, path: Set<object>, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value)
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
    case 'bigint':
      throw refuse(`${value}n is a BigInt (return it as a number or as text)`)
  }
  if (value === null) return 'null'
  const object = value as object
  const { writer, perms } = out
  if (object instanceof Entity) {
    perms?.need('read', object.dataClass.name)
    return writer.single(object)
  }
  if (object instanceof EntityDraft) {
    perms?.need('read', object.dataClass.name)
    return writer.single(object.unsavedVersion())
  }
  if (object instanceof EntitySelection) {
    perms?.need('read', object.dataClass.name)
    const visible = restrictedSelection(object)
    const window = { skip: 0, top: visible.dataClass.def.defaultTopSize }
    return [...selectionEnvelope(visible, window, writer)].join('')
  }
  if (object instanceof Uint8Array || object instanceof ArrayBuffer || ArrayBuffer.isView(object))
    throw refuse('it holds bytes (return an OutgoingMessage to send bytes)')
  if (depth >= MAX_DEPTH) throw refuse(`it is nested more than ${MAX_DEPTH} levels deep`)
  if (path.has(object)) throw refuse('it holds itself')
  const toJSON = (object as { toJSON?: unknown }).toJSON
  if (typeof toJSON === 'function') return write(toJSON.call(object), out, path, depth)
  path.add(object)
  try {
    if (Array.isArray(object) || object instanceof Set) {
      const items = [...(object as Iterable<unknown>)].map(
        (item) => write(item, out, path, depth + 1) ?? 'null',
      )
      return `[${items.join(',')}]`
    }
    const entries: Iterable<[unknown, unknown]> =
      object instanceof Map ? object.entries() : Object.entries(object)
    const members: string[] = []
    for (const [key, item] of entries) {
      const text = write(item, out, path, depth + 1)
      if (text !== undefined) members.push(`${JSON.stringify(String(key))}:${text}`)
    }
    return `{${members.join(',')}}`
  } finally {
    path.delete(object)
  }
}
