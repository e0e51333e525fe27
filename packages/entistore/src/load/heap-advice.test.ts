import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dataBytesOf, heapAdvice, HEAP_PER_DATA_BYTE } from './heap-advice.js'

const GB = 2 ** 30
const MB = 2 ** 20
// Node's default old-space limit on this 24 GB machine (20, 22 and 24 alike), and that machine.
const machine = { heapLimit: 4096 * MB, totalMemory: 24 * GB }

describe('heapAdvice', () => {
  it('says nothing while the load needs under three quarters of the heap limit', () => {
    // 1,000,000 short rows: 112 MB of file, ≈330 MB of heap.
    expect(heapAdvice({ ...machine, dataBytes: 112 * MB, what: 'short.json' })).toBeUndefined()
    const atEdge = (0.75 * machine.heapLimit) / HEAP_PER_DATA_BYTE
    expect(heapAdvice({ ...machine, dataBytes: atEdge, what: 'a.json' })).toBeUndefined()
  })

  it('asks for twice the need, in whole GB, for a 2 GB file (a 10M-row one, 1.1 GB, needs none)', () => {
    expect(heapAdvice({ ...machine, dataBytes: 1.1 * GB, what: 'short-10m.json' })).toBeUndefined()
    const line = heapAdvice({ ...machine, dataBytes: 2 * GB, what: 'short-20m.json' })
    expect(line).toBe(
      "entistore: short-20m.json (2.0 GB) needs about 4.0 GB of heap, and Node's limit here is " +
        '4.0 GB: start it with NODE_OPTIONS=--max-old-space-size=8192',
    )
  })

  it('never asks for more than three quarters of the machine, nor less than the need', () => {
    // Need 12 GB of 24: twice is 24, three quarters 18.
    const line = heapAdvice({ ...machine, dataBytes: 6 * GB, what: 'big.json' })
    expect(line).toMatch(/--max-old-space-size=18432$/)
  })

  it('says the machine is too small when the need passes three quarters of its memory', () => {
    const line = heapAdvice({ ...machine, dataBytes: 10 * GB, what: 'huge.json' })
    expect(line).toBe(
      "entistore: huge.json (10.0 GB) needs about 20.0 GB of heap, and Node's limit here is " +
        "4.0 GB: this machine's 24.0 GB of memory is too little to hold it",
    )
  })

  it('says nothing once started with a limit that fits', () => {
    const heapLimit = 7168 * MB
    expect(heapAdvice({ ...machine, heapLimit, dataBytes: 1.1 * GB, what: 'a' })).toBeUndefined()
  })
})

describe('dataBytesOf', () => {
  let dir: string | undefined
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }))

  it('counts the persist folder when it holds data, the data file otherwise', () => {
    dir = mkdtempSync(join(tmpdir(), 'heap-advice-'))
    const data = join(dir, 'data.json')
    writeFileSync(data, 'x'.repeat(1000))
    const store = join(dir, 'store')
    expect(dataBytesOf(data, undefined)).toEqual({ bytes: 1000, what: data })
    // No folder yet, then an empty one: the data file is loaded into it.
    expect(dataBytesOf(data, store)).toEqual({ bytes: 1000, what: data })
    mkdirSync(store)
    expect(dataBytesOf(data, store)).toEqual({ bytes: 1000, what: data })
    writeFileSync(join(store, 'snapshot'), 'y'.repeat(300))
    writeFileSync(join(store, 'journal'), 'z'.repeat(20))
    expect(dataBytesOf(data, store)).toEqual({ bytes: 320, what: `the folder ${store}` })
    expect(dataBytesOf(join(dir, 'missing.json'), undefined).bytes).toBe(0)
    expect(dataBytesOf(undefined, undefined).bytes).toBe(0)
  })
})
