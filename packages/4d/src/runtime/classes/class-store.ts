/**
 * @module The classes of a project (`cs`, docs/Concepts/classes.md "Class stores"): user classes by
 * their case-sensitive names, as the compiler defines them, and the built-in class store `4D`.
 *
 * `Class extends Name` finds `Name` here when it is used, so the files of a project can be
 * compiled in any order. A parent the store does not hold (the ORDA classes `DataClass`, `Entity`,
 * `EntitySelection`, `DataStoreImplementation`, or `4D.Object`) goes to `builtinSuperclass`, the
 * ORDA layer's hook; without one the class has no parent.
 */
import { GET_MEMBER, type MemberHost } from '../values/host.js'
import { FILE_CLASS, FOLDER_CLASS } from '../files/file-classes.js'
import { FUNCTION_CLASS, OBJECT_CLASS } from './builtin-class.js'
import { INCOMING_MESSAGE_CLASS } from './incoming-message.js'
import { OUTGOING_MESSAGE_CLASS } from './outgoing-message.js'
import { BLOB_CLASS } from './blob.js'
import { ClassObject, type ClassDefinition, type ClassResolver } from './class-object.js'

export interface ClassStoreOptions {
  /** The class a path names when it is not a user class (`['DataClass']`, `['4D', 'Object']`). */
  readonly builtinSuperclass?: (path: readonly string[]) => ClassObject | null
}

export class ClassStore implements MemberHost, ClassResolver {
  readonly #classes = new Map<string, ClassObject>()
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
    return cls
  }

  get(name: string): ClassObject | undefined {
    return this.#classes.get(name)
  }

  /** The names of the classes, in the order they were defined. */
  names(): string[] {
    return [...this.#classes.keys()]
  }

  resolveSuperclass(path: readonly string[]): ClassObject | null {
    const own = path.length === 1 ? path[0] : path.length === 2 && path[0] === 'cs' ? path[1] : null
    const found = own === null || own === undefined ? undefined : this.#classes.get(own)
    return found ?? this.#builtin?.(path) ?? null
  }

  /** `cs.Name`. */
  [GET_MEMBER](name: string): unknown {
    return this.#classes.get(name)
  }
}

/**
 * The built-in class store `4D` (docs/commands/4d.md). Its classes (`4D.File`, `4D.Function`…)
 * are the commands' and the ORDA layer's; a name it does not hold reads Undefined. `4D.Object`,
 * the class every object inherits from (classes.md), `4D.Function`, `4D.File`, `4D.Folder` and
 * `4D.OutgoingMessage`, `4D.IncomingMessage` and `4D.Blob` are always there.
 */
export class BuiltinClassStore implements MemberHost {
  readonly #classes = new Map<string, unknown>([
    ['Object', OBJECT_CLASS],
    ['Function', FUNCTION_CLASS],
    ['File', FILE_CLASS],
    ['Folder', FOLDER_CLASS],
    ['OutgoingMessage', OUTGOING_MESSAGE_CLASS],
    ['IncomingMessage', INCOMING_MESSAGE_CLASS],
    ['Blob', BLOB_CLASS],
  ])

  register(name: string, cls: unknown): void {
    this.#classes.set(name, cls)
  }

  /** The names of its classes (`4D.X` that code may read as a value). */
  names(): string[] {
    return [...this.#classes.keys()]
  }

  [GET_MEMBER](name: string): unknown {
    return this.#classes.get(name)
  }
}
