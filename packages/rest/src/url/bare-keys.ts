/**
 * @module 4D's own pages write `$params` objects with bare keys, as 4D code writes object
 * literals: `$params='[{vector:[1,2,3],threshold:1}]'` (REST/$filter.md, "Vector similarity"). A
 * client that copies them sends text JSON refuses; `quoteBareKeys` makes it JSON, touching nothing
 * inside strings. It is tried only once the text failed as JSON (strict JSON passes as it is).
 */

const IDENT_START = /[A-Za-z_$]/
const IDENT_PART = /[\w$]/

/**
 * `text` with each bare key (a name after `{` or `,` and before `:`, outside strings) in double
 * quotes; undefined when it has none, so that the caller reports the original syntax error.
 */
export function quoteBareKeys(text: string): string | undefined {
  let out = ''
  let changed = false
  // The last character outside strings and blanks: a key follows `{` or `,`.
  let last = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      const end = stringEnd(text, i)
      out += text.slice(i, end)
      i = end - 1
      last = '"'
      continue
    }
    if ((last === '{' || last === ',') && IDENT_START.test(c)) {
      let j = i + 1
      while (j < text.length && IDENT_PART.test(text[j]!)) j++
      let k = j
      while (k < text.length && /\s/.test(text[k]!)) k++
      if (text[k] === ':') {
        out += `"${text.slice(i, j)}"`
        changed = true
        i = j - 1
        last = '"'
        continue
      }
    }
    out += c
    if (!/\s/.test(c)) last = c
  }
  return changed ? out : undefined
}

// The index after the string that starts at `start` (its closing quote included).
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i + 1
  }
  return text.length
}
