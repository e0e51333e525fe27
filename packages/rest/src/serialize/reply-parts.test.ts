import { createDatastore, type Datastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { chain, companyDatastore as company } from './chain.fixture.js'
import { EntityWriter } from './entity.js'
import { firstPiece } from './first-piece.js'
import { CHUNK_CHARS, JsonChunks } from './json-chunks.js'
import { parseProjection, type Projection } from './projection.js'
import { utf8Bytes } from './utf8-bytes.js'
import { entityReply, selectionArray, selectionEnvelope } from './selection.js'
import { eachSlice } from '../slices/turns.js'
import { Uris } from './uris.js'

const writer = new EntityWriter(new Uris('/rest'))

function projectionOf(ds: Datastore, attributes: string[], expand?: string[]): Projection {
  return parseProjection(ds.schema, ds.dataClass('Company').def, attributes, expand)!
}

/** Every piece of a reply, as a transport takes them. */
const pieces = (chunks: JsonChunks): string[] => [...chunks]

describe('entities written in parts', () => {
  it('join to the text the entity has when written whole, in each form', () => {
    const ds = company()
    const acme = ds.dataClass('Company').get(1)!
    for (const attributes of [[chain(1)], [chain(2)], ['name', 'staff.employer.*'], ['*']]) {
      for (const expand of [undefined, ['staff']]) {
        if (attributes[0] === '*' && expand === undefined) continue
        const projection = projectionOf(ds, attributes, expand)
        expect(projection.nested).toBe(true)
        for (const form of ['single', 'member', 'plain'] as const) {
          const whole = writer[form](acme, projection)
          const parts = [...writer.parts(form, acme, projection)]
          expect(parts.some((p) => typeof p !== 'string')).toBe(true)
          const reply = entityReply(acme, writer, projection)
          // A projection that writes relations out is never kept: text or chunks, no bytes.
          expect(reply).not.toBeInstanceOf(Uint8Array)
          expect(typeof reply === 'string' ? reply : pieces(reply as JsonChunks).join('')).toBe(
            writer.single(acme, projection),
          )
          expect(() => JSON.parse(whole)).not.toThrow()
        }
      }
    }
  })

  it('break a reply into pieces of about 64K characters, even inside one entity', () => {
    const ds = company()
    const acme = ds.dataClass('Company').get(1)!
    const projection = projectionOf(ds, [chain(3)])
    const reply = entityReply(acme, writer, projection) as JsonChunks
    // A clock that does not move: pieces end on their size alone.
    reply.sliceBy(eachSlice(() => 0, 10))
    const all = pieces(reply)
    // One entity of about 330 KB: the pieces end inside it.
    expect(all.length).toBeGreaterThan(4)
    for (const piece of all.slice(0, -1)) {
      expect(piece.length).toBeGreaterThanOrEqual(CHUNK_CHARS)
      expect(piece.length).toBeLessThan(CHUNK_CHARS + 2_000)
    }
    expect(all.join('')).toBe(writer.single(acme, projection))
  })

  it('are measured to the byte of the text written, for selections in both forms', () => {
    const ds = company()
    const companies = ds.dataClass('Company').all()
    const window = { skip: 2, top: 10 }
    for (const attributes of [[chain(1)], [chain(2)], ['name', 'staff.employer.*', 'staff.ID']]) {
      const projection = projectionOf(ds, attributes, ['staff'])
      for (const make of [
        () => selectionEnvelope(companies, window, writer, { __queryPlan: 'x' }, projection),
        () => selectionArray(companies, window, writer, projection),
      ]) {
        const size = make().measure(Infinity)
        expect(size.run(Infinity)).toBe(true)
        expect(size.done).toBe(true)
        expect(size.bytes).toBe(utf8Bytes(pieces(make()).join('')))
      }
    }
  })

  it('are measured by the size of each distinct entity once, however large the reply', () => {
    const ds = company()
    const companies = ds.dataClass('Company').all()
    const reply = (levels: number) =>
      selectionEnvelope(companies, { skip: 0, top: 100 }, writer, undefined, {
        ...projectionOf(ds, [chain(levels)]),
      })
    // Two levels: the measure is the text's size.
    const two = reply(2).measure(Infinity)
    two.run(Infinity)
    expect(two.bytes).toBe(utf8Bytes(pieces(reply(2)).join('')))
    // Seven levels stand for about 24 × 15⁷ entities (4 × 10⁹), far past any limit: the measure
    // knows it after a bounded number of parts, without writing them.
    const seven = reply(7).measure(268_435_456)
    expect(seven.run(200_000)).toBe(true)
    expect(seven.over).toBe(true)
  })
})

describe('the size check before the status (firstPiece)', () => {
  it('gives the first piece of a reply within the limit, measured in several slices', async () => {
    const ds = company()
    const companies = ds.dataClass('Company').all()
    const projection = projectionOf(ds, [chain(2)])
    const make = () => selectionEnvelope(companies, { skip: 0, top: 100 }, writer, {}, projection)
    const whole = pieces(make()).join('')
    const chunks = make()
    // Slices of 0 ms: each measures one step (1 to 1,024 parts), then waits for another turn.
    const first = firstPiece(chunks, utf8Bytes(whole), 0)
    expect(first).toBeInstanceOf(Promise)
    expect((await first) + pieces(chunks).join('')).toBe(whole)
  })

  it('refuses a reply one byte past the limit, before any piece is given', async () => {
    const ds = company()
    const companies = ds.dataClass('Company').all()
    const projection = projectionOf(ds, [chain(2)])
    const make = () => selectionEnvelope(companies, { skip: 0, top: 100 }, writer, {}, projection)
    const bytes = utf8Bytes(pieces(make()).join(''))
    await expect(firstPiece(make(), bytes - 1, 0)).rejects.toMatchObject({
      name: 'ReplyTooLarge',
      errCode: 9091,
    })
    // One slice with no end: the refusal is synchronous whatever the machine's load (with the
    // default slice, a busy machine could leave the measure for a later turn).
    expect(() => firstPiece(make(), bytes - 1, Infinity)).toThrow(/more than the limit of/)
  })

  it('estimates a page of rows from its first piece, and cuts one whose rows grew past it', () => {
    const ds = createDatastore(
      {
        dataClasses: [
          {
            name: 'Note',
            attributes: [
              { name: 'ID', kind: 'storage', type: 'long' },
              { name: 'text', kind: 'storage', type: 'string' },
            ],
            key: [{ name: 'ID' }],
          },
        ],
      } as ModelJson,
      {
        // 10,000 short notes, then 50 of 10,000 characters: the first piece sees only short ones.
        data: {
          Note: Array.from({ length: 10_050 }, (_, i) => ({
            ID: i + 1,
            text: i < 10_000 ? 'short' : 'é'.repeat(10_000),
          })),
        },
      },
    )
    const notes = ds.dataClass('Note').all()
    const page = () => selectionEnvelope(notes, { skip: 0, top: 20_000 }, writer)
    const whole = utf8Bytes(pieces(page()).join(''))
    // Alike rows: a limit of a third of the page is refused on the first piece's estimate.
    const short = () => selectionEnvelope(notes, { skip: 0, top: 10_000 }, writer)
    expect(() => firstPiece(short(), utf8Bytes(pieces(short()).join('')) / 3)).toThrow(
      /would be about \d+ bytes/,
    )
    // The long rows come after the first piece: it passes, and the piece past the limit throws.
    const chunks = page()
    expect(typeof firstPiece(chunks, whole / 2)).toBe('string')
    expect(() => pieces(chunks)).toThrow(/ReplyTooLarge|more than the limit/)
  })
})
