/**
 * @module The classes of a project (`cs`, docs/Concepts/classes.md "Class stores"): user classes by
 * their case-sensitive names, as the compiler defines them, and the built-in class store `4D`.
 *
 * `Class extends Name` finds `Name` here when it is used, so the files of a project can be
 * compiled in any order. A parent the store does not hold (the ORDA classes `DataClass`, `Entity`,
 * `EntitySelection`, `DataStoreImplementation`, or `4D.Object`) goes to `builtinSuperclass`, the
 * ORDA layer's hook; without one the class has no parent. A component's classes are a store of
 * their own, which `cs.<namespace>` reads.
 */
import { GET_MEMBER, type MemberHost } from '../values/host.js'
import { ClassObject, type ClassDefinition, type ClassResolver } from './class-object.js'
import { runtimeParts } from './runtime-parts.js'

export interface ClassStoreOptions {
  /** The class a path names when it is not a user class (`['DataClass']`, `['4D', 'Object']`). */
  readonly builtinSuperclass?: (path: readonly string[]) => ClassObject | null
}

// How many classes have been defined in the process: a call site's finder (call-sites.ts) keeps
// where a function was found only while no class that could change the walk has been defined since.
let epoch = 0

/** A number that changes whenever any class store defines a class or adds a component. */
export const classEpoch = (): number => epoch

export class ClassStore implements MemberHost, ClassResolver {
  readonly #classes = new Map<string, ClassObject>()
  // The class stores of the components loaded, by namespace (`cs.NetKit`).
  readonly #components = new Map<string, ClassStore>()
  readonly #builtin: ((path: readonly string[]) => ClassObject | null) | undefined
  /** The instances of shared singletons: one for all processes. */
  readonly sharedSingletons = new Map<ClassObject, object>()

  constructor(options: ClassStoreOptions = {}) {
    this.#builtin = options.builtinSuperclass
  }

  /** Adds (or replaces) a class; its name is the file's. */
  define(definition: ClassDefinition): ClassObject {
    const cls = new ClassObject(definition, this)
    this.#classes.set(definition.name, cls)
    epoch++
    return cls
  }

  get(name: string): ClassObject | undefined {
    return this.#classes.get(name)
  }

  /** Makes a component's classes `cs.<namespace>.Name`. */
  addComponent(namespace: string, store: ClassStore): void {
    this.#components.set(namespace, store)
    epoch++
  }

  /** The classes of the component whose namespace is `namespace` (`cs.NetKit`). */
  component(namespace: string): ClassStore | undefined {
    return this.#components.get(namespace)
  }

  /** The names of the classes, in the order they were defined. */
  names(): string[] {
    return [...this.#classes.keys()]
  }

  resolveSuperclass(path: readonly string[]): ClassObject | null {
    const own = path.length === 1 ? path[0] : path.length === 2 && path[0] === 'cs' ? path[1] : null
    const found =
      own === null || own === undefined
        ? // `Class extends cs.NetKit.OAuth2Provider`: a component's class.
          path.length === 3 && path[0] === 'cs'
          ? this.#components.get(path[1]!)?.get(path[2]!)
          : undefined
        : this.#classes.get(own)
    return found ?? this.#builtin?.(path) ?? null
  }

  /** `cs.Name`: a class, or a component's classes. */
  [GET_MEMBER](name: string): unknown {
    return this.#classes.get(name) ?? this.#components.get(name)
  }
}

/**
 * The built-in class store `4D` (docs/commands/4d.md). Its classes (`4D.File`, `4D.Function`…)
 * are the commands' and the ORDA layer's; a name it does not hold reads Undefined. `4D.Object`,
 * the class every object inherits from (classes.md), `4D.Function`, `4D.File`, `4D.Folder` and
 * `4D.OutgoingMessage`, `4D.IncomingMessage` and `4D.Blob` are always there.
 */
export class BuiltinClassStore implements MemberHost {
  // Its classes, from the runtime's main entry (runtime-parts.ts), then the registered ones. Made
  // at the first read: a store may be made when a module loads (the runtime's main entry may not
  // have loaded yet), and is read only when code compiles or runs.
  #classes: Map<string, unknown> | undefined
  readonly #registered: [string, unknown][] = []

  register(name: string, cls: unknown): void {
    if (this.#classes === undefined) this.#registered.push([name, cls])
    else this.#classes.set(name, cls)
  }

  /** The names of its classes (`4D.X` that code may read as a value). */
  names(): string[] {
    return [...this.#all().keys()]
  }

  [GET_MEMBER](name: string): unknown {
    return this.#all().get(name)
  }

  #all(): Map<string, unknown> {
    if (this.#classes === undefined) {
      this.#classes = new Map(runtimeParts().builtinClasses)
      for (const [name, cls] of this.#registered) this.#classes.set(name, cls)
      this.#registered.length = 0
    }
    return this.#classes
  }
}
