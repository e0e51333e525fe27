/**
 * @module The embedder's permission hook, as the REST handler and `ds.actAs` take it: asked for
 * each dataclass, attribute and function a request (or the code it runs) touches.
 */
import type { FunctionKind } from '../functions/registry.js'
import type { Session } from '../sessions/session-api.js'

/**
 * What is done to a dataclass or an attribute: `read`, `create` (an entity; for an attribute, an
 * entity created with a value other than null in it), `update`, `delete`; `execute` a function;
 * `describe` (the catalog).
 */
export type PermissionAction = 'read' | 'create' | 'update' | 'delete' | 'execute' | 'describe'

/**
 * What it is done to: a dataclass, or one of its attributes; for `execute`, a function. A function
 * of a dataclass, its entities or its selections is asked with its dataclass (`{ dataClass:
 * 'Employee', function: 'raise', applyTo: 'entity' }`, after `{ dataClass: 'Employee' }` itself); a
 * datastore function with `dataClass: ''` and `applyTo: 'dataStore'`; a singleton's with
 * `dataClass: ''`, `singleton` and `applyTo: 'singleton'`.
 */
export interface PermissionTarget {
  readonly dataClass: string
  readonly attribute?: string
  /** The function called (`execute`). */
  readonly function?: string
  /** What the function applies to (`execute`). */
  readonly applyTo?: FunctionKind
  /** The singleton whose function is called (`execute`). */
  readonly singleton?: string
}

/**
 * Whether `session` may do `action` on `target`: true allows, anything else refuses. Synchronous,
 * like the whole handler; `sessionUser(session)` is the user logged in, if any. While a function
 * with `promote` runs, the session it is given also holds the promoted privileges
 * (`heldPrivileges(roles, session)` sees them).
 */
export type Authorize = (
  session: Session,
  action: PermissionAction,
  target: PermissionTarget,
) => boolean
