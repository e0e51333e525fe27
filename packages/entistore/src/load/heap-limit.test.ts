import { describe, expect, it } from 'vitest'
import { oldSpaceLimit, type HeapConfig } from './heap-limit.js'

const MB = 2 ** 20
// heap_size_limit as measured (heap-limit.ts) on Node 22 (V8 12) and 24 (V8 13).
const V12 = '12.4.254.21-node.57'
const V13 = '13.6.233.17-node.53'
const config = (c: Partial<HeapConfig>): HeapConfig => ({
  heapSizeLimit: 4144 * MB,
  execArgv: [],
  nodeOptions: undefined,
  v8Version: V12,
  ...c,
})

describe('oldSpaceLimit', () => {
  it('is --max-old-space-size given to node, not heap_size_limit', () => {
    const c = config({ heapSizeLimit: 256 * MB, execArgv: ['--max-old-space-size=64'] })
    expect(oldSpaceLimit({ ...c, v8Version: V13 })).toBe(64 * MB)
  })

  it('is --max-old-space-size in NODE_OPTIONS, spelt with dashes, underscores or quotes', () => {
    for (const nodeOptions of [
      '--max-old-space-size=32',
      '--max_old_space_size=32',
      '--trace-warnings  "--max-old-space-size=32" ',
    ])
      expect(oldSpaceLimit(config({ heapSizeLimit: 80 * MB, nodeOptions }))).toBe(32 * MB)
  })

  it("takes the command line's flag over NODE_OPTIONS', and the last of each", () => {
    const c = config({
      nodeOptions: '--max-old-space-size=100 --max-old-space-size=300',
      execArgv: ['--max-old-space-size=200', '--max_old_space_size=250', '--inspect'],
    })
    expect(oldSpaceLimit(c)).toBe(250 * MB)
    expect(oldSpaceLimit({ ...c, execArgv: [] })).toBe(300 * MB)
  })

  it('ignores flags it does not know, and a value V8 would refuse', () => {
    const execArgv = ['--max-old-space-size-percentage=50', '--max-old-space-size=1.5']
    expect(oldSpaceLimit(config({ execArgv }))).toBe(4096 * MB)
  })

  it('is heap_size_limit less 3 semi-spaces of 16 MB before V8 13 without flags', () => {
    expect(oldSpaceLimit(config({ v8Version: '11.3.244.8-node.38' }))).toBe(4096 * MB)
    expect(oldSpaceLimit(config({}))).toBe(4096 * MB)
  })

  it('is heap_size_limit less 3 semi-spaces of 64 MB from V8 13 without flags', () => {
    expect(oldSpaceLimit(config({ heapSizeLimit: 4288 * MB, v8Version: V13 }))).toBe(4096 * MB)
  })

  it('takes the semi-space from --max-semi-space-size when given', () => {
    const heapSizeLimit = 4099 * MB
    expect(oldSpaceLimit(config({ heapSizeLimit, execArgv: ['--max-semi-space-size=1'] }))).toBe(
      4096 * MB,
    )
    const nodeOptions = '--max_semi_space_size=1'
    expect(oldSpaceLimit(config({ heapSizeLimit, nodeOptions, v8Version: V13 }))).toBe(4096 * MB)
  })
})
