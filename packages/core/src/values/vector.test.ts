/**
 * 4D.Vector as 4D's page documents it (4d/docs docs/API/VectorClass.md): made from a collection of
 * reals, immutable, `length` the number of components, `toCollection()`, and three measures, each
 * between two vectors of the same size: cosine in [-1, 1] (higher is closer), dot (higher is
 * closer), euclidean >= 0 (lower is closer).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toVector, Vector, VectorError } from './vector.js'

describe('Vector (4D.Vector)', () => {
  it('holds a collection of reals: length, toCollection, a component by index', () => {
    const v = new Vector([0.123, -0.456, 0.789])
    expect(v.length).toBe(3)
    // Stored as 32-bit reals, read back as the shortest decimal of each: what was given.
    expect(v.toCollection()).toEqual([0.123, -0.456, 0.789])
    expect([v.at(0), v.at(-1), v.at(3)]).toEqual([0.123, 0.789, undefined])
    expect(JSON.stringify(v)).toBe('[0.123,-0.456,0.789]')
  })

  it('is immutable: the array it was made from, or the one it gives, changes nothing', () => {
    const given = [1, 2, 3]
    const v = new Vector(given)
    given[0] = 9
    v.toCollection()[1] = 9
    v.toFloat32Array()[2] = 9
    expect(v.toCollection()).toEqual([1, 2, 3])
  })

  it('computes the three measures', () => {
    const a = new Vector([1, 0, 0])
    const b = new Vector([0.6, 0.8, 0])
    expect(a.cosineSimilarity(b)).toBeCloseTo(0.6, 6)
    expect(a.dotSimilarity(new Vector([2, 3, 4]))).toBe(2)
    expect(a.euclideanDistance(b)).toBeCloseTo(Math.sqrt(0.16 + 0.64), 6)
    expect(a.cosineSimilarity(new Vector([-3, 0, 0]))).toBeCloseTo(-1, 6)
    // No direction: a zero vector is as far as any (4D's page is silent).
    expect(a.cosineSimilarity(new Vector([0, 0, 0]))).toBe(0)
  })

  it('refuses vectors of different sizes, empty ones and values that are not finite numbers', () => {
    expect(() => new Vector([1, 2]).cosineSimilarity(new Vector([1, 2, 3]))).toThrow(
      /different sizes \(2 and 3 dimensions\)/,
    )
    expect(() => new Vector([])).toThrow(VectorError)
    expect(() => new Vector([1, NaN])).toThrow(VectorError)
    expect(() => toVector([1, '2'])).toThrow(/numbers only/)
    expect(() => toVector('1,2')).toThrow(/array of numbers/)
    expect(toVector({ vector: [1, 2] }).toCollection()).toEqual([1, 2])
  })

  it('a view on shared floats reads as the copy it equals, and measures the same', () => {
    const floats = new Float32Array([9, 9, 0.5, -0.25, 1, 9])
    const view = Vector.view(floats, 2, 3)
    const copy = new Vector([0.5, -0.25, 1])
    expect(view.equals(copy)).toBe(true)
    expect(view.toCollection()).toEqual([0.5, -0.25, 1])
    expect(view.cosineSimilarity(copy)).toBeCloseTo(1, 6)
  })

  it('its measures agree with the textbook formulas on any vectors', () => {
    const real = fc.float({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true })
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 40 })
          .chain((n) =>
            fc.tuple(
              fc.array(real, { minLength: n, maxLength: n }),
              fc.array(real, { minLength: n, maxLength: n }),
            ),
          ),
        ([xs, ys]) => {
          const [a, b] = [new Vector(xs), new Vector(ys)]
          const [x, y] = [a.toFloat32Array(), b.toFloat32Array()]
          let dot = 0
          let nx = 0
          let ny = 0
          let d = 0
          for (let i = 0; i < x.length; i++) {
            dot += x[i]! * y[i]!
            nx += x[i]! * x[i]!
            ny += y[i]! * y[i]!
            d += (x[i]! - y[i]!) ** 2
          }
          const close = (p: number, q: number) => Math.abs(p - q) <= 1e-9 * Math.max(1, Math.abs(q))
          const cos = nx === 0 || ny === 0 ? 0 : dot / Math.sqrt(nx * ny)
          return (
            close(a.dotSimilarity(b), dot) &&
            close(a.euclideanDistance(b), Math.sqrt(d)) &&
            Math.abs(a.cosineSimilarity(b) - cos) <= 1e-9
          )
        },
      ),
    )
  })
})
