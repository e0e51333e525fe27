/**
 * @module The `Function event restrict` of a project's DataClass classes, which `serve --project`
 * runs (the 4D code, @entistore/4d's restrict-code.ts, or a `--functions` module's restrict,
 * which wins). A dataclass is never served open by mistake: when the class file declares a
 * restrict but no restrict reaches core (a declaration line that does not compile), the
 * dataclass gets one that answers an empty selection, for every session and for code outside a
 * request. That is the `restrict` path any functions module takes (orda/restrict/restrict.ts): nothing of
 * the dataclass is read, queried, counted, reached by a relation or put in a set, an update or a
 * drop answers as for a missing entity, and a create is accepted but not read back, as 4D does
 * for an entity outside its restriction.
 */
import type { FunctionsDef } from '@entistore/core'

/** A DataClass class's `Function event restrict`, and where it is (1-based). */
export interface RestrictEvent {
  readonly dataClass: string
  /** The class file, as the project names it: `Sources/Classes/Note.4dm`. */
  readonly file: string
  readonly line: number
  readonly column: number
}

/** `Project/Sources/Classes/Note.4dm:3:1`: the class file from `project` (the Project folder). */
const placeOf = (event: RestrictEvent, project: string): string =>
  `${project === '' ? '' : `${project.replace(/\/+$/, '')}/`}${event.file}:${event.line}:${event.column}`

// The restrict of a closed dataclass: no entity, whoever asks.
function closed(this: { newSelection(): unknown }): unknown {
  return this.newSelection()
}

/**
 * `functions` with a closed `restrict` for each dataclass of `events` that they give none, each
 * such closure said to `onNote` with the place of its event (`project` the Project folder).
 */
// `any`: the definitions of any model are taken and given back as they are.
export function closeRestricted(
  functions: FunctionsDef<any> | undefined,
  events: readonly RestrictEvent[],
  project: string,
  onNote: ((note: string) => void) | undefined,
): FunctionsDef<any> | undefined {
  const open = events.filter((e) => functions?.dataClasses?.[e.dataClass]?.restrict === undefined)
  if (open.length === 0) return functions
  const dataClasses: Record<string, object | undefined> = { ...functions?.dataClasses }
  for (const event of open) {
    const dc = event.dataClass
    dataClasses[dc] = { ...dataClasses[dc], restrict: closed }
    onNote?.(
      `${placeOf(event, project)}: the restrict event of ${dc} does not compile: ` +
        `${dc} is served closed (no entity of it is read, updated or dropped) until it compiles or a --functions module gives dataClasses.${dc}.restrict`,
    )
  }
  return { ...functions, dataClasses }
}

/**
 * What `model --from-project` says of each restrict event: a model file holds no code, so the file
 * served with `--model` alone serves the dataclass unrestricted.
 */
export function restrictNotInModel(event: RestrictEvent, project: string): string {
  const dc = event.dataClass
  return (
    `${placeOf(event, project)}: the restrict event of ${dc} is not in the model file: ` +
    `serve --project runs it; serve --model without a --functions module giving dataClasses.${dc}.restrict serves ${dc} unrestricted`
  )
}
