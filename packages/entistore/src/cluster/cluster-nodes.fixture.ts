/**
 * @module For tests: processes of one cluster, each a datastore joined to PostgreSQL and served
 * on a free port, closed together (the server first, then its cluster) after each test.
 */
import { createDatastore, type Datastore } from '@entistore/core'
import { serve, type RunningServer, type ServeOptions } from '../serve/serve.js'
import { joinCluster, type Cluster, type ClusterOptions } from './join-cluster.js'

export interface ClusterNode {
  readonly ds: Datastore
  readonly cluster: Cluster
  readonly url: string
}

export class ClusterNodes {
  readonly #open: { cluster: Cluster; server: RunningServer }[] = []

  /**
   * A process of `model` joined as `options` say (a test's own errors ignored unless given), its
   * datastore made with `datastore` (its functions, say), served with `serving` (a test's turns).
   */
  async start(
    model: Parameters<typeof createDatastore>[0],
    options: ClusterOptions,
    datastore?: Parameters<typeof createDatastore>[1],
    serving: ServeOptions = {},
  ): Promise<ClusterNode> {
    const ds = createDatastore(model, datastore)
    const cluster = await joinCluster(ds, { pollMs: 200, onError: () => undefined, ...options })
    const server = await serve(ds, { ...serving, port: 0, wrapCore: (core) => cluster.wrap(core) })
    this.#open.push({ cluster, server })
    return { ds, cluster, url: server.url }
  }

  /** Stops one process (its server, then its cluster: a graceful stop). */
  async close(node: ClusterNode): Promise<void> {
    const at = this.#open.findIndex((n) => n.cluster === node.cluster)
    if (at < 0) return
    const [n] = this.#open.splice(at, 1)
    await n!.server.close()
    await n!.cluster.close()
  }

  /** Stops every process started so far. */
  async closeAll(): Promise<void> {
    for (const n of this.#open.splice(0)) {
      await n.server.close()
      await n.cluster.close()
    }
  }
}
