/**
 * @module A user class as 4D code sees it (docs/Concepts/classes.md, docs/API/ClassClass.md): a
 * Class object with `name`, `superclass`, `new()`, `isShared`, `isSingleton`,
 * `isSessionSingleton` and `me`; and its instances, whose data are their own properties (what
 * `For each`, `JSON Stringify` and `OB Keys` see) while functions and computed properties
 * (`Function get`/`set`) are found through the class and its superclasses.
 *
 * New instances: the declared properties with a value are set first (the superclass's first),
 * then the constructor runs with the parameters of `new()`; a class without a constructor runs
 * its superclass's. A singleton's `new()` and `me` give the one instance of its scope (the
 * process, the session, or all).
 */
import { raise } from '../errors/fourd-error.js'
import { setOwn } from '../ops/members.js'
import { CLASS_OF, GET_MEMBER, isClassHost, SET_MEMBER, type MemberHost } from '../values/host.js'
import { newObject } from '../values/kinds.js'
import { currentRuntime } from './current.js'
import type { Runtime } from './runtime.js'
import { deepCopy } from './deep-copy.js'
import { FourDFunction } from './function-object.js'
import { CLASS } from './instance-mark.js'
import { markShared } from '../values/shared.js'
import { singletonRead } from './outside-state.js'

/** What the compiler gives to make a class: its members, each function built at its first call. */
export interface ClassDefinition {
  readonly name: string
  /** The file it comes from (`Project/Sources/Classes/Car.4dm`). */
  readonly file: string
  /** `Class extends X`: the path as written (`['Polygon']`, `['cs', 'Polygon']`, `['DataClass']`). */
  readonly superclass: readonly string[] | null
  readonly shared: boolean
  readonly singleton: boolean
  readonly sessionSingleton: boolean
  readonly constructorFunction: FourDFunction | undefined
  readonly functions: ReadonlyMap<string, FourDFunction>
  readonly getters: ReadonlyMap<string, FourDFunction>
  readonly setters: ReadonlyMap<string, FourDFunction>
  /** `property a := value`: set on each new instance, in order, before the constructor. */
  readonly initializers: readonly { readonly name: string; readonly value: FourDFunction }[]
  /**
   * The ORDA members (`Function query/orderBy/event`, `Alias`), kept for the ORDA layer, which
   * gives them their meaning; each a function as the others.
   */
  readonly orda: readonly OrdaMember[]
}

export interface OrdaMember {
  readonly kind: 'query' | 'orderBy' | 'event' | 'alias'
  readonly name: string
  readonly attribute: string | null
  readonly fn: FourDFunction | undefined
  readonly path: readonly string[] | undefined
}

/** Where classes are found by name: the class store (class-store.ts). */
export interface ClassResolver {
  resolveSuperclass(path: readonly string[]): ClassObject | null
  sharedSingletons: Map<ClassObject, object>
}

// Classes a walk up a chain meets at most: far past any real chain, it ends a chain that loops
// (classes extending each other) with the answer `chain()`'s walk gives, which stops there.
const MAX_CHAIN = 256

export class ClassObject implements MemberHost {
  readonly #instanceProto: object
  #superclass: ClassObject | null | undefined

  constructor(
    readonly definition: ClassDefinition,
    readonly resolver: ClassResolver,
  ) {
    for (const fn of this.code()) fn.context = this
    this.#instanceProto = instancePrototype(this)
    // "A class object itself is a shared object" (classes.md).
    markShared(this)
  }

  /** Every function the class's file declares: constructor, functions, accessors, initializers. */
  code(): FourDFunction[] {
    const d = this.definition
    return [
      d.constructorFunction,
      ...d.functions.values(),
      ...d.getters.values(),
      ...d.setters.values(),
      ...d.initializers.map((i) => i.value),
      ...d.orda.map((m) => m.fn),
    ].filter((fn) => fn !== undefined)
  }

  get name(): string {
    return this.definition.name
  }

  /** The parent class (null for none, or for a class of the ORDA layer it does not know yet). */
  get superclass(): ClassObject | null {
    if (this.#superclass === undefined)
      this.#superclass =
        this.definition.superclass === null
          ? null
          : this.resolver.resolveSuperclass(this.definition.superclass)
    return this.#superclass
  }

  /** The chain from this class up to its root. */
  *chain(): Generator<ClassObject> {
    const seen = new Set<ClassObject>()
    for (let c: ClassObject | null = this; c !== null && !seen.has(c); c = c.superclass) {
      seen.add(c)
      yield c
    }
  }

  findFunction(name: string): FourDFunction | undefined {
    return this.#find('functions', name)
  }

  findGetter(name: string): FourDFunction | undefined {
    return this.#find('getters', name)
  }

  findSetter(name: string): FourDFunction | undefined {
    return this.#find('setters', name)
  }

  /**
   * The first of the chain's `which` named `name`. A plain walk, where `chain()` makes a generator
   * and a set: each member an object's class is asked for (a getter, then a function: `$e.save()`
   * at each pass of a loop) walked it, and the two cost more than the lookups. A parent is asked
   * for only when the walk gets to it (a class's parent may be defined after it is first used).
   */
  #find(which: 'functions' | 'getters' | 'setters', name: string): FourDFunction | undefined {
    let c: ClassObject | null = this
    for (let n = 0; c !== null && n < MAX_CHAIN; n++, c = c.superclass) {
      const fn = c.definition[which].get(name)
      if (fn !== undefined) return fn
    }
    return undefined
  }

  /** Whether `v` is an instance of this class or of one of its subclasses (`OB Instance of`). */
  isInstance(v: unknown): boolean {
    const cls = classOfValue(v)
    if (cls === undefined) return false
    for (const c of cls.chain()) if (c === this) return true
    return false
  }

  /** `cs.X.new(params)`. */
  construct(rt: Runtime, args: unknown[]): object {
    const def = this.definition
    if (def.singleton || def.sessionSingleton) {
      // State outside the data, which a restrict's answer may rest on (outside-state.ts).
      singletonRead(def)
      const scope = this.singletonScope(rt)
      const existing = scope.get(this)
      if (existing !== undefined) return existing
      const made = this.#make(rt, args)
      scope.set(this, made)
      return made
    }
    return this.#make(rt, args)
  }

  #make(rt: Runtime, args: unknown[]): object {
    const instance = Object.create(this.#instanceProto) as Record<string, unknown>
    // A shared class (and a session singleton) makes shared objects, and the objects and
    // collections its property lines give are made shared (classes.md).
    const shared = this.definition.shared || this.definition.sessionSingleton
    for (const c of [...this.chain()].reverse())
      for (const { name, value } of c.definition.initializers) {
        const v = value.invoke(rt, instance, [])
        setOwn(
          instance,
          name,
          shared && typeof v === 'object' && v !== null ? deepCopy(v, true) : v,
        )
      }
    if (shared) markShared(instance)
    this.runConstructor(rt, instance, args)
    return instance
  }

  /** Runs the nearest constructor from this class up (a class without one runs its parent's). */
  runConstructor(rt: Runtime, self: unknown, args: unknown[]): void {
    for (const c of this.chain()) {
      const ctor = c.definition.constructorFunction
      if (ctor !== undefined) {
        ctor.invoke(rt, self, args)
        return
      }
    }
  }

  /** `cs.X.me`: the singleton of the current scope, made at the first read. */
  me(rt: Runtime): object | null {
    if (!this.definition.singleton && !this.definition.sessionSingleton) return null
    return this.construct(rt, [])
  }

  private singletonScope(rt: Runtime): Map<ClassObject, object> {
    if (this.definition.sessionSingleton) return rt.sessionSingletons()
    return this.definition.shared ? this.resolver.sharedSingletons : rt.processSingletons
  }

  [GET_MEMBER](name: string): unknown {
    const def = this.definition
    switch (name) {
      case 'name':
        return def.name
      case 'superclass':
        return this.superclass
      case 'new':
        return NEW
      case 'isShared':
        return def.shared || def.sessionSingleton
      case 'isSingleton':
        return def.singleton || def.sessionSingleton
      case 'isSessionSingleton':
        return def.sessionSingleton
      case 'me':
        return this.me(currentRuntime())
      default:
        return undefined
    }
  }
}

/** The members of a Class object, as `GET_MEMBER` above answers them. */
export const CLASS_MEMBERS: ReadonlySet<string> = new Set([
  'new',
  'me',
  'name',
  'superclass',
  'isShared',
  'isSingleton',
  'isSessionSingleton',
])

/** `cs.X.new(…)`: `This` is the class. */
const NEW = new FourDFunction('new', (rt, self, args) =>
  self instanceof ClassObject
    ? self.construct(rt, args)
    : raise('UnknownMemberMethod', { name: 'new' }),
)

/** The class of an instance, undefined for any other value. */
export function classOf(v: unknown): ClassObject | undefined {
  if (typeof v !== 'object' || v === null) return undefined
  const cls = (v as { [CLASS]?: unknown })[CLASS]
  return cls instanceof ClassObject ? cls : undefined
}

/**
 * The class `OB Class` answers for `v`: an instance's, or a host object's that has one (an
 * entity's `cs.CarEntity`, else `4D.Entity`: ClassClass.md); undefined for any other value.
 */
export function classOfValue(v: unknown): ClassObject | undefined {
  const own = classOf(v)
  if (own !== undefined || typeof v !== 'object' || v === null || !isClassHost(v)) return own
  const cls = v[CLASS_OF]()
  return cls instanceof ClassObject ? cls : undefined
}

// The prototype of a class's instances: the class, and how members are read and written.
function instancePrototype(cls: ClassObject): object {
  const proto = newObject() as Record<string | symbol, unknown>
  Object.defineProperty(proto, CLASS, { value: cls })
  Object.defineProperty(proto, GET_MEMBER, {
    value(this: Record<string, unknown>, key: string): unknown {
      if (Object.hasOwn(this, key)) return this[key]
      const getter = cls.findGetter(key)
      if (getter !== undefined) return getter.invoke(currentRuntime(), this, [])
      return cls.findFunction(key)
    },
  })
  Object.defineProperty(proto, SET_MEMBER, {
    value(this: Record<string, unknown>, key: string, value: unknown): void {
      const setter = cls.findSetter(key)
      const getter = cls.findGetter(key)
      if (setter !== undefined) {
        const rt = currentRuntime()
        // Undefined clears a computed property by the type of what its getter gives (classes.md).
        setter.invoke(rt, this, [value === undefined ? clearedLike(getter, rt, this) : value])
      } else if (getter !== undefined) raise('ReadOnlyMember', { property: key })
      else setOwn(this, key, value)
    },
  })
  return proto
}

function clearedLike(getter: FourDFunction | undefined, rt: Runtime, self: object): unknown {
  if (getter === undefined) return undefined
  const probe = newObject()
  probe.v = getter.invoke(rt, self, [])
  setOwn(probe, 'v', undefined)
  return probe.v
}
