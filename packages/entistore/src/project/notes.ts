/**
 * @module What a project holds that Entistore does not serve as 4D would, gathered by what is said
 * so that each kind of it is one line at start-up with every place it applies to, never a line
 * per field of a large structure, and never nothing. Each note keeps the place that caused it,
 * when it has one: `entistore check` lists them there, one a line (`file:line:column: …`), so that
 * what `serve` says of a project `check` says too.
 */

/** Where a note's cause is written: a file as the folder given names it, 1-based. */
export interface NotePlace {
  readonly file: string
  readonly line: number
  readonly column: number
}

/** One note at its place: `check`'s form. */
export interface PlacedNote extends NotePlace {
  readonly message: string
}

/** A place in `file`, or in the notes' own file when it names none. */
export type PlaceIn = Omit<NotePlace, 'file'> & { readonly file?: string }

export class Notes {
  readonly #byWhat = new Map<string, string[]>()
  readonly #placed: PlacedNote[] = []
  readonly #unplaced: string[] = []

  /** `file`: the file the places of `add` are in when they name none (the structure file). */
  constructor(readonly file?: string) {}

  /** Notes `what` (`triggers are not run`) of `where` (`Rental (insert)`), caused at `place`. */
  add(what: string, where: string, place?: PlaceIn): void {
    const list = this.#byWhat.get(what) ?? []
    list.push(where)
    this.#byWhat.set(what, list)
    const file = place?.file ?? this.file
    if (place !== undefined && file !== undefined)
      this.#placed.push({
        file,
        line: place.line,
        column: place.column,
        message: `${what}: ${where}`,
      })
    else this.#unplaced.push(`${what}: ${where}`)
  }

  /** Each note that has no place (`what: where`), in the order noted: the project's own. */
  unplaced(): readonly string[] {
    return this.#unplaced
  }

  /** One line a kind, in the order first noted: `what: where, where`. */
  lines(): string[] {
    return [...this.#byWhat].map(([what, where]) => `${what}: ${where.join(', ')}`)
  }

  /** Each note that has a place, in the order noted. */
  placed(): readonly PlacedNote[] {
    return this.#placed
  }
}
