/**
 * @module The text of the live feed's server-sent events (resources/changes.ts): `id:` the global
 * stamp (what `Last-Event-ID` sends back), `event:` the type, `data:` one line of JSON.
 *
 * - created, updated: the entity as a REST reply writes it (`__entityModel`, `__KEY`, `__STAMP`,
 *   attributes), with `__GlobalStamp` the event's stamp (a tracked dataclass has it already).
 * - deleted: `{"__entityModel","__KEY","__GlobalStamp"}`, and `"left":true` when the entity still
 *   exists but left the subscription (its filter, or `restrict`).
 * - reset, heartbeat, dropped: `{"__GlobalStamp"}`, the stamp to go on from.
 */
import type { ChangeEvent } from '@entistore/core'

/** What the stream starts with: how long a browser waits before it reconnects. */
export function streamHead(retryMs: number): string {
  return `retry: ${Math.max(0, Math.round(retryMs))}\n\n`
}

/** One event's text; `entity` of created and updated is an entity's JSON text. */
export function changeEventText(event: ChangeEvent<string>): string {
  const head = `id: ${event.stamp}\nevent: ${event.type}\ndata: `
  switch (event.type) {
    case 'created':
    case 'updated':
      return `${head}${stamped(event.entity, event.stamp)}\n\n`
    case 'deleted': {
      const left = event.left ? ',"left":true' : ''
      return `${head}{"__entityModel":${JSON.stringify(event.dataClass)},"__KEY":${JSON.stringify(
        String(event.key),
      )},"__GlobalStamp":${event.stamp}${left}}\n\n`
    }
    default:
      return `${head}{"__GlobalStamp":${event.stamp}}\n\n`
  }
}

// `__GlobalStamp` after the opening brace, unless the entity carries it (a tracked dataclass).
function stamped(json: string, stamp: number): string {
  if (json.includes('"__GlobalStamp":')) return json
  return `{"__GlobalStamp":${stamp},${json.slice(1)}`
}
