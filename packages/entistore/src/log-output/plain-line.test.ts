/**
 * The plain line written from the ring's units is byte for byte the line `requestLogLine` makes,
 * whatever the entry; it is written for the plain entries (most requests), and refused for those
 * needing a mask, an escape, a cut or UTF-8, which the usual line then serves.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { logEntry } from '../serve/request-log.fixture.js'
import { requestLogLine, type RequestLogEntry } from '../serve/request-log.js'
import { MAYBE_SECRET_WORDS } from '../serve/masked-target.js'
import { EntryRing, type EntryView } from './entry-ring.js'
import { MAX_PLAIN_LINE, writePlainLine } from './plain-line.js'

/** The plain line of `entry` as the logging thread writes it (undefined when refused), and the usual line. */
function bothLines(entry: RequestLogEntry, worker: number | undefined) {
  const ring = EntryRing.create(EntryRing.MIN_UNITS)
  expect(ring.putEntry(entry)).toBe(true)
  const prefix = Buffer.from(worker === undefined ? '' : `[worker ${worker}] `)
  const out = Buffer.alloc(prefix.length + MAX_PLAIN_LINE + 10, 0xff)
  let plain: string | undefined
  let usual = ''
  ring.drainInPlace((record) => {
    const view = record as EntryView
    const end = writePlainLine(view, prefix, out, 3)
    if (end >= 0) {
      expect(end - 3).toBeLessThanOrEqual(prefix.length + MAX_PLAIN_LINE)
      plain = out.subarray(3, end).toString('latin1')
    }
    usual = `${requestLogLine(view.entry(), 'text', worker)}\n`
  })
  return { plain, usual }
}

const MAYBE_SECRET = new RegExp(MAYBE_SECRET_WORDS.join('|'), 'i')
const PRINTABLE = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
})
// Parts of URLs, plain or not: queries, `=`, escapes, secrets, controls, non-ASCII, long runs.
const URL_PART = fc.oneof(
  PRINTABLE,
  fc.constantFrom('?', '=', '$4DSID=abc', '?$top=1', '%24', '\n', '\u007f', 'é', '😀', '\u2028'),
  fc.constantFrom(...MAYBE_SECRET_WORDS).map((w) => (w.length % 2 ? w.toUpperCase() : w)),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.nat(600).map((n) => 'x'.repeat(n)),
)
// Most requests take well under 100 ms (two decimals); some take longer (whole milliseconds).
const MS = fc.oneof(
  fc.double({ min: 0, max: 100, noNaN: true }),
  fc.double({ min: 0, max: 1e9, noNaN: true }),
  fc.constantFrom(0, 0.004, 0.005, 0.0051, 0.09, 99.994, 99.995, 99.99499999999, 100.5, 1e15 - 1),
)
const entries = fc.record({
  at: fc.constant(Date.UTC(2026, 10, 27)),
  method: fc.oneof(
    fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'),
    fc.string({ unit: 'binary', maxLength: 30 }),
  ),
  target: fc.array(URL_PART, { maxLength: 6 }).map((parts) => `/rest/${parts.join('')}`),
  status: fc.option(
    fc.oneof(fc.constantFrom(200, 201, 204, 400, 404, 500), fc.integer({ min: 1, max: 65535 })),
    {
      nil: undefined,
    },
  ),
  ms: fc.oneof(MS, fc.double({ min: 0, max: 1e16, noNaN: true })),
  bytes: fc.integer({ min: 0, max: 2 ** 48 - 1 }),
  user: fc.option(fc.oneof(PRINTABLE, fc.string({ unit: 'binary', maxLength: 120 })), {
    nil: undefined,
  }),
  complete: fc.boolean(),
})
const workers = fc.option(fc.nat(64), { nil: undefined })

describe('writePlainLine', () => {
  it('writes the bytes requestLogLine makes, whenever it writes', () => {
    fc.assert(
      fc.property(entries, workers, (entry, worker) => {
        const { plain, usual } = bothLines(entry, worker)
        if (plain !== undefined) expect(plain).toBe(usual)
      }),
      { numRuns: 2000 },
    )
  })

  it('writes every plain entry: printable ASCII, no `=` before a query naming no secret, short, not a 400', () => {
    const plainEntries = fc.record({
      method: fc.oneof(
        fc.constantFrom('GET', 'POST'),
        PRINTABLE.map((m) => m.slice(0, 20)),
      ),
      path: PRINTABLE.map((p) => p.replace(/[?=]/g, '')),
      // A query masking leaves as it is: no `%`, no word that makes it look closer.
      query: fc.option(
        PRINTABLE.map((q) => q.replace(/%/g, '')).filter((q) => q !== '' && !MAYBE_SECRET.test(q)),
        { nil: undefined },
      ),
      status: fc.option(
        fc.integer({ min: 100, max: 599 }).filter((s) => s !== 400),
        {
          nil: undefined,
        },
      ),
      ms: MS,
      user: fc.option(PRINTABLE, { nil: undefined }),
      complete: fc.boolean(),
    })
    fc.assert(
      fc.property(plainEntries, workers, (e, worker) => {
        const query = e.query === undefined ? '' : `?${e.query}`
        const entry = logEntry({ ...e, target: `/rest/${e.path}${query}`, bytes: 12_345 })
        const { plain, usual } = bothLines(entry, worker)
        expect(plain).toBe(usual)
      }),
      { numRuns: 1000 },
    )
  })

  it('a GET by key, a cut-off reply with no status, a worker', () => {
    expect(bothLines(logEntry({ user: undefined, ms: 0.254 }), undefined).plain).toBe(
      'GET /rest/Employee(1) 200 0.25 ms 312 B -\n',
    )
    expect(
      bothLines(logEntry({ status: undefined, complete: false, ms: 1234.5, bytes: 0 }), 2).plain,
    ).toBe('[worker 2] GET /rest/Employee(1) - 1235 ms 0 B ada (cut off)\n')
  })

  it('a query that names no secret, as an update sends it', () => {
    expect(
      bothLines(
        logEntry({ method: 'POST', target: '/rest/Item?$method=update', user: undefined }),
        undefined,
      ).plain,
    ).toBe('POST /rest/Item?$method=update 200 0.41 ms 312 B -\n')
  })

  it('leaves to the usual line what masking may change, an escape, non-ASCII, a cut, a 400', () => {
    for (const more of [
      { target: '/rest/Item?password=x' },
      { target: '/rest/Item?$4DSID=x' },
      { target: '/rest/Item?$top=1&TOKEN=1' },
      { target: '/rest/Item?%24params=[1]' },
      { target: '/rest/Item?%70assword=x' },
      { target: '/rest/Item?$params=[1]' },
      { target: '/rest/$catalog/$4DSID=x' },
      { target: '/rest/Item(1)\n' },
      { target: '/rest/Café' },
      { target: `/rest/${'x'.repeat(600)}` },
      { user: 'Zoë' },
      { user: 'u'.repeat(101) },
      { method: 'M'.repeat(21) },
      { status: 400 },
      { ms: Number.POSITIVE_INFINITY },
    ] satisfies Partial<RequestLogEntry>[])
      expect(bothLines(logEntry(more), undefined).plain).toBeUndefined()
  })
})
