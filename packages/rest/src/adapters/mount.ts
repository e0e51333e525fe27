/**
 * @module What the framework adapters share: the handler they mount, and the one rule that ties a
 * framework's mount path to the handler's `basePath`. An adapter always serves the request target
 * as the client sent it (with the mount path), because `basePath` is also written into the URIs of
 * every reply (`__deferred.uri`): it must be the public path. So the mount path must be `basePath`
 * itself or a prefix of it (`/` included); requests the framework hands over that are not under
 * `basePath` are passed on to the framework's next route.
 */
import type { RestCore } from '../exchange.js'

/** What an adapter mounts: the object `createRestHandler` returns (or any core with a basePath). */
export interface MountableRest extends RestCore {
  /** Where the interface is served, without a trailing slash ('' for the root). */
  readonly basePath: string
}

/**
 * Whether the request at `path` (without its query) is the handler's: under `basePath`, or one an
 * HTTP request handler takes (`handles`). The adapters hand these over and pass the others on.
 */
export function serves(rest: MountableRest, path: string): boolean {
  return isUnder(path, rest.basePath) || rest.handles?.(path) === true
}

/** Whether `path` (a request path, without its query) is under `basePath`. */
export function isUnder(path: string, basePath: string): boolean {
  return (
    basePath === '' ||
    (path.startsWith(basePath) &&
      (path.length === basePath.length || path[basePath.length] === '/'))
  )
}

/**
 * Why a mount at `mountPath` cannot serve `basePath`, or undefined when it can: the mount path
 * must be `basePath` or one of its prefixes, segment by segment.
 */
export function mountProblem(
  framework: string,
  mountPath: string,
  basePath: string,
): string | undefined {
  const mount = mountPath.replace(/\/+$/, '')
  if (isUnder(basePath, mount)) return undefined
  return (
    `Entistore is mounted at '${mountPath}' in ${framework} but serves '${basePath || '/'}' ` +
    `(its basePath, which is also written into the URIs of its replies): mount it at ` +
    `'${basePath || '/'}', or create the handler with createRestHandler(ds, { basePath: '${mount}' })`
  )
}
