/**
 * @module Issue 46: a reference model of 4D's permission decision, written from the documents
 * alone (docs/security.md "A 4D project's roles.json", docs/compat.md "Permissions",
 * shared/research/4d-model-features.md §1) and on purpose NOT from roles.ts: property tests ask
 * both and compare (roles.prop.test.ts), and the REST attack (rest/src/clients/privileges.prop.test.ts)
 * decides with it alone what every request may do.
 *
 * It is written the slow, literal way: every question scans `permissions.allowed` again, each
 * documented rule is one line, and the attribute decision includes its dataclass's (the document's
 * "added to its dataclass's: both must allow"), where roles.ts leaves that to its caller.
 *
 * Also here: `rolesFileArb`, a generator of roles files over any set of names, shared by both
 * property tests. Its choices keep a shrunk counterexample readable: a file shrinks to few entries,
 * an action to "not listed", a list to few names.
 */
import fc from 'fast-check'
import type { RolesJson, RolesPermissionJson } from './roles.js'

/** The actions the reference decides. */
export type RefAction = 'read' | 'create' | 'update' | 'drop' | 'execute'

/** What is asked about. An attribute is asked with its dataclass: the answer includes both. */
export type RefResource =
  | { readonly type: 'dataclass'; readonly dataClass: string }
  | { readonly type: 'attribute'; readonly dataClass: string; readonly attribute: string }
  /** A function of a dataclass (its entities, its selections); of the datastore: `dataClass: ''`. */
  | { readonly type: 'method'; readonly dataClass: string; readonly name: string }
  | { readonly type: 'singletonMethod'; readonly singleton: string; readonly name: string }

const lower = (s: string): string => s.toLowerCase()

/** The documented rules over one roles file, read literally. */
export class RefRoles {
  readonly file: RolesJson
  constructor(file: RolesJson) {
    this.file = file
  }

  /** Whether the file declares `name` as a privilege (names compare without case). */
  declares(name: string): boolean {
    return this.file.privileges.some((p) => lower(p.privilege) === lower(name))
  }

  /**
   * The privileges (lowercased) a session holds when given `privileges` and `roles`: `guest`
   * always ("every session holds guest"), the declared ones among those given and among the
   * roles' privileges ("names the file does not declare are dropped"), and what they include,
   * repeatedly.
   */
  held(given: {
    readonly privileges?: readonly string[]
    readonly roles?: readonly string[]
  }): Set<string> {
    const start = ['guest', ...(given.privileges ?? [])]
    for (const role of given.roles ?? [])
      for (const r of this.file.roles ?? [])
        if (lower(r.role) === lower(role)) start.push(...(r.privileges ?? []))
    return this.#closure(start)
  }

  // Each declared name of `names`, and what it includes, to a fixed point; `guest` is kept
  // whether declared or not.
  #closure(names: readonly string[]): Set<string> {
    const held = new Set<string>()
    let todo = [...names]
    while (todo.length > 0) {
      const next: string[] = []
      for (const name of todo) {
        const key = lower(name)
        if (held.has(key)) continue
        if (key !== 'guest' && !this.declares(name)) continue
        held.add(key)
        for (const p of this.file.privileges)
          if (lower(p.privilege) === key) next.push(...(p.includes ?? []))
      }
      todo = next
    }
    return held
  }

  /** The list an entry gives for `action`, undefined when no entry of that type and name lists it. */
  #listed(type: string, applyTo: string, action: string): readonly string[] | undefined {
    const entry = this.file.permissions.allowed.find(
      (e) => e.type === type && lower(e.applyTo) === lower(applyTo),
    )
    return entry?.[action as keyof RolesPermissionJson] as readonly string[] | undefined
  }

  // A list allows a session that holds one of its names; an empty list allows nobody (compat.md).
  #grants(list: readonly string[], held: ReadonlySet<string>): boolean {
    return list.some((p) => held.has(lower(p)))
  }

  // No entry: open, or closed by restrictedByDefault (4D 21).
  #byDefault(): boolean {
    return this.file.restrictedByDefault !== true
  }

  // A dataclass's own entry for the action, else the datastore's, else the default.
  #dataClass(held: ReadonlySet<string>, action: RefAction, dataClass: string): boolean {
    const list =
      this.#listed('dataclass', dataClass, action) ?? this.#listed('datastore', 'ds', action)
    return list === undefined ? this.#byDefault() : this.#grants(list, held)
  }

  // An attribute's own entry, added to its dataclass's: without one it adds nothing.
  #attributeOwn(held: ReadonlySet<string>, action: RefAction, path: string): boolean {
    const list = this.#listed('attribute', path, action)
    return list === undefined ? true : this.#grants(list, held)
  }

  /** Whether a session holding `held` may do `action` on `resource`. */
  may(held: ReadonlySet<string>, action: RefAction, resource: RefResource): boolean {
    switch (resource.type) {
      case 'dataclass': {
        // "update and drop permissions also need read permission (but create does not)".
        if (
          (action === 'update' || action === 'drop') &&
          !this.#dataClass(held, 'read', resource.dataClass)
        )
          return false
        return this.#dataClass(held, action, resource.dataClass)
      }
      case 'attribute': {
        const path = `${resource.dataClass}.${resource.attribute}`
        if (!this.may(held, action, { type: 'dataclass', dataClass: resource.dataClass }))
          return false
        if ((action === 'update' || action === 'drop') && !this.#attributeOwn(held, 'read', path))
          return false
        return this.#attributeOwn(held, action, path)
      }
      case 'method': {
        if (action !== 'execute') return false
        // "authentify, the datastore's login function, always runs".
        if (resource.dataClass === '' && lower(resource.name) === 'authentify') return true
        const own = this.#listed(
          'method',
          `${resource.dataClass === '' ? 'ds' : resource.dataClass}.${resource.name}`,
          'execute',
        )
        const list =
          own ??
          (resource.dataClass === ''
            ? this.#listed('datastore', 'ds', 'execute')
            : (this.#listed('dataclass', resource.dataClass, 'execute') ??
              this.#listed('datastore', 'ds', 'execute')))
        return list === undefined ? this.#byDefault() : this.#grants(list, held)
      }
      case 'singletonMethod': {
        if (action !== 'execute') return false
        const list =
          this.#listed('singletonMethod', `${resource.singleton}.${resource.name}`, 'execute') ??
          this.#listed('singleton', resource.singleton, 'execute') ??
          this.#listed('datastore', 'ds', 'execute')
        return list === undefined ? this.#byDefault() : this.#grants(list, held)
      }
    }
  }

  /**
   * What a session holding `held` holds while the function runs: `held`, and the function's
   * `promote` privileges with what they include (declared names only).
   */
  whileRunning(
    held: ReadonlySet<string>,
    fn: Extract<RefResource, { type: 'method' | 'singletonMethod' }>,
  ): Set<string> {
    const applyTo =
      fn.type === 'method'
        ? `${fn.dataClass === '' ? 'ds' : fn.dataClass}.${fn.name}`
        : `${fn.singleton}.${fn.name}`
    const promote = this.#listed(fn.type, applyTo, 'promote') ?? []
    return new Set([...held, ...this.#closure(promote)])
  }

  /** The declared privileges among `held`, as the file spells them, in its order. */
  declared(held: ReadonlySet<string>): string[] {
    return this.file.privileges.map((p) => p.privilege).filter((name) => held.has(lower(name)))
  }
}

// ---- generating roles files

/** The names a generated roles file may speak of. */
export interface RolesUniverse {
  readonly dataClasses: readonly {
    readonly name: string
    readonly attributes: readonly string[]
  }[]
  /** Functions by applyTo: `ds.report`, `Employee.top`. */
  readonly methods: readonly string[]
  /** `Stats.next` (singletonMethod); the singleton is the part before the dot. */
  readonly singletonMethods?: readonly string[]
  /** How many privileges the file declares (p0, p1, …). @default 4 */
  readonly privileges?: number
}

/** A generated file, with the privilege names the users and roles of a test draw from. */
export interface GeneratedRoles {
  readonly file: RolesJson
  /** Declared names, as spelled in the file. */
  readonly privileges: readonly string[]
  /** Names a grant may list: the declared, `guest`, and one the file never declares. */
  readonly names: readonly string[]
  readonly roles: readonly string[]
}

// A name spelled as written, or in capitals: names compare without case.
const spelled = (names: readonly string[]) =>
  fc.constantFrom(...names).chain((n) => fc.constantFrom(n, n.toUpperCase()))

const grant = (names: readonly string[]) =>
  fc.option(fc.uniqueArray(spelled(names), { maxLength: 3, selector: lower }), {
    nil: undefined,
    freq: 2,
  })

/** A roles file over `universe`, in 4D's format; it always parses. */
export function rolesFileArb(universe: RolesUniverse): fc.Arbitrary<GeneratedRoles> {
  const declared = Array.from({ length: universe.privileges ?? 4 }, (_, i) => `p${i}`)
  const names = [...declared, 'guest', 'ghost']
  const resources: { type: RolesPermissionJson['type']; applyTo: string }[] = [
    { type: 'datastore', applyTo: 'ds' },
    ...universe.dataClasses.map((dc) => ({ type: 'dataclass' as const, applyTo: dc.name })),
    ...universe.dataClasses.flatMap((dc) =>
      dc.attributes.map((a) => ({ type: 'attribute' as const, applyTo: `${dc.name}.${a}` })),
    ),
    ...universe.methods.map((m) => ({ type: 'method' as const, applyTo: m })),
    ...(universe.singletonMethods ?? []).flatMap((m) => [
      { type: 'singletonMethod' as const, applyTo: m },
      { type: 'singleton' as const, applyTo: m.split('.')[0]! },
    ]),
  ]
  const entry = fc
    .record({
      at: fc.nat({ max: resources.length - 1 }),
      read: grant(names),
      create: grant(names),
      update: grant(names),
      drop: grant(names),
      execute: grant(names),
      promote: grant(names),
    })
    .map(({ at, ...actions }): RolesPermissionJson => {
      const { type, applyTo } = resources[at]!
      // Only the actions a resource of this type has: 4D's table (an attribute is read, created,
      // updated, dropped; a function executed and promoting).
      const keep: readonly string[] =
        type === 'method' || type === 'singletonMethod'
          ? ['execute', 'promote']
          : type === 'singleton'
            ? ['execute']
            : type === 'attribute'
              ? ['read', 'create', 'update', 'drop']
              : ['read', 'create', 'update', 'drop', 'execute']
      const out: Record<string, unknown> = { applyTo, type }
      for (const [action, list] of Object.entries(actions))
        if (list !== undefined && keep.includes(action)) out[action] = list
      return out as unknown as RolesPermissionJson
    })
  return fc
    .record({
      includes: fc.array(fc.uniqueArray(fc.constantFrom(...names), { maxLength: 2 }), {
        minLength: declared.length,
        maxLength: declared.length,
      }),
      roles: fc.uniqueArray(
        fc.record({
          role: fc.constantFrom('R0', 'R1', 'R2'),
          privileges: fc.uniqueArray(spelled(names), { maxLength: 2, selector: lower }),
        }),
        { maxLength: 2, selector: (r) => r.role },
      ),
      allowed: fc.uniqueArray(entry, {
        maxLength: 8,
        selector: (e) => `${e.type} ${e.applyTo}`,
      }),
      // One file in four closed by default (shrinks to open): a closed file refuses most requests.
      restrictedByDefault: fc.nat(3).map((n) => n === 3),
    })
    .map(({ includes, roles, allowed, restrictedByDefault }) => ({
      file: {
        privileges: declared.map((privilege, i) => ({ privilege, includes: includes[i]! })),
        roles,
        permissions: { allowed },
        restrictedByDefault,
        forceLogin: false,
      },
      privileges: declared,
      names,
      roles: roles.map((r) => r.role),
    }))
}
