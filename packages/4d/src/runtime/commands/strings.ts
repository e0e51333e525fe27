/**
 * @module The String theme (docs/commands/theme/String.md; each command's page in
 * docs/commands-legacy/ or docs/commands/): `Length`, `Substring`, `Position`, `Replace string`,
 * `Change string`, `Insert string`, `Delete string`, `Uppercase`, `Lowercase`, `Char`,
 * `Character code`, `Split string`, `Trim`, `Trim start`, `Trim end`, `Compare strings`,
 * `Match regex`, `Localized string`, `String`
 * (with formats: format/string-command.ts) and `Num`.
 *
 * Positions count from 1 and in UTF-16 code units, as 4D's texts do. Where a page does not say,
 * out-of-range positions are brought back within the text (compat.md): `Substring` from a first
 * character below 1 starts at 1, a negative count gives "". `Position`'s `lengthFound` and
 * `Match regex`'s `pos_found` and `length_found` are written through the compiler's
 * OutParameters (arguments/out-parameter.ts; 0 when nothing is found); a plain value there raises "cannot
 * run here", never a silent 0. Arrays for the groups of `Match regex` do not run here.
 */
import { spend } from '../values/passes.js'
import { andThen, DONE, type Resumable } from '../values/resumable.js'
import { toNum } from '../convert/conversions.js'
import { numberSteps, textToNumber } from '../convert/num-text.js'
import { Collection } from '../values/collection.js'
import { limits, splitWithin, withinLimit } from '../values/limits.js'
import {
  integerArg,
  invalid,
  isStar,
  optionalInteger,
  textArg,
  withoutStar,
} from '../arguments/arguments.js'
import { stringOf } from './format/string-command.js'
import { outArg } from '../arguments/out-parameter.js'
import { regexMatch } from './regex.js'
import { byWork } from './plain-forms.js'
import type { CommandSpec } from './table.js'
import { byPieces, piecesSteps } from '../values/text-pieces.js'
import { KEYS, keyOfOptions, searching } from './text-search.js'

const MARKS = /\p{M}/gu
const withoutAccents = (s: string): string => s.normalize('NFD').replace(MARKS, '').normalize('NFC')
// `Uppercase` and `Lowercase` of a piece: `*` keeps the accents.
const upper =
  (star: unknown) =>
  (p: string): string =>
    (isStar(star) ? p : withoutAccents(p)).toUpperCase()
const lower =
  (star: unknown) =>
  (p: string): string =>
    (isStar(star) ? p : withoutAccents(p)).toLowerCase()

const IGNORE_EMPTY = 1
const TRIM_SPACES = 2

const order = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0)

type Sensitivity = Intl.CollatorOptions['sensitivity']

/**
 * How `Compare strings` compares two texts with its options: by their keys, made a piece at a
 * time (text-pieces.ts), or by ICU's collation with a sensitivity (one native call, its length
 * counted before).
 */
type Comparison =
  { readonly key: (piece: string) => string } | { readonly sensitivity: Sensitivity }

function comparison(options: number | undefined): Comparison {
  if (options === undefined) return { key: KEYS.folded }
  const { key } = keyOfOptions(options)
  if ((options & 1) !== 0) return { key: (p) => [...p].map(key).join('') }
  const ci = (options & 2) !== 0
  const di = (options & 4) !== 0
  return { sensitivity: ci && di ? 'base' : ci ? 'accent' : di ? 'case' : 'variant' }
}

/** `Compare strings`' arguments: the two texts and how they are compared. */
const compareArgs = (a: unknown, b: unknown, options: unknown): [string, string, Comparison] => [
  textArg('Compare strings', 'aString', a),
  textArg('Compare strings', 'bString', b),
  comparison(options === undefined ? undefined : integerArg('Compare strings', 'options', options)),
]

const collate = (a: string, b: string, sensitivity: Sensitivity): number =>
  Math.sign(new Intl.Collator('en', { sensitivity }).compare(a, b))

/**
 * `text.split(separator)` (its parts in `parts` once done), each part a pass of the budget's
 * (millions of parts take seconds) and a place to give way, and refused (9439) past the bound of
 * elements as `splitWithin` refuses it. An empty separator (a part a character) is one native
 * split, its length counted before.
 */
function splitting(text: string, separator: string): [{ parts: string[] }, Resumable] {
  const split = { parts: [] as string[] }
  if (separator === '') {
    let counted = false
    return [
      split,
      (rt) => {
        if (!counted) {
          counted = true
          // Counted before it starts: past the budget, it does not.
          if ((rt.ticks -= text.length) < 0) return false
        }
        split.parts = splitWithin(text, separator)
        return true
      },
    ]
  }
  const max = limits().elements
  const parts = split.parts
  let from = 0
  let at = text.indexOf(separator)
  return [
    split,
    (rt) => {
      for (; at >= 0; at = text.indexOf(separator, from)) {
        if (--rt.ticks < 0) return false
        if (parts.length + 1 >= max) withinLimit('elements', 'A collection', parts.length + 2)
        parts.push(text.slice(from, at))
        from = at + separator.length
      }
      parts.push(text.slice(from))
      return true
    },
  ]
}

/** Each part trimmed (in the array given back, once done), each a pass of the budget's. */
function trimming(parts: readonly string[]): [string[], Resumable] {
  const out: string[] = []
  return [
    out,
    (rt) => {
      for (let i = out.length; i < parts.length; i++) {
        if (--rt.ticks < 0) return false
        out.push(parts[i]!.trim())
      }
      return true
    },
  ]
}

/**
 * `Num(expression {; separatorOrBase})`: a text in a base is one native call; a text with a
 * separator goes to `text` (convert/num-text.ts: at once, or as steps); anything else converts.
 */
function numOf<T>(
  v: unknown,
  separator: unknown,
  text: (s: string, sep: string | undefined) => T,
): T | number {
  if (typeof separator === 'number' && typeof v === 'string') {
    const base = integerArg('Num', 'base', separator)
    const n = Number.parseInt(v, base === 0 ? undefined : base)
    return Number.isNaN(n) ? 0 : n
  }
  const sep = separator === undefined ? undefined : textArg('Num', 'separator', separator)
  return typeof v === 'string' ? text(v, sep) : toNum(v, sep)
}

export const STRING_COMMANDS: readonly CommandSpec[] = [
  {
    number: 16,
    name: 'Length',
    signature: '(text: Text): Integer',
    impl: (_rt, v) => textArg('Length', 'text', v).length,
  },
  {
    number: 12,
    name: 'Substring',
    signature: '(source: Text; firstChar: Integer; numChars?: Integer): Text',
    impl: (_rt, source, first, count) => {
      const s = textArg('Substring', 'source', source)
      const from = Math.max(1, integerArg('Substring', 'firstChar', first)) - 1
      const n = optionalInteger('Substring', 'numChars', count, s.length)
      return n <= 0 ? '' : s.substr(from, n)
    },
  },
  {
    number: 15,
    name: 'Position',
    signature:
      '(find: Text; aString: Text; start?: Integer; lengthFound?: any; optionsOrStar?: any): Integer',
    writes: [3],
    ...byWork((_rt, ...all) => {
      const { args, star } = withoutStar(all)
      const [find, text, start, given, options] = args
      const lengthFound = args.length > 3 ? outArg('Position', 'lengthFound', given) : undefined
      const f = textArg('Position', 'find', find)
      const s = textArg('Position', 'aString', text)
      const from = Math.max(1, optionalInteger('Position', 'start', start, 1)) - 1
      const mode =
        options === undefined
          ? { key: star ? KEYS.exact : KEYS.folded, wholeWord: false }
          : keyOfOptions(integerArg('Position', 'options', options))
      // The first match, if any.
      let found = { index: -1, length: 0 }
      const work = searching(f, s, from, mode.key, mode.wholeWord, (m) => {
        found = m
        return false
      })
      return {
        work,
        done: () => {
          lengthFound?.set(found.length)
          return found.index + 1
        },
      }
    }),
  },
  {
    number: 233,
    name: 'Replace string',
    signature: '(source: Text; oldString: Text; newString: Text; howMany?: any; star?: any): Text',
    ...byWork((_rt, ...all) => {
      const { args, star } = withoutStar(all)
      const [source, oldString, newString, howMany] = args
      const s = textArg('Replace string', 'source', source)
      const old = textArg('Replace string', 'oldString', oldString)
      const replacement = textArg('Replace string', 'newString', newString)
      let left = howMany === undefined ? Infinity : integerArg('Replace string', 'howMany', howMany)
      let out = ''
      let from = 0
      // Each match is a pass of the budget's (context/budget.ts): a long text ends at it.
      const work =
        left <= 0
          ? DONE
          : searching(old, s, 0, star ? KEYS.exact : KEYS.folded, false, (m) => {
              out += s.slice(from, m.index) + replacement
              from = m.index + Math.max(1, m.length)
              return --left > 0
            })
      return { work, done: () => out + s.slice(from) }
    }),
  },
  {
    number: 234,
    name: 'Change string',
    signature: '(source: Text; newChars: Text; where: Integer): Text',
    impl: (_rt, source, newChars, where) => {
      const s = textArg('Change string', 'source', source)
      const chars = textArg('Change string', 'newChars', newChars)
      const at = integerArg('Change string', 'where', where)
      if (chars === '' || at < 1 || at > s.length) return s
      return (s.slice(0, at - 1) + chars + s.slice(at - 1 + chars.length)).slice(0, s.length)
    },
  },
  {
    number: 231,
    name: 'Insert string',
    signature: '(source: Text; what: Text; where: Integer): Text',
    impl: (_rt, source, what, where) => {
      const s = textArg('Insert string', 'source', source)
      const w = textArg('Insert string', 'what', what)
      const at = Math.min(Math.max(1, integerArg('Insert string', 'where', where)), s.length + 1)
      return s.slice(0, at - 1) + w + s.slice(at - 1)
    },
  },
  {
    number: 232,
    name: 'Delete string',
    signature: '(source: Text; where: Integer; numChars: Integer): Text',
    impl: (_rt, source, where, numChars) => {
      const s = textArg('Delete string', 'source', source)
      let at = integerArg('Delete string', 'where', where)
      let n = integerArg('Delete string', 'numChars', numChars)
      if (s === '' || at > s.length || n <= 0) return s
      if (at < 1) {
        n += at - 1
        at = 1
      }
      return n <= 0 ? s : s.slice(0, at - 1) + s.slice(at - 1 + n)
    },
  },
  // 4D 21 (docs/commands/trim.md, trim-start.md, trim-end.md): ECMAScript's TrimString.
  {
    number: 1853,
    name: 'Trim',
    signature: '(aString: Text): Text',
    impl: (_rt, v) => textArg('Trim', 'aString', v).trim(),
  },
  {
    number: 1854,
    name: 'Trim start',
    signature: '(aString: Text): Text',
    impl: (_rt, v) => textArg('Trim start', 'aString', v).trimStart(),
  },
  {
    number: 1855,
    name: 'Trim end',
    signature: '(aString: Text): Text',
    impl: (_rt, v) => textArg('Trim end', 'aString', v).trimEnd(),
  },
  {
    number: 13,
    name: 'Uppercase',
    signature: '(aString: Text; star?: any): Text',
    impl: (rt, v, star) => byPieces(rt, textArg('Uppercase', 'aString', v), upper(star)),
    steps: (rt, v, star) => piecesSteps(rt, textArg('Uppercase', 'aString', v), upper(star)),
  },
  {
    number: 14,
    name: 'Lowercase',
    signature: '(aString: Text; star?: any): Text',
    impl: (rt, v, star) => byPieces(rt, textArg('Lowercase', 'aString', v), lower(star)),
    steps: (rt, v, star) => piecesSteps(rt, textArg('Lowercase', 'aString', v), lower(star)),
  },
  {
    number: 90,
    name: 'Char',
    signature: '(charCode: Integer): Text',
    impl: (_rt, v) => {
      const code = integerArg('Char', 'charCode', v)
      if (code < 0 || code > 0xffff)
        return invalid('Char', 'charCode', `${code} is not a UTF-16 code`)
      return String.fromCharCode(code)
    },
  },
  {
    number: 91,
    name: 'Character code',
    signature: '(character: Text): Integer',
    impl: (_rt, v) => {
      const s = textArg('Character code', 'character', v)
      return s === '' ? 0 : s.charCodeAt(0)
    },
  },
  {
    number: 1554,
    name: 'Split string',
    signature: '(stringToSplit: Text; separator: Text; options?: Integer): Collection',
    ...byWork((_rt, text, separator, options) => {
      const s = textArg('Split string', 'stringToSplit', text)
      const sep = textArg('Split string', 'separator', separator)
      const o = optionalInteger('Split string', 'options', options, 0)
      // An empty text gives no substring: CollectionClass.md's flatMap() example maps "" to [].
      const [split, splitWork] = s === '' ? [{ parts: [] }, DONE] : splitting(s, sep)
      let trimmed: string[] | undefined
      const work =
        (o & TRIM_SPACES) === 0
          ? splitWork
          : andThen(splitWork, () => {
              const [out, trimWork] = trimming(split.parts)
              trimmed = out
              return trimWork
            })
      return {
        work,
        done: () => {
          let parts = trimmed ?? split.parts
          if ((o & IGNORE_EMPTY) !== 0) parts = parts.filter((p) => p !== '')
          return new Collection(parts)
        },
      }
    }),
  },
  {
    number: 1756,
    name: 'Compare strings',
    signature: '(aString: Text; bString: Text; options?: Integer): Integer',
    // Texts of a piece at most are keyed at once; longer ones as steps.
    impl: (rt, a, b, options) => {
      const [x, y, how] = compareArgs(a, b, options)
      if ('key' in how) return order(byPieces(rt, x, how.key), byPieces(rt, y, how.key))
      spend(rt, x.length + y.length)
      return collate(x, y, how.sensitivity)
    },
    steps: function* (rt, a, b, options) {
      const [x, y, how] = compareArgs(a, b, options)
      if ('key' in how)
        return order(yield* piecesSteps(rt, x, how.key), yield* piecesSteps(rt, y, how.key))
      if ((rt.ticks -= x.length + y.length) < 0) {
        rt.tick()
        yield
      }
      return collate(x, y, how.sensitivity)
    },
  },
  {
    number: 1019,
    name: 'Match regex',
    signature: '(pattern: Text; aString: Text; start?: Integer; ...posLengthStar: any): Boolean',
    writes: [3, 4],
    impl: (_rt, ...all) => {
      const { args, star } = withoutStar(all)
      const [pattern, text, start, posGiven, lengthGiven] = args
      const pos = args.length > 3 ? outArg('Match regex', 'pos_found', posGiven) : undefined
      const length =
        args.length > 3 ? outArg('Match regex', 'length_found', lengthGiven) : undefined
      const found = regexMatch(
        textArg('Match regex', 'pattern', pattern),
        textArg('Match regex', 'aString', text),
        start === undefined ? undefined : integerArg('Match regex', 'start', start),
        star,
      )
      pos?.set(found === undefined ? 0 : found.index + 1)
      length?.set(found === undefined ? 0 : found.length)
      return found !== undefined
    },
  },
  {
    number: 991,
    name: 'Localized string',
    aliases: ['Get localized string'],
    signature: '(resName: Text): Text',
    // No XLIFF file is read yet: the name stands for its text, so messages stay readable.
    impl: (_rt, v) => textArg('Localized string', 'resName', v),
  },
  {
    number: 10,
    name: 'String',
    signature: '(expression: any; format?: any; addTime?: any): Text',
    impl: (_rt, v, format, addTime) => stringOf(v, format, addTime),
  },
  {
    number: 11,
    name: 'Num',
    signature: '(expression: any; separatorOrBase?: any): Real',
    // A text is read a block of characters at a time, each counted; a long one as steps.
    impl: (rt, v, separator) => numOf(v, separator, (s, sep) => textToNumber(s, sep, rt)),
    steps: function* (rt, v, separator) {
      const n = numOf(v, separator, (s, sep) => numberSteps(s, sep, rt))
      return typeof n === 'number' ? n : yield* n
    },
  },
]
