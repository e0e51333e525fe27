/**
 * Issue 28, item 5: many picture conversions asked at once. Hostile clients on a real socket ask
 * twelve different pictures as GIF at the same time, converted by the real sharp. The converter is
 * sharp's, wrapped only to count the conversions running and to hold each one back until the test
 * has seen every request answered or queued: no conversion can end early on a fast machine, or
 * late on a slow one, and change what the test sees. A fresh GET answers throughout, within a few
 * turns of the event loop (counted: node/responsiveness.fixture.ts), never waiting for a
 * conversion.
 */
import { createDatastore, ManualClock, type DataFile, type ModelJson } from '@entistore/core'
import { get } from 'node:http'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { until } from '../node/docs.fixture.js'
import { freshGet, TURNS_WAITED, watchResponsiveness } from '../node/responsiveness.fixture.js'
import { countedTurns } from '../slices/counted-turns.fixture.js'
import { serveOnSocket } from '../node/serve.fixture.js'
import { sharpConverter, type PictureConverter } from './converter.js'

const model: ModelJson = {
  __NAME: 'logos',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'logo', type: 'image' },
      ],
    },
  ],
}

const COMPANIES = 12

/** A picture per company: the same bytes, but each value is its own, converted on its own. */
async function datastore() {
  const png = await sharp({
    create: { width: 400, height: 300, channels: 3, background: '#2e86c1' },
  })
    .png()
    .toBuffer()
  const logo = { $base64: png.toString('base64'), type: 'image/png' }
  const Company = Array.from({ length: COMPANIES }, (_, i) => ({ ID: i + 1, logo }))
  return createDatastore(model, {
    data: { Company } as unknown as DataFile,
    clock: new ManualClock(),
  })
}

/** sharp's converter, counted, each conversion held until `open()`. */
function heldSharp() {
  const real = sharpConverter()
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  const counts = { started: 0, running: 0, most: 0 }
  const converter: PictureConverter = {
    async convert(input, type) {
      counts.started++
      counts.most = Math.max(counts.most, ++counts.running)
      try {
        await gate
        return await real.convert(input, type)
      } finally {
        counts.running--
      }
    },
  }
  return { converter, counts, open }
}

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: Buffer
}

/** A GET on a connection of its own. */
const fetchOwn = (url: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (d: Buffer) => parts.push(d))
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }),
      )
    }).on('error', reject)
  })

describe('picture conversions asked all at once', () => {
  it('runs two, lets four wait their turn, refuses the other six 503 at once; the four are converted after', async () => {
    const held = heldSharp()
    const counted = countedTurns()
    const { base, internal } = await serveOnSocket(await datastore(), {
      pictures: { converter: held.converter, maxConversions: 2, maxQueuedConversions: 4 },
    })
    const watch = watchResponsiveness(`${base}/rest/Company(1)`, { counted })
    const logo = (id: number) => `${base}/rest/Company(${id})/logo?$imageformat=gif&$expand=logo`
    const answers: (Answer & { id: number })[] = []
    const asked = Array.from({ length: COMPANIES }, (_, i) =>
      fetchOwn(logo(i + 1)).then((a) => {
        answers.push({ ...a, id: i + 1 })
        return a
      }),
    )
    // Six refusals mean the other six are running or waiting: nothing has been converted yet.
    await until(() => answers.length === 6, 'six answers')
    expect(held.counts.started).toBe(2)
    for (const refused of answers) {
      expect(refused.status).toBe(503)
      expect(refused.headers['retry-after']).toBe('2')
      expect(JSON.parse(refused.body.toString()).__ERROR[0]).toEqual({
        message:
          'Service unavailable: 2 picture conversions are running and 4 waiting, as many as this server takes; ask again later, or for $imageformat=best (the picture as stored)',
        componentSignature: 'enti',
        errCode: 9111,
      })
    }
    // Six held: a fresh GET is answered meanwhile, as the watch's are throughout.
    expect((await freshGet(`${base}/rest/Company(2)`)).ok).toBe(true)
    held.open()
    const all = await Promise.all(asked)
    const converted = all.filter((a) => a.status === 200)
    expect(converted).toHaveLength(6)
    for (const gif of converted) {
      expect(gif.headers['content-type']).toBe('image/gif')
      const meta = await sharp(gif.body).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(['gif', 400, 300])
    }
    // Never more than two at once, and the four that waited ran one after another's turn.
    expect(held.counts.most).toBe(2)
    expect(held.counts.started).toBe(6)
    expect(internal).toEqual([])
    const probes = await watch.stop()
    expect(probes.failed).toBe(0)
    expect(probes.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)

    // The queue is empty again: a refused picture is converted when asked again.
    const again = await fetchOwn(logo(answers[0]!.id))
    expect(again.status).toBe(200)
    expect(held.counts.started).toBe(7)
  })
})
