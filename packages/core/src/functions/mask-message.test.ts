import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { maskMessage } from './mask-message.js'

describe('maskMessage: paths masked', () => {
  it.each([
    // Absolute, POSIX and Windows, with a line and column.
    ['cannot open /srv/app/data.json', 'cannot open …'],
    ['at /home/me/app/fn.js:3:1 and file:///x/y.js', 'at … and …'],
    ['at Object.<anonymous> (/srv/app/x.js:10:5)', 'at Object.<anonymous> (…)'],
    ['cannot open /srv/app/data.json.', 'cannot open ….'],
    ['in /tmp/ there is nothing', 'in … there is nothing'],
    ['missing /secret.json', 'missing …'],
    ['//server/share/x is gone', '… is gone'],
    ['C:\\app\\fn.js failed', '… failed'],
    ['C:/Users/me/x failed', '… failed'],
    ['C:\\\\Users\\\\me (escaped) failed', '… (escaped) failed'],
    // UNC.
    ['cannot open \\\\server\\share\\x', 'cannot open …'],
    ['\\\\?\\C:\\very\\long\\path', '…'],
    // Relative.
    ['cannot open ./data/x.json', 'cannot open …'],
    ['cannot open ../secret', 'cannot open …'],
    ['cannot open ..\\secret\\keys', 'cannot open …'],
    ['see ~/notes.txt', 'see …'],
    ['at src/app/file.ts:12:3', 'at …'],
    ['data\\x.json is gone', '… is gone'],
    ['config/db.yml: bad indent', '…: bad indent'],
    // With spaces.
    ['cannot open C:\\Program Files\\x', 'cannot open …'],
    ['C:\\Program Files (x86)\\app\\x.json failed', '… failed'],
    ['cannot open /home/me/My Files/x.txt', 'cannot open …'],
    [
      "ENOENT: no such file or directory, open '/home/me/My Files/x.txt'",
      "ENOENT: no such file or directory, open '…'",
    ],
    ["EPERM: open 'C:\\Program Files\\app\\my data.json'", "EPERM: open '…'"],
    ['Cannot find module "./lib/my util.js"', 'Cannot find module "…"'],
    // File URLs, with or without a host.
    ['cannot open file:///srv/a%20b.txt', 'cannot open …'],
    ['cannot open file:/srv/a.txt', 'cannot open …'],
    ['FILE://host/share/x', '…'],
    // Several in one message.
    [
      "Cannot find module './util.js' imported from /srv/app/x.js",
      "Cannot find module '…' imported from …",
    ],
    ['/srv/a to /srv/b', '… to …'],
  ])('%s → %s', (message, masked) => {
    expect(maskMessage(message)).toBe(masked)
  })
})

describe('maskMessage: ordinary text left alone', () => {
  it.each([
    'salary must be 1/2 of 4000, see a/b',
    'percent must be from -50 to 100',
    'on 12/31/2024 and/or 2024/01/02',
    'Content-Type image/svg+xml is not text/html; charset=utf-8',
    'application/vnd.ms-excel and application/vnd.api+json',
    'HTTP/1.1 500 over TCP/IP',
    'km/h, read/write/execute, w/o, n/a, 50/50, 3.5/4.0',
    'see https://example.com/a/b.json for help',
    'route v1/users/42 is unknown',
    'use the /rest endpoint, or / alone',
    "can't read the user's file; it's gone",
    "expected '/' or ','",
    'Error: x:y at 12:30',
    'Out of stock: 3 left (of 10)',
    'C++/CLI and Wakanda 4D v20/R5',
    '',
  ])('%s', (message) => {
    expect(maskMessage(message)).toBe(message)
  })

  it('cuts a long message to 1,000 characters', () => {
    expect(maskMessage('x'.repeat(2000))).toHaveLength(1001)
    expect(maskMessage(`${'word '.repeat(300)}/srv/app/x.json`)).toBe(
      `${'word '.repeat(300)}…`.slice(0, 1000) + '…',
    )
  })
})

// The words ordinary messages are made of, slashes included, and none that paths are made of.
const WORDS = [
  'the',
  'price',
  'must',
  'be',
  '1/2',
  'and/or',
  '12/31/2024',
  'image/png',
  'HTTP/1.1',
  'https://example.com/a/b',
  '(of',
  '10)',
  'x:y',
  "user's",
  '-50',
  '3.5',
  'v1/users/42',
  'km/h',
  'Out',
  'stock.',
]
const ordinary = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(' '))

// Parts of paths: letters no word above has, so that a part left in the output is a part unmasked.
const part = fc.stringMatching(/^[qz][qz0-9_-]{1,8}$/)
const spaced = fc.tuple(part, part).map(([a, b]) => `${a} ${b}`)
const file = fc.tuple(part, fc.constantFrom('json', 'ts', 'txt', 'db')).map(([a, e]) => `${a}.${e}`)
const path = fc.oneof(
  fc
    .tuple(fc.array(fc.oneof(part, spaced), { minLength: 1, maxLength: 4 }), fc.oneof(part, file))
    .map(([dirs, last]) => `/${[...dirs, last].join('/')}`),
  fc
    .tuple(
      fc.constantFrom('C:\\', '\\\\'),
      fc.array(fc.oneof(part, spaced), { minLength: 1, maxLength: 3 }),
      file,
    )
    .map(([start, dirs, last]) => start + [...dirs, last].join('\\')),
  fc
    .tuple(
      fc.constantFrom('./', '../', '~/'),
      fc.array(part, { maxLength: 3 }),
      fc.oneof(part, file),
    )
    .map(([start, dirs, last]) => start + [...dirs, last].join('/')),
  fc
    .tuple(
      fc.array(part, { minLength: 1, maxLength: 3 }),
      file,
      fc.constantFrom('', ':12', ':12:3'),
    )
    .map(([dirs, last, line]) => `${[...dirs, last].join('/')}${line}`),
  fc
    .tuple(fc.array(part, { minLength: 1, maxLength: 3 }), file)
    .map(([dirs, last]) => `file:///${[...dirs, last].join('/')}`),
)
const quoted = fc.tuple(fc.constantFrom("'", '"', ''), path).map(([q, p]) => `${q}${p}${q}`)
const partsOf = (p: string): string[] => p.match(/[qz][qz0-9_-]{1,8}/g) ?? []

describe('maskMessage: properties', () => {
  it('leaves any message of ordinary words as it is', () => {
    fc.assert(fc.property(ordinary, (message) => maskMessage(message) === message))
  })

  it('leaves no part of a path in any form, quoted or not, and the text before it as it was', () => {
    fc.assert(
      fc.property(ordinary, quoted, ordinary, (before, p, after) => {
        const message = `${before} ${p} ${after}`
        const masked = maskMessage(message)
        for (const leaked of partsOf(p)) expect(masked).not.toContain(leaked)
        expect(masked.startsWith(`${before} `)).toBe(true)
      }),
    )
  })
})
