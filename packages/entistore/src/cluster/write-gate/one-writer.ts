/**
 * @module The one-writer scheme put together for one process (joinCluster's `oneWriter`): the
 * lease (who writes), the role over time, the link (where forwarded writes arrive, and how they
 * are sent), the answering of forwarded writes when this process writes, and their forwarding
 * when it does not.
 *
 * The pieces each have their own module; what is here is only the wiring, and the three things a
 * new writer does before it takes a write (writer-role.ts's `onWriter`): apply the whole log
 * (every append of the old term is committed or fenced by then), learn the replies of the
 * forwarded writes the log holds, and fence its own appends with its term.
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RestReply, RestRequest, Schedule } from '@entistore/rest'
import { LoggedReplies, WriteAnswering } from './answering.js'
import { listenForWrites, WriteSender } from './forward-link.js'
import { fromLoggedReply, toForwardedReply } from './forwarded.js'
import { WriteForwarding } from './forwarding.js'
import { WriterLease, type WriterLeaseOptions } from './writer-lease.js'
import { WriterRole } from './writer-role.js'
import type { OneWriterOptions } from './one-writer-options.js'

/** What one-writer needs of the process it runs in (joinCluster's pieces). */
export interface OneWriterHost {
  readonly connection: WriterLeaseOptions['connection']
  readonly schema: string
  readonly prefix: string
  readonly origin: string
  readonly schedule: Schedule
  readonly now: () => number
  readonly onError: (error: Error) => void
  /** Applies the whole log now. */
  catchUp(): Promise<void>
  /** Resolves once this process applied the log up to `at`. */
  applied(at: number): Promise<void>
  /** The ids and replies of the last forwarded writes the log holds, newest first. */
  loggedReplies(limit: number): Promise<{ seq: number; request: string; reply: string }[]>
  /** The fence this process's appends carry from now on (undefined: it is not the writer). */
  writeUnder(fence: string | undefined): void
  /** Runs a write forwarded here, its id and reply logged with it. */
  answerForwarded(request: RestRequest, id: string): Promise<{ value: RestReply; at: number }>
}

/** How many forwarded writes' replies a writer keeps in memory (and reads at a takeover). */
const REPLIES_KEPT = 100_000

export interface OneWriter {
  readonly role: WriterRole
  readonly lease: WriterLease
  /** Whether this process runs writes now. */
  readonly isWriter: boolean
  /** Sends a write to the writer; resolves with its reply once applied here. */
  forward(request: RestRequest): Promise<RestReply>
  close(): Promise<void>
}

export async function startOneWriter(
  host: OneWriterHost,
  options: OneWriterOptions = {},
): Promise<OneWriter> {
  const socket =
    options.listen === undefined
      ? join(tmpdir(), `entistore-w-${host.origin.replace(/[^\w.-]/g, '_').slice(-60)}.sock`)
      : undefined
  if (socket !== undefined) rmSync(socket, { force: true }) // left by a process that was killed
  const replies = new LoggedReplies(REPLIES_KEPT)
  // Created before the lease, which writes its address: the token it checks is the lease's.
  let lease: WriterLease | undefined
  let role: WriterRole | undefined
  const answering = new WriteAnswering({
    isWriter: () => role?.isWriter === true,
    replies,
    run: async (request, id) => {
      const { value, at } = await host.answerForwarded(request, id)
      replies.add(id, toForwardedReply(value, at))
      return { reply: value, at }
    },
  })
  const listener = await listenForWrites({
    address: options.listen ?? `unix:${socket}`,
    token: () => lease?.token ?? '',
    answer: (write) => answering.answer(write),
  })
  const started = new WriterLease({
    connection: host.connection,
    schema: host.schema,
    prefix: host.prefix,
    origin: host.origin,
    address: advertised(options.advertise, listener.address),
    now: host.now,
    ...(options.beatMs === undefined ? {} : { beatMs: options.beatMs }),
    ...(options.staleMs === undefined ? {} : { staleMs: options.staleMs }),
    onFenced: (why) => role?.fenced(why),
  })
  lease = started
  const sender = new WriteSender(
    options.forwardTimeoutMs === undefined ? {} : { timeoutMs: options.forwardTimeoutMs },
  )
  const running = new WriterRole({
    lease: started,
    schedule: host.schedule,
    onWriter: async (term) => {
      await host.catchUp()
      const logged = await host.loggedReplies(REPLIES_KEPT)
      for (const r of logged.reverse()) replies.add(r.request, fromLoggedReply(r.reply, r.seq))
      host.writeUnder(started.fence(term))
    },
    onFollower: () => host.writeUnder(undefined),
    onError: host.onError,
  })
  role = running
  const forwarding = new WriteForwarding({
    origin: host.origin,
    writer: async () => {
      await running.look()
      // This process became the writer meanwhile: the write goes to itself (the link's answering
      // runs it), so that a write that waited for a takeover is not sent to the old writer.
      const term = started.term
      if (running.isWriter && term !== undefined)
        return { term, address: started.address, token: started.token }
      return running.writer
    },
    sender,
    applied: (at) => host.applied(at),
    now: host.now,
    wait: (ms) => new Promise((resolve) => host.schedule(resolve, ms)),
    ...(options.failoverMs === undefined ? {} : { failoverMs: options.failoverMs }),
  })
  try {
    await started.ensureTable()
    await running.start()
  } catch (e) {
    running.close()
    await Promise.allSettled([listener.close(), started.close()])
    throw e
  }
  return {
    role: running,
    lease: started,
    get isWriter() {
      return running.isWriter
    },
    forward: (request) => forwarding.forward(request),
    close: async () => {
      running.close()
      sender.close()
      await listener.close()
      await started.close()
      if (socket !== undefined) rmSync(socket, { force: true })
    },
  }
}

/** `advertise` with the port the listener got when it names none; the listener's address else. */
function advertised(advertise: string | undefined, bound: string): string {
  if (advertise === undefined) return bound
  const url = new URL(advertise)
  if (url.port === '' && bound.startsWith('http:')) url.port = new URL(bound).port
  return url.origin
}
