/**
 * @module The text of an entity's `__TIMESTAMP` (`"2024-03-15T09:30:00.000Z"`, quotes included),
 * kept for the last timestamp asked: the entities of a page were mostly saved at the same instant
 * (a load, a batch), and toISOString is a good part of writing a small entity.
 */
export class LastIso {
  #timestamp = NaN
  #text = ''

  /** `timestamp` (epoch milliseconds) as its quoted ISO 8601 text. */
  text(timestamp: number): string {
    if (timestamp !== this.#timestamp) {
      this.#text = `"${new Date(timestamp).toISOString()}"`
      this.#timestamp = timestamp
    }
    return this.#text
  }
}
