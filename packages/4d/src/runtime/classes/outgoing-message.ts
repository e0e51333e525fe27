/**
 * @module `4D.OutgoingMessage` (docs/API/OutgoingMessageClass.md): what a function returns to
 * answer a REST request with something else than `{"result": …}` — a document, a list as text.
 * It is core's OutgoingMessage (the value the REST interface writes as it is: status, headers,
 * body) with 4D's members: `setBody` (Text, a BLOB's bytes or an object as JSON, each setting its
 * Content-Type), `setHeader`, `setStatus`, `body` (read-write), `headers` and `status` (read-only).
 * What core would refuse (a header name that is not an HTTP token, a line break in a value, a
 * header the server sets, a status outside 200-599) is a 4D error here, when the code runs.
 */
import { headerProblem, OutgoingMessage, statusProblem } from '@entistore/core'
import type { Runtime } from '../context/runtime.js'
import { stringify } from '../convert/json.js'
import { raise } from '../errors/fourd-error.js'
import { GET_MEMBER, SET_MEMBER, type MemberHost } from '../values/host.js'
import { isPlainObject, newObject } from '../values/kinds.js'
import { blobBytes } from '../values/blob-object.js'
import { builtinClass, OBJECT_CLASS } from './builtin-class.js'
import { classOf } from '../context/class-object.js'
import { FourDFunction } from '../context/function-object.js'

export class FourDOutgoingMessage extends OutgoingMessage implements MemberHost {
  /** The body as 4D code gave it (an object stays an object for `.body`). */
  #given: unknown = undefined
  /** The header names as 4D code wrote them, by their lowercase names. */
  readonly #names = new Map<string, string>()

  /** The body `value`, and with `typed`, the Content-Type its type gives (setBody). */
  put(value: unknown, typed: boolean): void {
    const [body, type] = bodyOf(value)
    this.setBody(body)
    this.#given = value
    if (typed) this.header('Content-Type', type)
  }

  /** `setHeader(key; value)`: two Texts, a header core takes. */
  header(key: unknown, value: unknown): void {
    const name = text('key', key)
    const given = text('value', value)
    const problem = headerProblem(name, given)
    if (problem !== undefined)
      raise('InvalidArgument', {
        parameter: 'key',
        command: 'OutgoingMessage.setHeader',
        detail: problem,
      })
    this.setHeader(name, given)
    this.#names.set(name.toLowerCase(), name)
  }

  [GET_MEMBER](name: string): unknown {
    switch (name) {
      case 'body':
        return this.#given
      case 'status':
        return this.status
      case 'headers': {
        const headers = newObject()
        for (const [key, value] of this.headers) headers[this.#names.get(key) ?? key] = value
        return headers
      }
      default:
        return MEMBERS.get(name)
    }
  }

  [SET_MEMBER](name: string, value: unknown): void {
    if (name === 'body') this.put(value, false)
    else raise('ReadOnlyMember', { property: name })
  }
}

/** Core's body and the Content-Type setBody gives for a 4D value (the page's list). */
function bodyOf(value: unknown): [Uint8Array | string, string] {
  if (typeof value === 'string') return [value, 'text/plain']
  const bytes = blobBytes(value)
  if (bytes !== undefined) return [bytes, 'application/octet-stream']
  if (isPlainObject(value) || classOf(value) !== undefined)
    return [stringify(value), 'application/json']
  return wrong('body', 'Text, a BLOB or an Object', value)
}

const wrong = (parameter: string, expected: string, value: unknown): never =>
  raise('WrongParameterType', {
    parameter,
    command: 'OutgoingMessage',
    expected,
    actual: value === null ? 'Null' : typeof value,
  })

const text = (parameter: string, value: unknown): string =>
  typeof value === 'string' ? value : wrong(parameter, 'Text', value)

type Impl = (self: FourDOutgoingMessage, args: unknown[], rt: Runtime) => void

const member = (name: string, impl: Impl): [string, FourDFunction] => [
  name,
  new FourDFunction(`OutgoingMessage.${name}`, (rt, self, args) =>
    self instanceof FourDOutgoingMessage
      ? impl(self, args, rt)
      : raise('UnknownMemberMethod', { name }),
  ),
]

const MEMBERS: ReadonlyMap<string, FourDFunction> = new Map([
  member('setBody', (self, [body]) => self.put(body, true)),
  member('setHeader', (self, [key, value]) => self.header(key, value)),
  member('setStatus', (self, [status]) => {
    if (typeof status !== 'number' || !Number.isInteger(status))
      return wrong('status', 'an Integer', status)
    const problem = statusProblem(status)
    if (problem !== undefined)
      raise('InvalidArgument', {
        parameter: 'status',
        command: 'OutgoingMessage.setStatus',
        detail: problem,
      })
    self.setStatus(status)
  }),
])

/** `4D.OutgoingMessage`: `new()` gives an empty message, status 200. */
export const OUTGOING_MESSAGE_CLASS = builtinClass(
  'OutgoingMessage',
  OBJECT_CLASS,
  (v) => v instanceof FourDOutgoingMessage,
  () => new FourDOutgoingMessage(),
)
