/**
 * @module A command's signature in the table's short form, `(text: Text; start?: Integer): Text`,
 * read into what the compiler checks: how many arguments the command takes and the type of its
 * result. The collection functions declare theirs in the same form (classes/collection/define.ts),
 * so it lives below the commands and the classes both.
 */

/** The result types the compiler can rely on (a number, a text, a Boolean), or any other. */
export type ResultKind = 'Integer' | 'Real' | 'Text' | 'Boolean' | 'other' | 'none'

export interface Signature {
  /** The fewest arguments a call may give. */
  readonly min: number
  /** The most (Infinity for a repeated parameter). */
  readonly max: number
  readonly result: ResultKind
}

const RESULTS: Readonly<Record<string, ResultKind>> = {
  integer: 'Integer',
  longint: 'Integer',
  real: 'Real',
  number: 'Real',
  text: 'Text',
  boolean: 'Boolean',
}

/** Reads `(a: T; b?: T; ...c: T): R`; throws on a malformed signature (a mistake of the table). */
export function parseSignature(signature: string): Signature {
  const m = /^\((.*)\)\s*(?::\s*(.+))?$/.exec(signature.trim())
  if (!m) throw new Error(`bad command signature: ${signature}`)
  const params = m[1]!.trim() === '' ? [] : m[1]!.split(';').map((p) => p.trim())
  let min = 0
  let max = 0
  for (const [i, p] of params.entries()) {
    const pm = /^(\.\.\.)?[A-Za-z_][\w]*(\?)?\s*:\s*\S.*$/.exec(p)
    if (!pm) throw new Error(`bad parameter "${p}" in command signature: ${signature}`)
    if (pm[1] !== undefined) {
      if (i !== params.length - 1) throw new Error(`"..." must come last: ${signature}`)
      max = Infinity
      continue
    }
    max++
    if (pm[2] === undefined) {
      if (min !== max - 1)
        throw new Error(`a required parameter after an optional one: ${signature}`)
      min++
    }
  }
  const result = m[2] === undefined ? 'none' : (RESULTS[m[2].trim().toLowerCase()] ?? 'other')
  return { min, max, result }
}
