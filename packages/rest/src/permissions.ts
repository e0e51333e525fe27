/**
 * @module Permissions as the REST interface asks them. The request's Actor (core's `access/`)
 * alone decides: the project's roles file and the embedder's `authorize` hooks, for the request
 * and for the code it runs.
 *
 * - A dataclass is asked first (`{ dataClass }`); an attribute (`{ dataClass, attribute }`) only once
 *   its dataclass is allowed the same action. Attributes are asked `read`, `create` (a value other
 *   than null in a creation), `update` and `describe`.
 * - A relation is read as its target: reading `employer` needs read on the attribute and on the
 *   related dataclass. An alias is read as its path.
 * - Refused: 403 with 4D's codes (1557–1561, 1607–1609). An attribute the session may not read is
 *   left out of every reply, and 1607 when a request names it (`$attributes`, `$expand`, the path,
 *   `$compute`, `$distinct`, a lookup) or a query reads it: `$filter`, `$orderby` and the like are
 *   checked by core's binding of the query, on every attribute it finally reads (through an alias,
 *   or what a computed attribute's `query` or `orderBy` function returned), as the request's Actor.
 */
import type { Actor } from '@entistore/core'

export type { Authorize, PermissionAction, PermissionTarget } from '@entistore/core'

/** A request's permissions: its Actor, when a rule applies (a roles file, an `authorize` hook). */
export type Permissions = Actor
