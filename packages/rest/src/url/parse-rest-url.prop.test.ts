/**
 * `parseRestUrl` answers a read by key (`/rest/Employee(3)`) before the whole grammar: whatever the
 * path, the base and the query, it must give what the whole grammar (`parsePath`) gives, or refuse
 * what it refuses.
 */
import { fc, test } from '@fast-check/vitest'
import { expect } from 'vitest'
import { parsePath, parseRestUrl } from './parse-rest-url.js'

/** What a parse gives, or the text of the error it throws, for comparing two parsers. */
function outcome(parse: () => unknown): unknown {
  try {
    return { parsed: parse() }
  } catch (error) {
    return { error: String(error) }
  }
}

// Characters around the shape of a key read: a name, brackets, digits, and what breaks the shape.
const piece = fc.constantFrom(
  'Employee',
  'e',
  '_',
  'É',
  '3',
  '0',
  '12',
  '(',
  ')',
  '[',
  ']',
  ':',
  '/',
  '%20',
  '%28',
  '+',
  ' ',
  '"',
  "'",
  '$',
  '-',
  '.',
  ',',
  '$entityset',
  '$catalog',
)
const segment = fc.array(piece, { maxLength: 6 }).map((a) => a.join(''))
const keyRead = fc
  .tuple(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/), fc.stringMatching(/^\d{1,12}$/))
  .map(([name, key]) => `${name}(${key})`)

test.prop([
  fc.constantFrom('/rest', '', '/api/v1'),
  fc.oneof(
    keyRead,
    segment,
    fc.tuple(keyRead, segment).map(([a, b]) => a + b),
  ),
  fc.constantFrom('', '$top=1', '$4DSID=X'),
])('a read by key parses as the whole grammar parses it', (base, below, search) => {
  const pathname = `${base}/${below}`
  const fast = outcome(() => parseRestUrl(pathname, search, base))
  expect(fast).toEqual(outcome(() => parsePath(pathname, search, base)))
})
