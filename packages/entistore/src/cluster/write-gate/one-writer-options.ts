/**
 * @module joinCluster's `oneWriter` settings, in a module that imports nothing: the modules that
 * run one-writer use pg (an optional peer dependency, see ../optional-package.ts), and the
 * declarations a user compiles against must name none of its types (join-cluster.d.ts imports
 * this file, not one-writer.d.ts).
 */
export interface OneWriterOptions {
  /**
   * Where this process takes forwarded writes: `unix:/path.sock` (the workers of one machine) or
   * `http://host:port` (port 0: any free one). @default a Unix socket in the OS's temp folder
   */
  readonly listen?: string
  /**
   * The address the others reach it at, if not the one it listens on (listening on 0.0.0.0, a
   * NAT): `http://host:port`, or `http://host` for the port it listens on (port 0 included).
   */
  readonly advertise?: string
  /** How often the writer beats and the others look. @default 500 */
  readonly beatMs?: number
  /** A writer whose beat stopped this long is taken over. @default 2000 */
  readonly staleMs?: number
  /** How long a write looks for a writer before it is refused, not applied. @default 5000 */
  readonly failoverMs?: number
  /** How long the answer of a forwarded write is waited for before it is sent again. @default 10000 */
  readonly forwardTimeoutMs?: number
}
