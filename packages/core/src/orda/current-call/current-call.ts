/**
 * @module What a running function may ask about its call: which datastore and function, the
 * session of the REST request that called it, and a way to log that session in (4D's `Session`
 * inside a function: `authentify` calls `Session.setPrivileges`) or to set its quotas
 * (`Session.quotas`); and `currentSession()`, 4D's `Session` object itself (web-session.ts), for
 * a function's code and any other code that acts as a session.
 *
 * The call is the one calls/call-context.ts makes and follows through awaits (see its note for
 * what happens without an async context); this room gives it under its public types, which name
 * the Datastore: the calls, which the Datastore runs, may not.
 */
import { actingFrame } from '../../access/acting.js'
import { runningCall, sessionSource } from '../calls/call-context.js'
import type { CallDatastore } from '../calls/call-datastore.js'
import type { FunctionCall, SessionSource } from './function-call.js'
import { WebSession } from './web-session.js'

/** The call of the function running now, if any (calls/call-context.ts: what follows awaits). */
export function currentCall(): FunctionCall | undefined {
  // Checked to have every other member FunctionCall lists; its datastore is the Datastore that
  // made it, which the calls name by what they need of it (calls/call-datastore.ts).
  const call: Omit<FunctionCall, 'datastore'> | undefined = runningCall()
  return call as FunctionCall | undefined
}

// One Session object a call, or an acting frame outside any call (the object reads the session
// as it is now: a `restore` replaces it).
const sessionObjects = new WeakMap<object, WebSession>()

/**
 * 4D's `Session` for code that runs as a session (a function called over REST, a `restrict`
 * event or any code a request runs, `ds.actAs(session, fn)`): that session (the one `restore` put
 * in place, if any) as 4D's Session class has it (web-session.ts). Null for code that runs as no
 * session (a call made from TypeScript, start-up), where 4D's `Session` is Null too.
 *
 * @example
 * const session = currentSession()
 * if (session?.hasPrivilege('CreateInvoices')) …
 */
export function currentSession(): WebSession | null {
  const call = currentCall()
  if (call !== undefined) {
    if (call.session === undefined) return null
    let object = sessionObjects.get(call)
    if (object === undefined) sessionObjects.set(call, (object = new WebSession(call)))
    return object
  }
  // Code of a session outside a function call: its acting frame's actor.
  const frame = actingFrame()
  if (frame === undefined) return null
  let object = sessionObjects.get(frame)
  if (object === undefined) {
    const { scope, session, owner } = frame.actor
    const source: Omit<SessionSource, 'datastore'> = sessionSource(
      scope as CallDatastore,
      session,
      owner,
    )
    object = new WebSession(source as SessionSource)
    sessionObjects.set(frame, object)
  }
  return object
}
