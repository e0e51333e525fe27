/**
 * @module `4D.IncomingMessage` (20 R8, docs/API/IncomingMessageClass.md): what an HTTP request
 * handler's function receives. 4D code's view of core's IncomingMessage, which the REST interface
 * makes for the request: `url`, `urlPath` (a Collection), `urlQuery` and `headers` (objects),
 * `verb`, and `getText()`, `getJSON()`, `getBlob()`, `getPicture()`, `getHeader(key)`. Every
 * property only reads ("cannot be assigned"); `getJSON()` of a body that is not JSON raises an
 * error, as the page says.
 */
import type { IncomingMessage } from '@entistore/core'
import { fromJSON } from '../convert/json.js'
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { GET_MEMBER, SET_MEMBER, type MemberHost } from '../values/host.js'
import { newObject } from '../values/kinds.js'
import { blobObject } from '../values/blob-object.js'
import { builtinClass, OBJECT_CLASS } from './builtin-class.js'
import { FourDFunction } from '../context/function-object.js'

export class FourDIncomingMessage implements MemberHost {
  constructor(readonly message: IncomingMessage) {}

  [GET_MEMBER](name: string): unknown {
    const m = this.message
    switch (name) {
      case 'url':
        return m.url
      case 'verb':
        return m.verb
      case 'urlPath':
        return new Collection([...m.urlPath])
      case 'urlQuery':
        return textObject(m.urlQuery)
      case 'headers':
        return textObject(m.headers)
      default:
        return MEMBERS.get(name)
    }
  }

  [SET_MEMBER](name: string): void {
    raise('ReadOnlyMember', { property: name })
  }
}

/** A 4D object of texts (a copy: the code may change it, the request stays). */
function textObject(values: Readonly<Record<string, string>>): Record<string, unknown> {
  const out = newObject()
  for (const [key, value] of Object.entries(values)) out[key] = value
  return out
}

type Impl = (message: IncomingMessage, args: unknown[]) => unknown

const member = (name: string, impl: Impl): [string, FourDFunction] => [
  name,
  new FourDFunction(`IncomingMessage.${name}`, (_rt, self, args) =>
    self instanceof FourDIncomingMessage
      ? impl(self.message, args)
      : raise('UnknownMemberMethod', { name }),
  ),
]

const MEMBERS: ReadonlyMap<string, FourDFunction> = new Map([
  member('getText', (m) => m.getText()),
  // A 4D.Blob: an object's value, as a function returns one (compat.md).
  member('getBlob', (m) => blobObject(m.getBlob())),
  member('getPicture', (m) => m.getPicture()),
  member('getJSON', (m) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(m.getText())
    } catch (e) {
      return raise('InvalidArgument', {
        parameter: 'body',
        command: 'IncomingMessage.getJSON',
        detail: `the body is not JSON (${(e as Error).message})`,
      })
    }
    return fromJSON(parsed)
  }),
  // The key in any case; "" for a header the request does not have (a Text, as the page types it).
  member('getHeader', (m, [key]) =>
    typeof key === 'string'
      ? (m.getHeader(key) ?? '')
      : raise('WrongParameterType', {
          parameter: 'key',
          command: 'IncomingMessage.getHeader',
          expected: 'Text',
          actual: key === null ? 'Null' : typeof key,
        }),
  ),
])

/** `4D.IncomingMessage`: made by the web server only (no `new()`). */
export const INCOMING_MESSAGE_CLASS = builtinClass(
  'IncomingMessage',
  OBJECT_CLASS,
  (v) => v instanceof FourDIncomingMessage,
)
