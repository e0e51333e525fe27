/**
 * The texts kept of entities (entity-texts.ts): which reads render, what the bound counts, and
 * that a write or a restore is never answered with the text of another version.
 */
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { EntityTexts } from './entity-texts.js'

const model: ModelJson = {
  __NAME: 'texts',
  dataClasses: [
    {
      name: 'Note',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'body', type: 'string' },
      ],
    },
  ],
}

function setup(maxBytes: number, bodies: readonly string[]) {
  const ds = createDatastore(model, {
    data: { Note: bodies.map((body, i) => ({ ID: i + 1, body })) },
  })
  const texts = new EntityTexts(ds, maxBytes)
  let renders = 0
  const read = (id: number): string => {
    const note = ds.Note!.get(id)!
    return texts.text(note, () => {
      renders++
      return JSON.stringify({ ID: note.getKey(), body: note.get('body'), stamp: note.getStamp() })
    })
  }
  return { ds, texts, read, renders: () => renders }
}

describe('EntityTexts', () => {
  it('keeps a version from its third read on', () => {
    const { read, renders, texts } = setup(1 << 20, ['a', 'b'])
    const first = read(1)
    read(1)
    expect(renders()).toBe(2)
    expect(texts.size).toBe(0)
    // The third read renders it once more and keeps it; the reads after send it as kept.
    expect(read(1)).toBe(first)
    expect(texts.size).toBe(1)
    for (let i = 0; i < 5; i++) expect(read(1)).toBe(first)
    expect(renders()).toBe(3)
    // Another row read once in between does not let the first one in early.
    read(2)
    read(1)
    read(2)
    expect(texts.size).toBe(1)
  })

  it('counts two bytes a character, what V8 keeps at most', () => {
    const one = setup(1 << 20, ['é'.repeat(500)])
    for (let i = 0; i < 3; i++) one.read(1)
    const two = setup(1 << 20, ['é'.repeat(1000)])
    for (let i = 0; i < 3; i++) two.read(1)
    expect(two.texts.heldBytes - one.texts.heldBytes).toBe(1000)
  })

  it('once full, lets in one row in eight of those read thrice', () => {
    const bodies = Array.from({ length: 60 }, (_, i) => `note ${i} `.repeat(20))
    const { read, texts, renders } = setup(4_000, bodies)
    // Rows read thrice are let in while there is room; the first that finds it full is not.
    let id = 1
    for (; ; id++) {
      const size = texts.size
      for (let i = 0; i < 3; i++) read(id)
      if (texts.size === size) break
    }
    const full = texts.size
    // Each read of it after that is a candidate again: the eighth candidate gets in.
    const before = renders()
    for (let i = 0; i < 7; i++) read(id)
    expect(renders() - before).toBe(7)
    expect(read(id)).toBe(read(id))
    expect(renders() - before).toBe(7)
    // It pushed the least recently read rows out: the cache stays within its bound.
    expect(texts.size).toBeLessThanOrEqual(full)
    expect(texts.heldBytes).toBeLessThanOrEqual(4_000)
  })

  it('stays within its bound, the least recently read going first', () => {
    const bodies = Array.from({ length: 50 }, (_, i) => `note ${i} `.repeat(20))
    const { read, texts } = setup(2_000, bodies)
    for (let id = 1; id <= 50; id++) for (let i = 0; i < 3; i++) read(id)
    expect(texts.heldBytes).toBeLessThanOrEqual(2_000)
    expect(texts.size).toBeGreaterThan(0)
    expect(texts.size).toBeLessThan(50)
  })

  it('never answers a write or a restore with the text of another version', () => {
    const { ds, read } = setup(1 << 20, ['before'])
    const snapshot = ds.snapshot()
    for (let i = 0; i < 3; i++) read(1)
    ds.Note!.get(1)!.edit({ body: 'after' }).saveOrFail()
    expect(JSON.parse(read(1)).body).toBe('after')
    for (let i = 0; i < 3; i++) read(1)
    ds.restore(snapshot)
    expect(JSON.parse(read(1)).body).toBe('before')
  })
})
