/**
 * @module A long text changed piece by piece, so that the budget (context/budget.ts) can end the
 * change: upper-casing, lower-casing or taking the accents off a text of 67 million characters is
 * one native call of seconds that nothing interrupts. Each piece is counted (its length, as
 * passes of the budget's) before it is changed.
 *
 * A text is cut only between two characters that each side changes alone as the whole text would
 * change them: both below U+0250 (Latin letters, digits, punctuation, spaces), neither of which
 * Unicode's case mapping ignores (`'`, `.`, `:`, `^`, `` ` ``, and the Latin-1 marks). Such a
 * character is a starter that composes with nothing before it (canonical decomposition,
 * reordering and composition stop at it), and stops the context of the final sigma in
 * lower-casing: NFD, NFC, the removal of marks, `toUpperCase` and `toLowerCase` of the pieces,
 * joined, are those of the whole. A long run with no such place (millions of Greek letters with
 * no space) stays one piece, counted before it is changed.
 */
import { spend, type Passes } from './passes.js'
import { finish, type Work } from './work.js'

/** The length of a piece, before the place to cut it is looked for. */
export const PIECE_LENGTH = 1 << 16

// The characters below U+0250 that case mapping ignores (Unicode's Case_Ignorable).
const CASE_IGNORABLE = new Set([0x27, 0x2e, 0x3a, 0x5e, 0x60, 0xa8, 0xad, 0xaf, 0xb4, 0xb7, 0xb8])

const safe = (c: number): boolean => c < 0x250 && !CASE_IGNORABLE.has(c)

/**
 * `change(text)`, made a piece of about `length` characters at a time (see above), each piece
 * counted before. `change` must be one that works character by character within such pieces.
 */
export function byPieces(
  rt: Passes,
  text: string,
  change: (piece: string) => string,
  length = PIECE_LENGTH,
): string {
  if (text.length <= length) {
    spend(rt, text.length)
    return change(text)
  }
  return finish(piecesSteps(rt, text, change, length))
}

/**
 * `byPieces` as steps (values/work.ts): a stop wherever the budget's check falls between two
 * pieces, so that a call in slices may end its slice there.
 */
export function* piecesSteps(
  rt: Passes,
  text: string,
  change: (piece: string) => string,
  length = PIECE_LENGTH,
): Work<string> {
  let out = ''
  yield* eachPiece(
    rt,
    text,
    (piece) => {
      out += change(piece)
      return false
    },
    length,
  )
  return out
}

/**
 * Each piece of `text` given to `visit` in order, each counted before (see the module note), until
 * `visit` answers true (then true); a piece also ends only where `cut(before, after)` allows,
 * given the two character codes around the place.
 */
export function* eachPiece(
  rt: Passes,
  text: string,
  visit: (piece: string) => boolean,
  length = PIECE_LENGTH,
  cut: (before: number, after: number) => boolean = ANYWHERE,
): Work<boolean> {
  let from = 0
  while (from < text.length) {
    let to = Math.min(from + length, text.length)
    while (to < text.length) {
      const before = text.charCodeAt(to - 1)
      const after = text.charCodeAt(to)
      if (safe(before) && safe(after) && cut(before, after)) break
      to++
    }
    if ((rt.ticks -= to - from) < 0) {
      rt.tick()
      yield
    }
    if (visit(text.slice(from, to))) return true
    from = to
  }
  return false
}

const ANYWHERE = (): boolean => true
