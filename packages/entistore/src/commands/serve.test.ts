import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { main } from '../cli.js'
import { parseDelay, parseFailRate, parseWorkers } from './serve.js'

describe("reading serve's option values", () => {
  it.each([
    ['250', { min: 250, max: 250 }],
    ['0', { min: 0, max: 0 }],
    ['100-500', { min: 100, max: 500 }],
    [' 5-5 ', { min: 5, max: 5 }],
  ])('--delay %j', (text, range) => expect(parseDelay(text)).toEqual(range))

  it.each(['', 'x', '-5', '500-100', '1.5', '10-', '2147483648'])('refuses --delay %j', (text) =>
    expect(parseDelay(text)).toBeUndefined(),
  )

  it.each([
    ['0', 0],
    ['1', 1],
    ['0.25', 0.25],
    ['.5', 0.5],
    ['1.0', 1],
  ])('--fail-rate %j', (text, rate) => expect(parseFailRate(text)).toBe(rate))

  it.each(['', 'x', '-0.1', '1.01', '2', '50%', '1e-3'])('refuses --fail-rate %j', (text) =>
    expect(parseFailRate(text)).toBeUndefined(),
  )

  it.each([
    ['1', 1],
    ['1024', 1024],
    ['auto', 'auto'],
  ])('--workers %j', (text, workers) => expect(parseWorkers(text)).toBe(workers))

  it.each(['0', '1025', '-1', '2.5', 'AUTO', ''])('refuses --workers %j', (text) =>
    expect(parseWorkers(text)).toBeUndefined(),
  )
})

describe('serve: what a newcomer gets wrong, said in one line', () => {
  const model = fileURLToPath(new URL('../../../../examples/company/model.json', import.meta.url))

  it('a PostgreSQL that cannot be reached: its URL without the password, and why', async () => {
    const err: string[] = []
    const code = await main(
      ['serve', '-m', model, '--postgres', 'postgres://me:secret@127.0.0.1:1/none'],
      { out: () => {}, err: (line) => err.push(line) },
    )
    expect(code).toBe(1)
    expect(err).toHaveLength(1)
    expect(err[0]).toMatch(
      /^entistore: cannot use PostgreSQL at postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/none: .*\(ECONNREFUSED\)$/,
    )
  })
})
