/**
 * @module REST replies sent only once the writes they acknowledge are safe. A record written off
 * the event loop (a picture: see journal.ts) is not on disk when its commit returns: the reply of
 * a request that committed something waits until every record so far is (its own and those
 * before it, which it may build on). A request that committed nothing — a read — answers at once,
 * even while a picture is being written: it may show a write whose reply is still waiting, as
 * with fsync 'batch', but nothing it shows is acknowledged to its writer before it is on disk.
 */
import { isPending, withRespond, type RestCore, type RestReply } from '@entistore/rest'

/** What the replies wait on: a Persistence. */
export interface DurabilitySource {
  /** The number of the last record handed to the journal: it moves with every commit. */
  readonly lsn: number
  /** Whether some record is not yet as safe as the fsync mode promises. */
  readonly pending: boolean
  /** Resolves once every record so far is; rejects with JournalFailed if they cannot be. */
  durable(): Promise<void>
}

/** `core`, the replies of requests that wrote held until `source` has them safe. */
export function durableReplies(core: RestCore, source: DurabilitySource): RestCore {
  const settle = (reply: RestReply, before: number): RestReply | Promise<RestReply> =>
    source.lsn !== before && source.pending
      ? source.durable().then(
          () => reply,
          // The write is in memory but not on disk: not acknowledged (503, JournalFailed).
          (error: unknown) => core.refuse(error),
        )
      : reply
  return withRespond(core, (request) => {
    // A function answered later may commit while it runs: what it committed is counted when it
    // settles (with whatever others committed meanwhile, which only makes it wait longer).
    const before = source.lsn
    const reply = core.respond(request)
    return isPending(reply) ? reply.then((r) => settle(r, before)) : settle(reply, before)
  })
}
