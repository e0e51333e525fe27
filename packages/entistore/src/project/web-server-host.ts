/**
 * @module What a project's 4D code reads of the web server serving its datastore (`WEB Server`,
 * 4D's `4D.WebServer`): `serve()` says it for each datastore it serves; the project loader hands
 * `webServerOf` to the runner, which asks at each request. The quotas are the running server's own
 * live object, so a change made in 4D code is the one the next requests meet.
 */
import type { Datastore } from '@entistore/core'
import type { WebServerHost } from '@entistore/4d'

// One a datastore: the server serving it last (`replace` serves a new one, said anew).
const served = new WeakMap<Datastore, WebServerHost>()

/**
 * Says that `ds` is served as `host` (its getters read at each `WEB Server`), from now on (the
 * uptime of `WEB Get server info`); what it gives wraps the server's listener to count the
 * requests it receives.
 */
export function announceServing(
  ds: Datastore,
  host: Omit<WebServerHost, 'startedAt' | 'requestCount'>,
): <A extends unknown[], R>(listener: (...args: A) => R) => (...args: A) => R {
  let requests = 0
  // The host's getters (its port, bound once it listens) stay getters.
  const facts = Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(host),
      startedAt: { value: ds.clock.now(), enumerable: true },
      requestCount: { get: () => requests, enumerable: true },
    },
  ) as WebServerHost
  served.set(ds, facts)
  return (listener) =>
    (...args) => {
      requests++
      return listener(...args)
    }
}

/** The web server serving `ds`, or undefined when none does (a library's own call). */
export const webServerOf = (ds: Datastore): WebServerHost | undefined => served.get(ds)
