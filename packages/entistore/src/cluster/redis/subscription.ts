/**
 * @module The subscriber connection: the others' messages on `events`, and this process's own
 * channel (its heartbeats back, acknowledgements: redis-presence.ts). A subscriber connection lost
 * and back is subscribed again, and the sessions held read again from Redis (messages sent
 * meanwhile were lost) before a lease is taken up.
 */
import type { Presence } from './redis-presence.js'

/** What is used of the subscriber connection (an ioredis client is one). */
export interface Subscriber {
  on(event: 'message', listener: (channel: string, text: string) => void): unknown
  on(event: 'close' | 'ready', listener: () => void): unknown
  subscribe(...channels: string[]): Promise<unknown>
  disconnect(reconnect?: boolean): void
}

export interface SubscriptionOptions {
  readonly sub: Subscriber
  /** The command connection, whose return has the mirror read again. */
  readonly commands: { on(event: 'ready', listener: () => void): unknown }
  readonly channel: string
  readonly presence: Presence
  /** A message heard on `channel`. */
  readonly onMessage: (text: string) => void
  readonly report: (error: unknown) => void
}

/** Subscribes to `channel` and to this process's own, and follows the connections' lives. */
export async function subscribe(o: SubscriptionOptions): Promise<void> {
  const { sub, presence } = o
  const direct = presence.channel
  sub.on('message', (channel: string, text: string) => {
    if (channel === o.channel) o.onMessage(text)
    else if (channel === direct) presence.onDirect(text)
  })
  await sub.subscribe(o.channel, direct)
  let subscribed = true
  sub.on('close', () => {
    if (!subscribed) return
    subscribed = false
    presence.lost()
  })
  sub.on('ready', () => {
    if (subscribed) return
    subscribed = true
    const generation = presence.generation
    sub.subscribe(o.channel, direct).then(
      () => presence.subscribedAgain(generation),
      (error: unknown) => {
        o.report(error)
        sub.disconnect(true) // and again, until it can
      },
    )
  })
  o.commands.on('ready', () => presence.commandsAgain())
}
