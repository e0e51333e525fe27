/**
 * @module The attributes of an entity written by code compiled for its dataclass: the hot half of
 * every read (a page of 20 short entities spent most of its time here, in the generic loop of
 * entity.ts).
 *
 * The generic loop pays, for every attribute of every entity, a dispatch on the attribute's kind,
 * a keyed read of the values object by a name held in a variable (a megamorphic lookup) and a
 * dispatch on the value's type. The compiled writer reads each stored value by a constant name
 * (one inline cache per attribute, and every values object of a dataclass has one hidden class:
 * see core's values-shape.ts) and tests only the type its attribute holds; anything else — a
 * relation, a date, a picture, a computed value, or a value of an unexpected type — is handed back
 * to the generic writer, so the text is the same whichever path writes it.
 *
 * The code is made with `new Function` from JSON.stringify-quoted names only; where code
 * generation is refused (a strict Content-Security-Policy, some edge runtimes) there is no
 * compiled writer and the generic loop writes everything.
 */
import type { Entity } from '@entistore/core'
import { quoteText } from './json-quote.js'
import { numberText } from './number-text.js'

/** How the compiled writer handles one attribute. */
export type CompiledSlot =
  | { readonly form: 'text' | 'number' | 'bool'; readonly name: string; readonly member: string }
  | { readonly form: 'generic'; readonly member: string }

/** Writes `slot` of `entity` the generic way: its JSON text, or undefined to leave it out. */
export type GenericValue<S> = (entity: Entity, slot: S) => string | undefined

/**
 * `out` followed by `,"name":value` for every attribute of `entity`, in model order; `slots` are
 * the slots the writer was compiled from, handed to `generic` for the values it does not write.
 */
export type CompiledAttributes = <S>(
  out: string,
  entity: Entity,
  generic: GenericValue<S>,
  slots: readonly S[],
) => string

/** The compiled writer for `slots`, or undefined when code generation is refused. */
export function compileAttributes(slots: readonly CompiledSlot[]): CompiledAttributes | undefined {
  const lines = slots.map((slot, i) => {
    const member = JSON.stringify(slot.member)
    // A value of another type than its attribute's (never stored, but cheap to allow) and null
    // both go to the generic writer: it decides their text, so both paths agree by construction.
    const fallback = `(y = g(e, s[${i}])) === undefined ? o : o + ${member} + y`
    if (slot.form === 'generic') return `o = ${fallback}`
    const read = `x = v[${JSON.stringify(slot.name)}]`
    switch (slot.form) {
      case 'text':
        return `${read}; o = typeof x === 'string' ? o + ${member} + q(x) : ${fallback}`
      case 'number':
        return `${read}; o = typeof x === 'number' && x - x === 0 ? o + ${member} + n(x) : ${fallback}`
      case 'bool':
        return `${read}; o = typeof x === 'boolean' ? o + ${member} + x : ${fallback}`
    }
  })
  const body = `return function (o, e, g, s) {\n  const v = e.values\n  let x, y\n  ${lines.join('\n  ')}\n  return o\n}`
  try {
    return new Function('q', 'n', body)(quoteText, numberText) as CompiledAttributes
  } catch {
    return undefined
  }
}

/** The compiled form of a stored attribute of `type`, given how the generic writer treats it. */
export function storedForm(type: string, dateOnly: boolean): CompiledSlot['form'] {
  switch (type) {
    case 'string':
    case 'uuid':
      return dateOnly ? 'generic' : 'text'
    case 'byte':
    case 'word':
    case 'long':
    case 'long64':
    case 'number':
    case 'duration':
      return 'number'
    case 'bool':
      return 'bool'
    default:
      return 'generic'
  }
}
