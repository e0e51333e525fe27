// The kernels of `$distinct` and of set algebra on a real pool (worker threads): each part's
// answer is the one the same kernel gives on the main thread, and what the workers write into
// shared memory (a bitmap marked by several threads at once, the members each part keeps) is
// read by the main thread without a copy.
import { partsOf } from '@entistore/core'
import { cancelFlag, KERNELS } from '@entistore/core/kernels'
import { afterAll, describe, expect, it } from 'vitest'
import { createWorkerPool } from './worker-pool.js'

const pool = createWorkerPool({ threads: 2 })
afterAll(() => pool.close())

const N = 1_000_000
const onMain = (kernel: string, args: unknown, from: number, to: number) =>
  KERNELS[kernel]!(args as never, from, to, cancelFlag())

/** `length` shared Int32 row ids: a permutation of [0, domain) cut to `length`, from `seed`. */
function sharedRows(length: number, domain: number, seed: number): Int32Array {
  const all = Int32Array.from({ length: domain }, (_, i) => i)
  let s = seed
  for (let i = domain - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) >>> 0
    const j = s % (i + 1)
    ;[all[i], all[j]] = [all[j]!, all[i]!]
  }
  const out = new Int32Array(new SharedArrayBuffer(length * 4))
  out.set(all.subarray(0, length))
  return out
}

describe('the pool runs', () => {
  it('distinctNumbers: each part sorted, the values of the main thread, by row id and through a list of rows', async () => {
    const column = new Float64Array(new SharedArrayBuffer(N * 8))
    for (let i = 0; i < N; i++)
      column[i] = i % 11 === 3 ? NaN : (i * 7919) % 5000 === 0 ? -0 : (i * 31) % 997
    const rows = sharedRows(N / 2, N, 7)
    for (const args of [{ column }, { column, rows }]) {
      const parts = partsOf('rows' in args ? rows.length : N, 2, 65_536)
      const got = await pool.run<Float64Array>('distinctNumbers', args, parts).result
      expect(got).toHaveLength(parts.length)
      got.forEach((part, at) =>
        expect(part).toEqual(onMain('distinctNumbers', args, parts[at]!.from, parts[at]!.to)),
      )
      expect(got[0]!.length).toBeGreaterThan(900)
    }
  })

  it('set kernels: the bitmap two threads mark and the members each part keeps are the main thread’s', async () => {
    const M = N / 4
    const a = sharedRows(M, 2 * M, 1)
    const b = sharedRows(M, 2 * M, 2)
    const parts = partsOf(M, 2, 16_384)
    const bounds = await pool.run<[number, number]>('rowIdBounds', { rows: b }, parts).result
    const max = Math.max(...bounds.map(([, hi]) => hi))
    expect(max).toBe(b.reduce((m, r) => Math.max(m, r), -1))
    const mark = new Uint8Array(new SharedArrayBuffer(max + 1))
    await pool.run('markRows', { rows: b, mark }, parts).result
    const marked = new Uint8Array(max + 1)
    onMain('markRows', { rows: b, mark: marked }, 0, M)
    expect(Buffer.from(mark.buffer).equals(marked)).toBe(true)
    for (const keep of [true, false]) {
      const out = new Int32Array(new SharedArrayBuffer(M * 4))
      const kept = await pool.run<[number, number]>('keepRows', { rows: a, mark, keep, out }, parts)
        .result
      const here = new Int32Array(M)
      const laid = (o: Int32Array, ps: [number, number][]) =>
        ps.flatMap(([from, n]) => [...o.subarray(from, from + n)])
      const expected = laid(
        here,
        parts.map(
          (p) =>
            onMain('keepRows', { rows: a, mark: marked, keep, out: here }, p.from, p.to) as [
              number,
              number,
            ],
        ),
      )
      expect(laid(out, kept)).toEqual(expected)
      const inB = new Set(b)
      expect(expected.length).toBe(a.filter((r) => inB.has(r) === keep).length)
    }
    const any = await pool.run<number>('anyMarked', { rows: a, mark }, parts).result
    expect(any.some((hit) => hit === 1)).toBe(true)
  })
})
