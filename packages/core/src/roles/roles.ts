/**
 * @module A 4D project's `roles.json` (4D 20+, Qodly): privileges, roles that gather them, and the
 * permissions that name, for each resource (the datastore, a dataclass, an attribute, a function,
 * a singleton), which privileges may read, create, update, drop, execute it or are promoted while
 * it runs. Read as 4D writes it; `describe` is accepted and ignored (4D 20 R7 stopped checking it).
 *
 * How a permission is decided, as 4D's documentation states it:
 * - a dataclass's entry for an action overrides the datastore's (`ds`); with neither, the resource
 *   is open, unless `restrictedByDefault` (4D 21) closes it;
 * - an attribute's entry is added to its dataclass's: both must allow;
 * - a function's entry overrides its dataclass's `execute` (or the datastore's, for a datastore
 *   function; a singleton's for its functions); a singleton's overrides the datastore's;
 * - update and drop also need read (create does not);
 * - `authentify`, the datastore's login function, is always executable.
 *
 * Privilege and role names compare without regard to case, as in 4D. A session holds privileges;
 * a privilege's `includes` are held with it, a role stands for its privileges. Every session holds
 * `guest` (Qodly: "all users, including public users, have the guest privilege").
 */
import { fail } from '../errors/datastore-error.js'

/** The actions a roles file grants. */
export type RolesAction = 'read' | 'create' | 'update' | 'drop' | 'execute' | 'promote'

/** The kinds of resources a permission applies to (`type`). */
export type RolesResourceType =
  'datastore' | 'dataclass' | 'attribute' | 'method' | 'singletonMethod' | 'singleton'

/** A roles file as 4D writes it (`<project>/Project/Sources/roles.json`). */
export interface RolesJson {
  readonly privileges: readonly {
    readonly privilege: string
    readonly includes?: readonly string[]
  }[]
  readonly roles?: readonly { readonly role: string; readonly privileges?: readonly string[] }[]
  readonly permissions: { readonly allowed: readonly RolesPermissionJson[] }
  /** 4D 21: resources without a permission entry are closed. @default false */
  readonly restrictedByDefault?: boolean
  /** 4D 20 R5: a session must log in before anything but `$catalog` and `authentify`. */
  readonly forceLogin?: boolean
}

/** One entry of `permissions.allowed`. */
export interface RolesPermissionJson {
  readonly applyTo: string
  readonly type: RolesResourceType
  readonly read?: readonly string[]
  readonly create?: readonly string[]
  readonly update?: readonly string[]
  readonly drop?: readonly string[]
  readonly execute?: readonly string[]
  readonly promote?: readonly string[]
  /** Ignored since 4D 20 R7. */
  readonly describe?: readonly string[]
}

/** What a permission is asked about. */
export type RolesResource =
  | { readonly type: 'dataclass'; readonly dataClass: string }
  | { readonly type: 'attribute'; readonly dataClass: string; readonly attribute: string }
  /** A function of a dataclass (its entities, its selections), or of the datastore (`dataClass: ''`). */
  | { readonly type: 'method'; readonly dataClass: string; readonly name: string }
  | { readonly type: 'singletonMethod'; readonly singleton: string; readonly name: string }

const ACTIONS: readonly RolesAction[] = ['read', 'create', 'update', 'drop', 'execute', 'promote']
const TYPES: ReadonlySet<string> = new Set([
  'datastore',
  'dataclass',
  'attribute',
  'method',
  'singletonMethod',
  'singleton',
])
const KNOWN_KEYS: ReadonlySet<string> = new Set(['applyTo', 'type', 'describe', ...ACTIONS])

/** The privilege every session holds. */
export const GUEST_PRIVILEGE = 'guest'

const norm = (name: string): string => name.toLowerCase()

/** The privileges (lowercased) each action of one resource lists. */
type Entry = Partial<Record<RolesAction, ReadonlySet<string>>>

/** A roles file, checked and ready to answer. */
export class Roles {
  /** Whether a session must log in first (`forceLogin`). */
  readonly forceLogin: boolean
  /** Whether resources without a permission entry are closed (`restrictedByDefault`). */
  readonly restrictedByDefault: boolean
  /** The declared privileges, as written. */
  readonly privilegeNames: readonly string[]
  readonly #includes = new Map<string, readonly string[]>()
  readonly #roles = new Map<string, readonly string[]>()
  // Entries by `type` then lowercased `applyTo`.
  readonly #entries = new Map<string, Map<string, Entry>>()
  /** Each permission entry's type and `applyTo` as written, and where it is in the file. */
  readonly permissions: readonly {
    readonly type: RolesResourceType
    readonly applyTo: string
    readonly where: string
  }[]

  /** Checks `json` (InvalidRoles, 9137, names the first problem and where it is). */
  constructor(json: unknown) {
    const file = object(json, 'the file')
    const privileges = list(file.privileges, 'privileges')
    this.privilegeNames = privileges.map((p, i) => {
      const where = `privileges[${i}]`
      const entry = object(p, where)
      const name = text(entry.privilege, `${where}.privilege`)
      if (this.#includes.has(norm(name)))
        invalid(where, `the privilege "${name}" is declared twice`)
      this.#includes.set(norm(name), names(entry.includes ?? [], `${where}.includes`))
      return name
    })
    for (const [i, r] of list(file.roles ?? [], 'roles').entries()) {
      const where = `roles[${i}]`
      const entry = object(r, where)
      const name = text(entry.role, `${where}.role`)
      this.#roles.set(norm(name), names(entry.privileges ?? [], `${where}.privileges`))
    }
    const permissions = object(file.permissions, 'permissions')
    const written: { type: RolesResourceType; applyTo: string; where: string }[] = []
    for (const [i, p] of list(permissions.allowed, 'permissions.allowed').entries()) {
      const where = `permissions.allowed[${i}]`
      const entry = object(p, where)
      const type = text(entry.type, `${where}.type`)
      if (!TYPES.has(type))
        invalid(`${where}.type`, `"${type}" is not one of ${[...TYPES].join(', ')}`)
      const applyTo = text(entry.applyTo, `${where}.applyTo`)
      for (const key of Object.keys(entry))
        if (!KNOWN_KEYS.has(key))
          invalid(where, `"${key}" is not an action (${ACTIONS.join(', ')}) nor applyTo or type`)
      const actions: Entry = {}
      for (const action of ACTIONS) {
        const listed = entry[action]
        if (listed !== undefined)
          actions[action] = new Set(names(listed, `${where}.${action}`).map(norm))
      }
      let byName = this.#entries.get(type)
      if (!byName) this.#entries.set(type, (byName = new Map()))
      const key = norm(applyTo)
      if (byName.has(key)) invalid(where, `"${applyTo}" (${type}) has a permission entry already`)
      byName.set(key, actions)
      written.push({ type: type as RolesResourceType, applyTo, where })
    }
    this.permissions = written
    this.restrictedByDefault = flag(file.restrictedByDefault, 'restrictedByDefault')
    this.forceLogin = flag(file.forceLogin, 'forceLogin')
  }

  /**
   * The privileges (lowercased) a session holds: `guest`, those given, those of the roles given,
   * and everything they include. Names the file does not declare are dropped, as 4D drops them.
   */
  privilegesOf(given: {
    readonly privileges?: readonly string[] | undefined
    readonly roles?: readonly string[] | undefined
  }): ReadonlySet<string> {
    const held = new Set<string>()
    const add = (name: string): void => {
      const key = norm(name)
      if (held.has(key) || !(this.#includes.has(key) || key === GUEST_PRIVILEGE)) return
      held.add(key)
      for (const included of this.#includes.get(key) ?? []) add(included)
    }
    add(GUEST_PRIVILEGE)
    for (const name of given.privileges ?? []) add(name)
    for (const role of given.roles ?? [])
      for (const name of this.#roles.get(norm(role)) ?? []) add(name)
    return held
  }

  /** The declared privileges among `held`, as the file spells them, in its order. */
  declared(held: ReadonlySet<string>): string[] {
    return this.privilegeNames.filter((name) => held.has(norm(name)))
  }

  /** Whether a session holding `held` (privilegesOf) may do `action` on `resource`. */
  allows(held: ReadonlySet<string>, action: RolesAction, resource: RolesResource): boolean {
    if (action === 'update' || action === 'drop')
      if (resource.type !== 'method' && resource.type !== 'singletonMethod')
        if (!this.allows(held, 'read', resource)) return false
    const listed = this.#decisive(action, resource)
    // An attribute without an entry of its own follows its dataclass, which was asked first.
    if (listed === undefined) return resource.type === 'attribute' || !this.restrictedByDefault
    for (const p of listed) if (held.has(p)) return true
    return false
  }

  /** The privileges (lowercased) a function's `promote` adds while it runs; empty: none. */
  promoted(
    resource: Extract<RolesResource, { type: 'method' | 'singletonMethod' }>,
  ): ReadonlySet<string> {
    const own = this.#entry(...functionEntry(resource))?.promote
    const held = new Set<string>()
    if (own)
      for (const name of own) for (const p of this.privilegesOf({ privileges: [name] })) held.add(p)
    held.delete(GUEST_PRIVILEGE)
    return held
  }

  // The privileges listed for `action` by the entry that decides for `resource`, or undefined when
  // no entry lists the action (the default decides).
  #decisive(action: RolesAction, resource: RolesResource): ReadonlySet<string> | undefined {
    const ds = this.#entry('datastore', 'ds')?.[action]
    switch (resource.type) {
      case 'dataclass':
        return this.#entry('dataclass', resource.dataClass)?.[action] ?? ds
      case 'attribute':
        // Added to the dataclass's (asked before): the attribute's own entry only, else open.
        return this.#entry('attribute', `${resource.dataClass}.${resource.attribute}`)?.[action]
      case 'method': {
        // 4D's login function runs for guests, whatever the file says.
        if (resource.dataClass === '' && norm(resource.name) === 'authentify')
          return new Set([GUEST_PRIVILEGE])
        const own = this.#entry(...functionEntry(resource))?.[action]
        if (own) return own
        return resource.dataClass === ''
          ? ds
          : (this.#entry('dataclass', resource.dataClass)?.[action] ?? ds)
      }
      case 'singletonMethod':
        return (
          this.#entry(...functionEntry(resource))?.[action] ??
          this.#entry('singleton', resource.singleton)?.[action] ??
          ds
        )
    }
  }

  #entry(type: RolesResourceType, applyTo: string): Entry | undefined {
    return this.#entries.get(type)?.get(norm(applyTo))
  }
}

// Where a function's own entry is: `ds.authentify`, `City.getPopulation`, `Shop.createID`.
function functionEntry(
  resource: Extract<RolesResource, { type: 'method' | 'singletonMethod' }>,
): [RolesResourceType, string] {
  return resource.type === 'method'
    ? ['method', `${resource.dataClass === '' ? 'ds' : resource.dataClass}.${resource.name}`]
    : ['singletonMethod', `${resource.singleton}.${resource.name}`]
}

function invalid(where: string, why: string): never {
  return fail('InvalidRoles', [where, why])
}

function object(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) invalid(where, 'expected an object')
  return v as Record<string, unknown>
}

function list(v: unknown, where: string): readonly unknown[] {
  if (!Array.isArray(v)) invalid(where, 'expected an array')
  return v
}

function text(v: unknown, where: string): string {
  if (typeof v !== 'string' || v.trim() === '') invalid(where, 'expected a name')
  return v
}

function names(v: unknown, where: string): string[] {
  return list(v, where).map((name, i) => text(name, `${where}[${i}]`))
}

function flag(v: unknown, where: string): boolean {
  if (v === undefined) return false
  if (typeof v !== 'boolean') invalid(where, 'expected true or false')
  return v
}
