/**
 * @module A DataClass class's `Function event restrict` (4D 20 R5, docs/ORDA/ordaClasses.md
 * "Function event restrict") as core's `restrict` of the dataclass (orda/restrict/restrict.ts), which core
 * calls whenever the dataclass is read, for the caller's view, and keeps as it keeps a module's.
 *
 * It runs through the project's runner as the caller: `This` is the dataclass, `Session` the
 * caller's (`Session.hasPrivilege` sees what a running function promotes; reading
 * `Session.storage` makes the answer that session's alone, as core notes it), and its result
 * goes to core as a module's would: a selection of the dataclass restricts, anything else (Null)
 * restricts nothing, as 4D says. It fails as core's restrict fails, never open: a read its code is
 * refused (a query of an attribute the view may not read) closes the dataclass to that view, as
 * core closes it for a module's; any other 4D error fails the read that asked, with 4D's error
 * stack (4D: "thrown as if the error came from the ORDA function itself").
 */
import { DatastoreError, type DataClassFunctionDefs, type Datastore } from '@entistore/core'
import { FourDError } from '../runtime/errors/fourd-error.js'
import type { ProjectClass } from './compile-project.js'
import type { ProjectRunner, RunContext } from './project-runner.js'

type Restrict = NonNullable<DataClassFunctionDefs['restrict']>

/** The `restrict` of `c` (a DataClass class) if it declares `Function event restrict`. */
export function restrictCode(
  c: ProjectClass,
  runner: ProjectRunner,
): DataClassFunctionDefs['restrict'] {
  const declared = c.ast.members.some(
    (m) =>
      m.kind === 'Function' &&
      m.functionKind === 'event' &&
      m.attribute === null &&
      m.name.toLowerCase() === 'restrict',
  )
  if (!declared) return undefined
  const where = `${c.name}.event restrict`
  const codeOf = (cls: RunContext['cls']) =>
    cls.definition.orda.find(
      (m) => m.kind === 'event' && m.attribute === null && m.name.toLowerCase() === 'restrict',
    )?.fn
  const restrict: Restrict & { steps?: Restrict['steps'] } = function (this) {
    // What core takes: a selection restricts, anything else does not (orda/restrict/restrict.ts).
    const body = ({ rt, cls, bridge }: RunContext): ReturnType<Restrict> => {
      const code = codeOf(cls)
      if (code === undefined) return undefined
      try {
        return bridge.fromFourD(rt.invoke(code, bridge.toFourD(this), [])) as ReturnType<Restrict>
      } catch (e) {
        throw refusedRead(e) ?? e
      }
    }
    return runner.run(c, where, body, this.datastore as unknown as Datastore)
  }
  // The same in steps, which core runs in a read's slices: a restrict that loops holds no one.
  restrict.steps = function (this) {
    const ds = this.datastore as unknown as Datastore
    return runner.stepsOf<ReturnType<Restrict>>(
      c,
      where,
      ({ cls, bridge }) => ({ code: codeOf(cls), self: bridge.toFourD(this), params: [] }),
      ({ bridge }, value) => bridge.fromFourD(value) as ReturnType<Restrict>,
      (e) => refusedRead(e) ?? e,
      ds,
    )
  }
  return restrict
}

/** Core's refusal behind a 4D error (a read the view may not make), which core closes on. */
function refusedRead(e: unknown): DatastoreError | undefined {
  const cause = FourDError.is(e) ? e.cause : undefined
  return DatastoreError.is(cause) && cause.category === 'forbidden' ? cause : undefined
}
