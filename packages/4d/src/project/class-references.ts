/**
 * @module The classes a project's code names that do not exist here, found before it runs:
 * `cs.Name` where the project has no class `Name` (nor the structure an ORDA class of that name:
 * `cs.Car`, `cs.CarEntity`, `cs.CarSelection`, `cs.DataStore`), and `4D.Name` where Entistore
 * has no class `Name` (it has `4D.Object`, `4D.Function`, `4D.File`, `4D.Folder`,
 * `4D.OutgoingMessage`, `4D.IncomingMessage`, `4D.Blob` and ORDA's `4D.Entity`, `4D.EntitySelection`, `4D.DataClass`,
 * `4D.DataStoreImplementation`, the last four parents of `Class extends` too). Each is reported as
 * what cannot run here, by name, at its line and column; the code fails when it is reached. A
 * `cs.X.Y` whose X is no class is a component's class (`cs.AIKit.OpenAI`): named as the
 * component, which is not here.
 * `Class extends` is checked too: a class whose parent is missing cannot be made.
 */
import type { ClassFileNode, MethodFileNode } from '../ast/files.js'
import { walk } from '../ast/walk.js'
import { CLASS_MEMBERS } from '../runtime/context/class-object.js'
import type { Session } from '../compile/session.js'

/** The names `cs.` and `4D.` may be followed by. */
export interface KnownClasses {
  readonly cs: ReadonlySet<string>
  /** `4D.X` as a value. */
  readonly fourD: ReadonlySet<string>
  /** `Class extends 4D.X`. */
  readonly fourDParents: ReadonlySet<string>
}

/** The `cs` names of a project: its classes, `DataStore`, and each dataclass's ORDA classes. */
export function projectClassNames(
  classes: readonly string[],
  dataClasses: readonly string[],
): Set<string> {
  const names = new Set([...classes, 'DataStore'])
  for (const dc of dataClasses)
    for (const suffix of ['', 'Entity', 'Selection']) names.add(dc + suffix)
  return names
}

/** Reports in `session` each `cs.X` and `4D.X` of `file` that `known` lacks. */
export function reportUnknownClasses(
  file: ClassFileNode | MethodFileNode,
  known: KnownClasses,
  session: Session,
): void {
  // `cs.X.Y` with Y not a Class's member: X is a component's namespace (`cs.AIKit.OpenAI`).
  const components = new Map<object, string>()
  walk(file, (node) => {
    if (node.kind === 'Member' && node.object.kind === 'Member' && !CLASS_MEMBERS.has(node.name))
      components.set(node.object, node.name)
  })
  const report = (
    path: readonly string[],
    at: Parameters<Session['error']>[2],
    fourD: ReadonlySet<string>,
    member?: string,
  ): void => {
    const [store, name] = path
    const names = store === 'cs' ? known.cs : store === '4D' ? fourD : undefined
    if (names === undefined || name === undefined || names.has(name)) return
    const full = `${store}.${name}`
    // The messages of the errors the code raises when it is reached (runtime.ts, `csOf`).
    const message =
      store !== 'cs'
        ? `The class "${full}" cannot run here`
        : member === undefined
          ? `The class "${full}" is not a class of the project`
          : `The component "${name}" is not here: ${full}.${member} cannot run`
    session.error('not-runnable', message, at, member === undefined ? full : `component ${name}`)
  }
  if (file.kind === 'ClassFile' && file.extends !== null) {
    const path = file.extends.superclass.path
    if (path.length === 2) report(path, file.extends.superclass.loc, known.fourDParents)
  }
  walk(file, (node) => {
    if (node.kind === 'Member' && node.object.kind === 'ClassStore')
      report([node.object.store, node.name], node.loc, known.fourD, components.get(node))
  })
}
