/**
 * @module A RestCore in front of the handler that lets one cluster participant (Redis) take part
 * in each request, as participant.ts describes: `beforeRequest`, then for a write (a POST) the
 * process's write gate with `beforeWrite` and `afterWrite` around the core's `respond`, then
 * `afterRequest`. Minimal on purpose: the cluster wrapper (cluster-core.ts, with PostgreSQL's
 * participant) is the general one, and this folds into it.
 *
 * A request that names nothing shared and writes nothing is answered synchronously, as without
 * the wrapper: no Promise on the read path. A participant that fails answers 503 with its error.
 */
import type { RequestListener } from 'node:http'
import type { LogRecord } from '@entistore/core'
import { isPending, type RestCore, type RestReply, type RestRequest } from '@entistore/rest'
import { toNodeListener } from '@entistore/rest/node'
import type { ClusterParticipant } from './participant.js'

/** `core` with `participant` taking part in its requests. */
export function withParticipant(core: RestCore, participant: ClusterParticipant): RestCore {
  // One write at a time in this process: a write's checks see the state its beforeWrite fetched.
  let gate: Promise<unknown> = Promise.resolve()

  const after = (request: RestRequest, reply: RestReply | Promise<RestReply>) => {
    if (!participant.afterRequest) return reply
    if (!isPending(reply)) {
      participant.afterRequest(request)
      return reply
    }
    return reply.then((r) => (participant.afterRequest!(request), r))
  }

  const write = async (request: RestRequest): Promise<RestReply> => {
    await participant.beforeWrite?.()
    // The records this write committed are PostgreSQL's business (cluster-core.ts): none here.
    const records: LogRecord[] = []
    const reply = await core.respond(request)
    await participant.afterWrite?.(records)
    return reply
  }

  const slow = async (
    request: RestRequest,
    before: Promise<void> | undefined,
    writes: boolean,
  ): Promise<RestReply> => {
    try {
      await before
      if (!writes) return await after(request, core.respond(request))
      const turn = gate.then(() => write(request))
      gate = turn.catch(() => undefined)
      return await after(request, await turn)
    } catch (error) {
      participant.afterRequest?.(request)
      return core.refuse(error)
    }
  }

  return {
    maxBodyBytes: core.maxBodyBytes,
    ...(core.bodyLimit ? { bodyLimit: core.bodyLimit.bind(core) } : {}),
    respond(request) {
      let before: Promise<void> | undefined
      try {
        before = participant.beforeRequest?.(request)
      } catch (error) {
        return core.refuse(error)
      }
      const writes = request.method === 'POST'
      if (before === undefined && !writes) return after(request, core.respond(request))
      return slow(request, before, writes)
    },
    refuse: (error) => core.refuse(error),
  }
}

/**
 * A node listener for `core` with `participant` taking part: what `serve`'s `wrapListener` is
 * given by `entistore serve --redis` (the listener it is handed is replaced, not wrapped).
 */
export function participantListener(
  core: RestCore,
  participant: ClusterParticipant,
): RequestListener {
  return toNodeListener(withParticipant(core, participant))
}
