import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SignedSessionIds } from './session-ids.js'

describe('SignedSessionIds', () => {
  it('issues 32 uppercase hex digits that say when they were issued, to the second', () => {
    const ids = new SignedSessionIds()
    const at = Date.UTC(2026, 10, 26, 3, 40, 12, 345)
    const id = ids.issue(at)
    expect(id).toMatch(/^[0-9A-F]{32}$/)
    expect(ids.issuedAt(id)).toBe(Date.UTC(2026, 10, 26, 3, 40, 12))
    expect(ids.issue(at)).not.toBe(id)
  })

  it('refuses any other id: a digit changed, another store’s, another form', () => {
    const ids = new SignedSessionIds()
    const other = new SignedSessionIds()
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 41 }),
        fc.integer({ min: 0, max: 31 }),
        fc.integer({ min: 1, max: 15 }),
        (now, at, delta) => {
          const id = ids.issue(now)
          expect(ids.issuedAt(id)).toBe(Math.floor(now / 1000) * 1000)
          const digit = (parseInt(id[at]!, 16) + delta) % 16
          const changed = id.slice(0, at) + digit.toString(16).toUpperCase() + id.slice(at + 1)
          expect(ids.issuedAt(changed)).toBeUndefined()
          expect(other.issuedAt(id)).toBeUndefined()
          expect(ids.issuedAt(id.toLowerCase())).toBe(
            id === id.toLowerCase() ? ids.issuedAt(id) : undefined,
          )
          expect(ids.issuedAt(id.slice(1))).toBeUndefined()
          expect(ids.issuedAt(`${id}0`)).toBeUndefined()
        },
      ),
    )
  })
})
