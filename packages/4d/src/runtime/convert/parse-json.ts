/**
 * @module `JSON.parse` a piece at a time, so that the budget (context/budget.ts) can end the parse
 * of a long text: one native call parses 64 MB of JSON in seconds that nothing interrupts. An
 * array or object longer than a piece is cut between its members (a scan of the text that skips
 * what its texts hold), runs of members a piece long are parsed at once, and a member longer than
 * a piece is cut the same way; each piece counts its length (one pass each 64 characters), the
 * scan too. The value is JSON.parse's: the members of a piece are parsed with the brackets of the
 * value around them, so that a piece parses only if the whole would. A text the cutting does not
 * take (not JSON, or nested deeper than MAX_DEPTH values longer than a piece) is parsed whole,
 * its length counted before, for JSON.parse's own value or error.
 */
import { spend, UNCOUNTED, type Passes } from '../values/passes.js'
import { finish, type Work } from '../values/work.js'
import type { Resumable } from '../values/resumable.js'

/** The characters of a piece parsed at once (about a millisecond). */
const PIECE = 1 << 16
/** The values longer than a piece, one inside another, cut before the rest is parsed whole. */
const MAX_DEPTH = 16

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/** A text the cutting does not take: it is parsed whole. */
class NotCut extends Error {}

/** `JSON.parse(text)`, a piece at a time (see above); JSON.parse's SyntaxError for what is not JSON. */
export function parseJSON(text: string, rt: Passes = UNCOUNTED, piece = PIECE): unknown {
  if (text.length > piece) return finish(parseSteps(text, rt, piece))
  spend(rt, text.length >> 6)
  return JSON.parse(text)
}

/**
 * `parseJSON` as steps (values/work.ts): a call in slices may stop between two pieces, and in the
 * scan of a long array or object. A text parsed whole is one native call, counted before.
 */
export function* parseSteps(text: string, rt: Passes = UNCOUNTED, piece = PIECE): Work<unknown> {
  if (text.length > piece)
    try {
      return yield* parsed(text, 0, text.length, rt, piece, 0)
    } catch (e) {
      if (!(e instanceof SyntaxError || e instanceof NotCut)) throw e
    }
  if ((rt.ticks -= text.length >> 6) < 0) {
    rt.tick()
    yield
  }
  return JSON.parse(text)
}

// JSON's white space.
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

function* parsed(
  text: string,
  start: number,
  end: number,
  rt: Passes,
  piece: number,
  depth: number,
): Work<unknown> {
  let from = start
  let to = end
  while (from < to && isSpace(text.charCodeAt(from))) from++
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--
  const open = text.charCodeAt(from)
  if (to - from <= piece || (open !== OPEN_ARRAY && open !== OPEN_OBJECT)) {
    if ((rt.ticks -= (to - from) >> 6) < 0) {
      rt.tick()
      yield
    }
    return JSON.parse(text.slice(from, to))
  }
  if (depth >= MAX_DEPTH) throw new NotCut()
  const array = open === OPEN_ARRAY
  const items: unknown[] = []
  const out: Record<string, unknown> = {}
  const [runs, scan] = runsOf(text, from, to, piece)
  while (!scan(rt)) {
    rt.tick()
    yield
  }
  for (const { a, b, alone } of runs) {
    if (alone && array) items.push(yield* parsed(text, a, b, rt, piece, depth + 1))
    else if (alone) {
      const colon = afterKey(text, a, b)
      const key = JSON.parse(text.slice(a, colon)) as string
      defineOwn(out, key, yield* parsed(text, colon + 1, b, rt, piece, depth + 1))
    } else {
      if ((rt.ticks -= (b - a) >> 6) < 0) {
        rt.tick()
        yield
      }
      const members = text.slice(a, b)
      if (array) for (const item of JSON.parse(`[${members}]`) as unknown[]) items.push(item)
      else {
        const part = JSON.parse(`{${members}}`) as Record<string, unknown>
        for (const key of Object.keys(part)) defineOwn(out, key, part[key])
      }
    }
  }
  return array ? items : out
}

/** A run of members, `alone` when it is one member longer than a piece. */
interface Run {
  readonly a: number
  readonly b: number
  readonly alone: boolean
}

/**
 * The runs of members of the array or object from `from` to `to` (its brackets): cut at the
 * first comma between two members past a piece's length, and around a member longer than a
 * piece. A scan that skips what its texts hold finds the commas (the work given back, which
 * counts a pass each 64 characters and gives way every 64K when the ticks run out,
 * values/resumable.ts); NotCut when its brackets do not close at `to`, or a run between two
 * commas is empty (`[1,]` is no JSON, `[]` is).
 */
function runsOf(text: string, from: number, to: number, piece: number): [Run[], Resumable] {
  const open = text.charCodeAt(from)
  const runs: Run[] = []
  const add = (a: number, b: number, alone: boolean): void => {
    if (!alone && text.slice(a, b).trim() === '' && (runs.length > 0 || b < to - 1))
      throw new NotCut()
    runs.push({ a, b, alone })
  }
  // Where the scan goes on, and (after a bracket or a comma) where the current run and the
  // current member begin.
  const at = { i: from, depth: 0, counted: from, run: from + 1, member: from + 1 }
  const work: Resumable = (rt) => {
    let { i, depth, counted, run, member } = at
    for (; i < to; i++) {
      const c = text.charCodeAt(i)
      // Most characters are none of those the scan looks for: past them at once.
      if (c > CLOSE_OBJECT || (c > COMMA && c < COLON)) continue
      if (c === QUOTE) {
        for (i++; i < to; i++) {
          const d = text.charCodeAt(i)
          if (d === BACKSLASH) i++
          else if (d === QUOTE) break
        }
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++
      else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        if (--depth === 0) {
          const close = open === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT
          if (i !== to - 1 || c !== close) throw new NotCut()
          if (i - member > piece) {
            if (member > run) add(run, member - 1, false)
            add(member, i, true)
          } else add(run, i, false)
          rt.ticks -= (i - counted) >> 6
          return true
        }
      } else if (c === COMMA && depth === 1) {
        if (i - member > piece) {
          // A member longer than a piece: alone, the run before it closed.
          if (member > run) add(run, member - 1, false)
          add(member, i, true)
          run = i + 1
        } else if (i - run >= piece) {
          add(run, i, false)
          run = i + 1
        }
        member = i + 1
      }
      if (i - counted >= 65_536) {
        const passes = (i - counted) >> 6
        counted = i
        if ((rt.ticks -= passes) < 0) {
          // Gives way, to go on after this character.
          Object.assign(at, { i: i + 1, depth, counted, run, member })
          return false
        }
      }
    }
    throw new NotCut()
  }
  return [runs, work]
}

/** Where the colon after the key of a member (`"key": value`) from `from` stands. */
function afterKey(text: string, from: number, to: number): number {
  let i = from
  while (i < to && isSpace(text.charCodeAt(i))) i++
  if (text.charCodeAt(i) !== QUOTE) throw new NotCut()
  for (i++; i < to; i++) {
    const d = text.charCodeAt(i)
    if (d === BACKSLASH) i++
    else if (d === QUOTE) break
  }
  for (i++; i < to && isSpace(text.charCodeAt(i)); i++);
  if (text.charCodeAt(i) !== COLON) throw new NotCut()
  return i
}

// `__proto__` is a key like any other, as JSON.parse makes it.
function defineOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  else out[key] = value
}
