/**
 * @module The state of a singleton for a session, as code outside the datastore reads it (the
 * REST adapter's singleton calls): calls/session-calls.ts's, under a signature that names the
 * Datastore, which the calls, run by the Datastore, may not.
 */
import type { Session } from '../../sessions/session-api.js'
import { singletonState } from '../calls/session-calls.js'
import type { Datastore } from '../objects/datastore.js'

/**
 * The state of singleton `name` for `session`: a session singleton's is the session's own (made on
 * its first call, which establishes it), a shared singleton's the datastore's.
 * @throws DatastoreError SessionSingletonWithoutSession (9152) for a session singleton and no session
 */
export function singletonStateFor(
  ds: Datastore,
  name: string,
  session: Session | undefined,
): unknown {
  return singletonState(ds, name, session)
}
