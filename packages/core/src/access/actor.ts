/**
 * @module Who acts: the session a request is served for, the privileges that functions on the
 * call stack promote, and the rule (access-rule.ts) that decides for them. Every check of a
 * request goes through its Actor: the REST interface's, and those of the ORDA code the request
 * runs (a function, an entity event, a computed attribute, `restrict`). An answer is kept for the
 * Actor's life (one request, or one promotion within it), and forgotten when the session's user
 * changes (a login in `authentify`).
 *
 * An Actor only decides; which Actor acts now is acting.ts's business (an async context).
 */
import { fail } from '../errors/datastore-error.js'
import { ownerText, type FunctionInfo } from '../functions/registry.js'
import type { LockOwner } from '../locks/lock-table.js'
import type { AttributeDef, DataClassDef, SchemaDef } from '../schema/definitions.js'
import { heldPrivileges } from '../sessions/session-privileges.js'
import type { Session } from '../sessions/session-api.js'
import type { AuthUser } from '../sessions/session-api.js'
import { sessionUser, userIdentity } from '../sessions/session-user.js'
import type { Roles } from '../roles/roles.js'
import { AccessLog } from './access-log.js'
import type { AccessRule } from './access-rule.js'
import type { PermissionAction, PermissionTarget } from './authorize.js'

/** What an Actor is made of. */
export interface ActorOptions {
  /** What it acts on (a Datastore): an actor of one datastore checks nothing of another. */
  readonly scope: object
  readonly schema: SchemaDef
  /** The session it acts for. */
  readonly session: Session
  /** Who its writes and locks belong to (the session, with its client for `lockInfo`). */
  readonly owner?: LockOwner | undefined
  /** What decides; undefined: everything is allowed (restrict still applies). */
  readonly rule: AccessRule | undefined
  /** Privileges (lowercased) held besides the session's own while a function promotes them. */
  readonly promoted?: ReadonlySet<string>
}

const NONE: ReadonlySet<string> = new Set()

// A number per roles file, for views: two datastores' files are two views' worth apart.
const rolesNumbers = new WeakMap<Roles, number>()
let lastRolesNumber = 0
const rolesNumber = (roles: Roles): number => {
  let n = rolesNumbers.get(roles)
  if (n === undefined) rolesNumbers.set(roles, (n = ++lastRolesNumber))
  return n
}

const isRelation = (attr: AttributeDef): attr is Extract<AttributeDef, { target: string }> =>
  attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities'

export class Actor {
  readonly scope: object
  readonly schema: SchemaDef
  readonly session: Session
  readonly owner: LockOwner | undefined
  readonly rule: AccessRule | undefined
  /** Privileges added while the functions on the call stack run (their `promote`). */
  readonly promoted: ReadonlySet<string>
  readonly #answers = new Map<string, boolean>()
  readonly #readable = new Map<AttributeDef, boolean>()
  // The user the answers were given for, and the privileges they held.
  #user: AuthUser | undefined
  #privileges: ReadonlySet<string> | undefined
  #view: string | undefined
  // What it is asked from `record()` on (what a kept entity set needed: access-log.ts).
  #log: AccessLog | undefined

  constructor(options: ActorOptions) {
    this.scope = options.scope
    this.schema = options.schema
    this.session = options.session
    this.owner = options.owner
    this.rule = options.rule
    this.promoted = options.promoted ?? NONE
    this.#user = sessionUser(this.session)
  }

  /** Whether anything is checked: false when no rule applies (every `may` is true). */
  get checks(): boolean {
    return this.rule !== undefined
  }

  /**
   * This actor with `privileges` (lowercased) held besides, for a function with `promote` while it
   * runs: a new Actor with answers of its own; this one is unchanged.
   */
  promote(privileges: ReadonlySet<string>): Actor {
    let more = false
    for (const p of privileges) if (!this.promoted.has(p)) more = true
    if (!more) return this
    return new Actor({
      scope: this.scope,
      schema: this.schema,
      session: this.session,
      owner: this.owner,
      rule: this.rule,
      promoted: new Set([...this.promoted, ...privileges]),
    })
  }

  /**
   * The roles file's privileges (lowercased) the session holds now, `guest` and the promoted ones
   * included; empty without a roles file.
   */
  get privileges(): ReadonlySet<string> {
    this.#sameUser()
    if (this.#privileges === undefined) {
      const roles = this.rule?.roles
      const own = roles && heldPrivileges(roles, this.session)
      this.#privileges =
        own === undefined
          ? this.promoted
          : this.promoted.size === 0
            ? own
            : new Set([...own, ...this.promoted])
    }
    return this.#privileges
  }

  /**
   * Who acts, as far as an answer that depends only on it may tell (a `restrict` that reads no
   * more than who the session is: orda/restrict/restrict-answers.ts): the roles file, the user (all that
   * the login put on the session) and the privileges held, promoted ones included. Two sessions of
   * one user holding the same privileges have the same view; a promotion gives another. With an
   * embedder's hook deciding too, the session itself is part of it (a hook sees all of it).
   */
  get view(): string {
    this.#sameUser()
    if (this.#view === undefined) {
      const rule = this.rule
      const who =
        rule !== undefined && rule.hooked !== false
          ? `session:${this.session.id}`
          : `user:${userIdentity(sessionUser(this.session))}`
      const roles = rule?.roles === undefined ? 0 : rolesNumber(rule.roles)
      this.#view = `${roles}\u0000${who}\u0000${[...this.privileges].sort().join(',')}`
    }
    return this.#view
  }

  /**
   * Notes every permission asked of this actor from now on (and returns the log): what a request
   * that keeps an entity set needed, for another view reading the set later.
   */
  record(): AccessLog {
    return (this.#log ??= new AccessLog())
  }

  /** The log `record()` started, if any. */
  get log(): AccessLog | undefined {
    return this.#log
  }

  /**
   * The view without the roles file's number: what another process serving the same datastore (and
   * so the same roles file) computes for the same session, for what they share (entity sets).
   */
  get setView(): string {
    const view = this.view
    return view.slice(view.indexOf('\u0000') + 1)
  }

  /**
   * Asks each of `asked` (what another view's making of something needed: access-log.ts), as
   * that making would have: refuses with the error it would have met (1557, 1607, 1608, 1561).
   */
  needAsked(asked: readonly (readonly [string, string, string?])[]): void {
    for (const [action, dataClass, attribute] of asked) {
      const act = action as PermissionAction
      if (this.may(act, dataClass, attribute)) continue
      if (act === 'execute') fail('ExecuteRefused', [attribute ?? '', dataClass])
      if (attribute === undefined) this.need(act, dataClass)
      else if (act === 'read') fail('AttributeReadRefused', [attribute, dataClass])
      else fail('AttributeUpdateRefused', [attribute, dataClass])
    }
  }

  /** Whether the session may do `action` on the dataclass (and then on the attribute). */
  may(action: PermissionAction, dataClass: string, attribute?: string): boolean {
    const ok = this.#may(action, dataClass, attribute)
    // Only what was granted is a need: a refusal the request lived with (a restrict that could
    // not run closed its dataclass, a reply left an attribute out) made nothing depend on it.
    if (ok) this.#log?.add(action, dataClass, attribute)
    return ok
  }

  #may(action: PermissionAction, dataClass: string, attribute?: string): boolean {
    const rule = this.rule
    if (rule === undefined) return true
    this.#sameUser()
    const dcKey = `${action}\u0000${dataClass}`
    let dcOk = this.#answers.get(dcKey)
    if (dcOk === undefined) {
      dcOk = this.#ask(rule, action, { dataClass })
      this.#answers.set(dcKey, dcOk)
    }
    if (!dcOk || attribute === undefined) return dcOk
    const key = `${dcKey}\u0000${attribute}`
    let ok = this.#answers.get(key)
    if (ok === undefined) {
      ok = this.#ask(rule, action, { dataClass, attribute })
      this.#answers.set(key, ok)
    }
    return ok
  }

  /** Whether replies may show `attr` of `dc`: readable, and so is what a relation or alias reads. */
  mayRead(dc: DataClassDef, attr: AttributeDef, depth = 0): boolean {
    if (this.rule === undefined) return true
    // Recording: each permission the answer needs is asked (and so noted), none taken as kept.
    if (this.#log !== undefined) return this.#mayRead(dc, attr, depth)
    // A reply asks this for every attribute of every entity it writes: kept by the attribute's
    // own definition, no key text made.
    this.#sameUser()
    let ok = this.#readable.get(attr)
    if (ok === undefined) {
      ok = this.#mayRead(dc, attr, depth)
      if (depth === 0) this.#readable.set(attr, ok)
    }
    return ok
  }

  #mayRead(dc: DataClassDef, attr: AttributeDef, depth: number): boolean {
    if (!this.may('read', dc.name, attr.name)) return false
    if (isRelation(attr)) return this.may('read', attr.target)
    if (attr.kind === 'alias') return depth > 8 || this.#pathReadable(dc, attr.path, depth + 1)
    return true
  }

  /** Whether the catalog may show `attr` of `dc` (a relation: and its target dataclass). */
  mayDescribe(dc: DataClassDef, attr: AttributeDef): boolean {
    if (!this.may('describe', dc.name, attr.name)) return false
    return !isRelation(attr) || this.may('describe', attr.target)
  }

  /** Refuses (1557, 1558, 1559, 1560, 1609) unless the session may do `action` on the dataclass. */
  need(action: Exclude<PermissionAction, 'execute'>, dataClass: string): void {
    if (this.may(action, dataClass)) return
    switch (action) {
      case 'read':
        return fail('ReadRefused', [dataClass])
      case 'update':
        return fail('UpdateRefused', [dataClass])
      case 'create':
        return fail('CreateRefused', [dataClass])
      case 'delete':
        return fail('DeleteRefused', [dataClass])
      case 'describe':
        return fail('DescribeRefused', [dataClass])
    }
  }

  /**
   * Whether the session may call `fn`: for a function of a dataclass (its entities, its
   * selections), `execute` on the dataclass and then on the function; for a datastore or singleton
   * function, on the function.
   */
  mayExecute(fn: Pick<FunctionInfo, 'kind' | 'owner' | 'name'>): boolean {
    // Code runs: what it reads is not all told to a log (access-log.ts).
    this.#log?.add('execute', fn.owner, fn.name)
    const rule = this.rule
    if (rule === undefined) return true
    const onDataClass = fn.kind !== 'dataStore' && fn.kind !== 'singleton'
    if (onDataClass && !this.may('execute', fn.owner)) return false
    const key = `execute\u0000${fn.kind}\u0000${fn.owner}\u0000${fn.name}`
    let ok = this.#answers.get(key)
    if (ok === undefined) {
      const target: PermissionTarget = onDataClass
        ? { dataClass: fn.owner, function: fn.name, applyTo: fn.kind }
        : fn.kind === 'singleton'
          ? { dataClass: '', singleton: fn.owner, function: fn.name, applyTo: fn.kind }
          : { dataClass: '', function: fn.name, applyTo: fn.kind }
      ok = this.#ask(rule, 'execute', target)
      this.#answers.set(key, ok)
    }
    return ok
  }

  /** Refuses with 1561 unless the session may call `fn`. */
  needExecute(fn: Pick<FunctionInfo, 'kind' | 'owner' | 'name'>): void {
    if (!this.mayExecute(fn)) fail('ExecuteRefused', [fn.name, ownerText(fn)])
  }

  /** Refuses with 1608 unless the session may update `attribute` of `dataClass`. */
  needUpdate(dataClass: string, attribute: string): void {
    if (!this.may('update', dataClass, attribute))
      fail('AttributeUpdateRefused', [attribute, dataClass])
  }

  /**
   * Refuses with 1608 unless the session may create an entity of `dataClass` with a value in
   * `attribute` (4D: an attribute's `create` is "create an entity with a value different from the
   * default value").
   */
  needCreate(dataClass: string, attribute: string): void {
    if (!this.may('create', dataClass, attribute))
      fail('AttributeUpdateRefused', [attribute, dataClass])
  }

  /**
   * Refuses a named attribute the session may not read: 1607 for the attribute, 1557 for the
   * dataclass a relation leads to. An alias is checked along its path.
   */
  needRead(dc: DataClassDef, attr: AttributeDef, depth = 0): void {
    if (this.rule === undefined) return
    if (!this.may('read', dc.name, attr.name)) fail('AttributeReadRefused', [attr.name, dc.name])
    if (isRelation(attr)) this.need('read', attr.target)
    else if (attr.kind === 'alias' && depth <= 8) this.needPath(dc, attr.path, depth + 1)
  }

  /**
   * Checks every step of an attribute path from `dc` (`employer.name`, `staff.salary`,
   * `extra.city`): each attribute read, each relation's dataclass read. Names that are not
   * attributes are left to the code that reports them (1500).
   */
  needPath(dc: DataClassDef, steps: readonly string[], depth = 0): void {
    if (this.rule === undefined) return
    let def: DataClassDef | undefined = dc
    for (const step of steps) {
      const attr: AttributeDef | undefined = def?.attributesByName.get(step)
      if (!def || !attr) return
      this.needRead(def, attr, depth)
      def = isRelation(attr) ? this.schema.byName.get(attr.target) : undefined
    }
  }

  #pathReadable(dc: DataClassDef, steps: readonly string[], depth: number): boolean {
    let def: DataClassDef | undefined = dc
    for (const step of steps) {
      const attr: AttributeDef | undefined = def?.attributesByName.get(step)
      if (!def || !attr) return true
      if (!this.mayRead(def, attr, depth)) return false
      def = isRelation(attr) ? this.schema.byName.get(attr.target) : undefined
    }
    return true
  }

  #ask(rule: AccessRule, action: PermissionAction, target: PermissionTarget): boolean {
    return rule(this.session, this.privileges, this.promoted, action, target) === true
  }

  // A login (or setPrivileges) on the session while the request runs changes who asks: the
  // answers given for the user before are forgotten.
  #sameUser(): void {
    const user = sessionUser(this.session)
    if (user === this.#user) return
    this.#user = user
    this.#privileges = undefined
    this.#view = undefined
    this.#answers.clear()
    this.#readable.clear()
  }
}
