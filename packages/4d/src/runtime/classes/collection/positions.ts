/**
 * @module The index rules of the collection functions (docs/API/CollectionClass.md): a negative
 * index counts from the end (`index:=index+length`), then what is still out of range is brought
 * back within it, each function saying how.
 */
import { integerArg } from '../../arguments/arguments.js'

/**
 * An index argument, made a long. A long already is taken as it is, with no command name made
 * for an error it cannot raise (a function that checks its parameters before it changes the
 * collection, and again when it changes it, reads them twice).
 */
export const indexArg = (fn: string, parameter: string, v: unknown): number =>
  typeof v === 'number' && (v | 0) === v ? v | 0 : integerArg(`.${fn}()`, parameter, v)

/**
 * `startFrom` of `.indexOf()`, `.find()`, `.slice()`, `.fill()`…: a negative one from the end, then
 * no less than 0 (it may be past the end: the caller decides).
 */
export const fromStart = (start: number, length: number): number =>
  start < 0 ? Math.max(0, start + length) : start

/** `index` of `.insert()`, `.combine()`, `.remove()`: from the end if negative, within 0…length. */
export const clampIndex = (index: number, length: number): number =>
  Math.min(length, fromStart(index, length))

/** `end` of `.slice()` and `.fill()`: a negative one from the end, no more than the length. */
export const toEnd = (end: number, length: number): number =>
  Math.min(length, end < 0 ? end + length : end)
