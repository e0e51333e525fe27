/**
 * @module What a function told the page that called it (core's PageFeedback: Qodly's `Web Form`)
 * written with its reply, as Qodly's WebForm page says: `__WEBFORM` beside `result`, holding
 * `__NOTIFICATION` (`message`, `type`: "message", "warning" or "error"), and, in Entistore's own
 * form since no page says how 4D writes them, the components the code showed, hid or styled
 * (`__COMPONENTS`, by server-side reference) and the states it enabled or disabled (`__STATES`).
 * A reply of bytes (an OutgoingMessage) is the function's own: nothing is added to it.
 */
import type { JsonObject, PageFeedback } from '@entistore/core'
import type { Reply } from '../reply.js'
import { JsonChunks } from '../serialize/json-chunks.js'

/** The `__WEBFORM` object of `page`. */
export function webFormJson(page: PageFeedback): JsonObject {
  const out: JsonObject = {}
  if (page.notification !== undefined)
    out.__NOTIFICATION = { message: page.notification.message, type: page.notification.type }
  if (page.components.size > 0) {
    const components: JsonObject = {}
    for (const [name, c] of page.components)
      components[name] = {
        ...(c.visible === undefined ? {} : { visible: c.visible }),
        ...(c.addCSSClass.length > 0 ? { addCSSClass: [...c.addCSSClass] } : {}),
        ...(c.removeCSSClass.length > 0 ? { removeCSSClass: [...c.removeCSSClass] } : {}),
      }
    out.__COMPONENTS = components
  }
  const { enabled, disabled } = page.states
  if (enabled.length + disabled.length > 0)
    out.__STATES = { enable: [...enabled], disable: [...disabled] }
  return out
}

/** `reply` with `page`'s `__WEBFORM` in its JSON object; as it is when the page was told nothing. */
export function withPage(reply: Reply, page: PageFeedback): Reply {
  // Bytes (an OutgoingMessage, a picture) are the function's own reply.
  if (page.empty || reply.file !== undefined) return reply
  const member = `"__WEBFORM":${JSON.stringify(webFormJson(page))}`
  const { body } = reply
  if (body instanceof JsonChunks) {
    body.addMember(member)
    return reply
  }
  const json =
    typeof body === 'string'
      ? body
      : body instanceof Uint8Array
        ? new TextDecoder().decode(body)
        : isJsonObject(body)
          ? JSON.stringify(body)
          : undefined
  if (json === undefined) return reply
  const end = json.lastIndexOf('}')
  if (end < 0) return reply
  const open = json.slice(0, end).trimEnd()
  return { ...reply, body: `${open}${open.endsWith('{') ? '' : ','}${member}}` }
}

const isJsonObject = (body: unknown): body is JsonObject =>
  typeof body === 'object' &&
  body !== null &&
  !Array.isArray(body) &&
  !(Symbol.asyncIterator in body)
