/**
 * @module What a project holds that Entistore does not serve as 4D would, gathered by what is said
 * so that each kind of it is one line at start-up with every place it applies to, never a line
 * per field of a large structure, and never nothing.
 */
export class Notes {
  readonly #byWhat = new Map<string, string[]>()

  /** Notes `what` (`triggers are not run`) of `where` (`Rental (insert)`). */
  add(what: string, where: string): void {
    const list = this.#byWhat.get(what) ?? []
    list.push(where)
    this.#byWhat.set(what, list)
  }

  /** One line a kind, in the order first noted: `what: where, where`. */
  lines(): string[] {
    return [...this.#byWhat].map(([what, where]) => `${what}: ${where.join(', ')}`)
  }
}
