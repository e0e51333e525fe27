/**
 * @module Folded keys shared between the rows that hold the same text. An index keeps each row's
 * folded key (`Paris` → `paris`): folding makes a new string per row, so 200,000 rows of 50 cities
 * held 200,000 copies of 50 strings, 30 to 40 bytes a row for each indexed text attribute. Texts
 * read from JSON are already shared (V8 makes one string per distinct short value), so a map from
 * the text to its folded key gives every row of a city the same one.
 *
 * Bounded: past `limit` distinct texts the attribute is taken as one of unique or nearly unique
 * values (a code, an e-mail), where sharing saves nothing, and the map is dropped for good; the
 * keys already given stay shared.
 */
import { fold } from './fold.js'

export class FoldInterner {
  readonly #limit: number
  #map: Map<string, string> | undefined = new Map()

  constructor(limit = 65_536) {
    this.#limit = limit
  }

  /** `fold(text)`, the same string for the same text while the map lasts. */
  fold(text: string): string {
    const map = this.#map
    if (map === undefined) return fold(text)
    let folded = map.get(text)
    if (folded === undefined) {
      folded = fold(text)
      if (map.size < this.#limit) map.set(text, folded)
      else this.#map = undefined
    }
    return folded
  }
}
