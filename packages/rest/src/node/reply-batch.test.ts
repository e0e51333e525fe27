import type { ServerResponse } from 'node:http'
import { sliceLine } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { ReplyBatch } from './reply-batch.js'

const response = (name: string) => ({ name }) as unknown as ServerResponse
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('ReplyBatch', () => {
  it('writes the replies of a turn at its end, in the order they were answered', async () => {
    const written: string[] = []
    const batch = new ReplyBatch<number>((res, reply) =>
      written.push(`${(res as unknown as { name: string }).name}:${reply}`),
    )
    batch.add(response('a'), 1)
    batch.add(response('b'), 2)
    await Promise.resolve()
    // Not within the turn, not after its microtasks either: at its end.
    expect({ written: [...written], size: batch.size }).toEqual({ written: [], size: 2 })
    await nextTurn()
    expect({ written, size: batch.size }).toEqual({ written: ['a:1', 'b:2'], size: 0 })
  })

  it('writes the replies of a turn before the slices of heavy work queued the turn before', async () => {
    // The check phase runs immediates in the order they were queued: a slice asked for earlier
    // (core's line of slices) ran first, for up to the turn's 10 ms, and the replies after it.
    const order: string[] = []
    const batch = new ReplyBatch<string>((_res, reply) => order.push(reply))
    sliceLine.later(() => order.push('slice'))
    batch.add(response('a'), 'read by key')
    await nextTurn()
    await nextTurn()
    expect(order).toEqual(['read by key', 'slice'])
    // Written once, though it was scheduled twice.
    batch.add(response('b'), 'next')
    await nextTurn()
    expect(order).toEqual(['read by key', 'slice', 'next'])
  })

  it('writes what is answered while it writes at the end of the next turn, not in this one', async () => {
    const written: string[] = []
    const batch: ReplyBatch<string> = new ReplyBatch((_res, reply) => {
      written.push(reply)
      // A reply written may make another (a request node had held behind it).
      if (reply === 'first') batch.add(response('x'), 'second')
    })
    batch.add(response('x'), 'first')
    await nextTurn()
    expect([...written]).toEqual(['first'])
    await nextTurn()
    expect(written).toEqual(['first', 'second'])
  })
})
