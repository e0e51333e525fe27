/**
 * @module Permissions as the REST interface asks them. The request's Actor (core's `access/`)
 * alone decides: the project's roles file and the embedder's `authorize` hooks, for the request
 * and for the code it runs. What is here only finds what a `$filter` or `$orderby` text reads, for
 * the Actor to check before anything runs (so that a refusal names the attribute: 1607).
 *
 * - A dataclass is asked first (`{ dataClass }`); an attribute (`{ dataClass, attribute }`) only once
 *   its dataclass is allowed the same action. Attributes are asked `read`, `create` (a value other
 *   than null in a creation), `update` and `describe`.
 * - A relation is read as its target: reading `employer` needs read on the attribute and on the
 *   related dataclass. An alias is read as its path.
 * - Refused: 403 with 4D's codes (1557–1561, 1607–1609). An attribute the session may not read is
 *   left out of every reply, and 1607 when a request names it (`$attributes`, `$expand`, the path,
 *   `$filter`, `$orderby`, `$compute`, `$distinct`, a lookup).
 */
import {
  orderPathsRead,
  parseCached,
  parseOrderBy,
  pathsRead,
  type Actor,
  type DataClassDef,
} from '@entistore/core'

export type { Authorize, PermissionAction, PermissionTarget } from '@entistore/core'

/** A request's permissions: its Actor, when a rule applies (a roles file, an `authorize` hook). */
export type Permissions = Actor

/**
 * Refuses a `$filter` (with its `order by`) that reads what the session may not read. `params`
 * are the `$params` values, which hold the paths of placeholders written where a path goes.
 */
export function needFilter(
  perms: Permissions | undefined,
  dc: DataClassDef,
  text: string,
  source: string,
  params: readonly unknown[] | undefined,
): void {
  if (!perms?.checks) return
  const filled = { values: { params }, dataClass: dc.name }
  needPaths(perms, dc, pathsRead(parseCached(text, source), filled))
}

/** Refuses an `$orderby` that reads what the session may not read. */
export function needOrderBy(
  perms: Permissions | undefined,
  dc: DataClassDef,
  text: string,
  source: string,
): void {
  if (perms?.checks) needPaths(perms, dc, orderPathsRead(parseOrderBy(text, source)))
}

function needPaths(
  perms: Permissions,
  dc: DataClassDef,
  paths: readonly (readonly string[])[],
): void {
  for (const path of paths) perms.needPath(dc, path)
}
