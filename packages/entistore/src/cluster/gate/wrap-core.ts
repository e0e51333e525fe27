/**
 * @module A REST core put behind the write gate: a request that writes (RequestNames.writes) is
 * answered as a write (queued for a group), or forwarded to the writer under the one-writer
 * scheme (write-gate/); any other at once, as the core answers it (a read allocates no Promise).
 * What a request names is read once, by REST's own rules, and handed to every participant's
 * beforeRequest first; their afterRequest follows its answer.
 */
import {
  isPending,
  readRequestNames,
  type RequestNames,
  type RestCore,
  type RestReply,
  type RestRequest,
  withRespond,
} from '@entistore/rest'
import { loggedReply, wholeReply } from '../write-gate/forwarded.js'
import { asClusterError } from './cluster-errors.js'
import type { GroupRunner } from './group-run.js'
import type { Participants } from './participants.js'
import type { Placed, WriteQueue } from './write-queue.js'

/**
 * The one-writer scheme (write-gate/), as the gate sees it: whether this process runs writes,
 * and how a write goes to the process that does.
 */
export interface OneWriter {
  readonly isWriter: boolean
  forward(request: RestRequest): Promise<RestReply>
}

/** The pieces of the gate a wrapped core answers through. */
export interface WrapGate {
  readonly participants: Participants
  readonly queue: WriteQueue
  readonly runner: GroupRunner
  /** The one-writer scheme, once this process takes part in it (read at every write). */
  readonly oneWriter: () => OneWriter | undefined
}

export interface Wrapped {
  readonly core: RestCore
  /** Answers a write forwarded to this process (the writer), its id and reply logged with it. */
  readonly answerForwarded: (request: RestRequest, id: string) => Promise<Placed<RestReply>>
}

/** `core` behind the gate (see the module's comment), and its entry for forwarded writes. */
export function wrapCore(core: RestCore, basePath: string, gate: WrapGate): Wrapped {
  const { participants, queue, runner } = gate
  // What a request's beforeRequest took and its answer did not keep is given back after it,
  // refusals included (a lock claimed in Redis that the core then did not take).
  const done = (
    request: RestRequest,
    reply: RestReply | Promise<RestReply>,
  ): RestReply | Promise<RestReply> => {
    const after = participants.after
    if (after.length === 0) return reply
    if (!isPending(reply)) {
      for (const p of after) p.afterRequest!(request)
      return reply
    }
    return reply.then((r) => {
      for (const p of after) p.afterRequest!(request)
      return r
    })
  }
  const answer = (request: RestRequest, names: RequestNames): RestReply | Promise<RestReply> => {
    if (names.writes) {
      const writer = gate.oneWriter()
      if (writer && !writer.isWriter) {
        // A process that cannot vouch for what it holds (cut off, behind) could not apply the
        // write's reply before answering: refused before it is sent, so it is never applied.
        const unreadable = participants.guards.length === 0 ? undefined : participants.readError()
        if (unreadable) return done(request, core.refuse(unreadable))
        return done(request, forward(core, writer, request))
      }
      return done(request, respondWrite(core, queue, request, names.dataWrite))
    }
    // Not while a group that may yet be undone is in memory (see GroupRunner's speculative);
    // again after it, since the next group may have begun by then.
    if (runner.speculative !== undefined)
      return runner.speculative.then(() => answer(request, names))
    // A read is answered here only while this process holds every acknowledged write.
    const unreadable = participants.guards.length === 0 ? undefined : participants.readError()
    return done(request, unreadable ? core.refuse(unreadable) : core.respond(request))
  }
  const refuse = (request: RestRequest, e: unknown) => done(request, core.refuse(asClusterError(e)))
  // A write forwarded here: prepared as any request, run in a group, its reply made whole there
  // (it travels, and is logged) and its id and reply logged with it.
  const answerForwarded = async (request: RestRequest, id: string) => {
    const names = readRequestNames(request, basePath)
    try {
      await prepare(participants, request, names)
      const placed = await queue.enqueueTagged(
        () => wholeReply(core.respond(request)),
        names.dataWrite,
        { id, text: (reply) => loggedReply(reply as RestReply) },
      )
      return { value: await done(request, placed.value), at: placed.at }
    } catch (e) {
      return { value: await refuse(request, e), at: participants.position() }
    }
  }
  const wrapped = withRespond(core, (request) => {
    const names = readRequestNames(request, basePath)
    let prepared: Promise<void> | undefined
    try {
      prepared = prepare(participants, request, names)
    } catch (e) {
      return refuse(request, e)
    }
    if (prepared === undefined) return answer(request, names)
    return prepared.then(
      () => answer(request, names),
      (e: unknown) => refuse(request, e),
    )
  })
  return { core: wrapped, answerForwarded }
}

/** The participants' beforeRequest, together: undefined when none has anything to wait for. */
function prepare(
  participants: Participants,
  request: RestRequest,
  names: RequestNames,
): Promise<void> | undefined {
  let waits: Promise<void>[] | undefined
  for (const p of participants.before) {
    const wait = p.beforeRequest!(request, names)
    if (wait !== undefined) (waits ??= []).push(wait)
  }
  return waits && Promise.all(waits).then(() => undefined)
}

async function respondWrite(
  core: RestCore,
  queue: WriteQueue,
  request: RestRequest,
  again: boolean,
): Promise<RestReply> {
  try {
    return await queue.enqueue(() => core.respond(request), again)
  } catch (e) {
    return core.refuse(asClusterError(e))
  }
}

async function forward(
  core: RestCore,
  writer: OneWriter,
  request: RestRequest,
): Promise<RestReply> {
  try {
    return await writer.forward(request)
  } catch (e) {
    return core.refuse(asClusterError(e))
  }
}
