/**
 * @module Pictures asked in another format (`$imageformat`, issue 18): what a conversion costs
 * through the REST handler, with the conversion cache and without it, against calling sharp
 * directly on the same bytes (the floor: the handler adds its lookup, tag and reply) and against
 * the stored picture (`best`: no conversion at all), in one run.
 *
 * Data: a page of 48 thumbnails (128×128 PNGs, each drawn differently), as a gallery page asks
 * them, and one 1024×768 JPEG photo. Each sample asks the whole page (or the photo 8 times), one
 * request after the other, through `respond()`: in-process, no socket, so that what is measured is
 * the conversion and the handler, not the network. A cold page (every picture converted and put
 * in the cache) is timed once per format, on a handler of its own.
 */
import { createDatastore, type ModelJson } from '@entistore/core'
import { createRestHandler, isPending, type RestHandler, type RestReply } from '@entistore/rest'
import sharp from 'sharp'
import { ms, ratio, table, type Align } from '../report.ts'
import { median } from '../timing.ts'

export interface PicturesOptions {
  /** Timed samples per case. */
  readonly reps: number
}

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Photo',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'picture', type: 'image' },
      ],
    },
  ],
}

const PAGE = 48
const PHOTO_REPEATS = 8

/**
 * A `width`×`height` picture as a logo or a photo is, mostly smooth: gradients, a disc and a little
 * grain (seeded by `seed`), as PNG or JPEG. Pure noise would make every encoder slow and every PNG
 * as big as its pixels, which no gallery holds.
 */
async function drawing(
  width: number,
  height: number,
  seed: number,
  format: 'png' | 'jpeg',
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3)
  let s = seed * 2654435761
  const cx = width * (0.3 + ((seed * 7) % 5) / 10)
  const cy = height * (0.3 + ((seed * 3) % 5) / 10)
  const r2 = (Math.min(width, height) / 4) ** 2
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      s = (s * 1103515245 + 12345) >>> 0
      const grain = (s >>> 29) - 4
      const inside = (x - cx) ** 2 + (y - cy) ** 2 < r2
      const i = (y * width + x) * 3
      pixels[i] = inside ? 230 : (x * 255) / width + grain
      pixels[i + 1] = inside ? (seed * 40) & 0xff : (y * 255) / height + grain
      pixels[i + 2] = inside ? 60 : ((seed * 53) & 0xff) + grain
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer()
}

/** Answers `path` through `rest.respond`, awaiting a conversion; throws on anything but 200. */
async function ask(rest: RestHandler, path: string, query: string): Promise<RestReply> {
  const reply = rest.respond({ method: 'GET', path, query, headers: {} })
  const settled = isPending(reply) ? await reply : reply
  if (settled.status !== 200 || !(settled.body instanceof Uint8Array))
    throw new Error(`${path}?${query}: ${settled.status} ${String(settled.body)}`)
  return settled
}

const FORMATS = ['gif', 'jpeg', 'tiff', 'png'] as const
type Format = (typeof FORMATS)[number]

interface Row {
  readonly what: string
  readonly perPicture: number
  readonly base: number
  readonly note: string
}

export async function runPicturesSuite(options: PicturesOptions): Promise<void> {
  const thumbs = await Promise.all(
    Array.from({ length: PAGE }, (_, i) => drawing(128, 128, i + 1, 'png')),
  )
  const photo = await drawing(1024, 768, 99, 'jpeg')
  const data = {
    Photo: [
      ...thumbs.map((b, i) => ({ ID: i + 1, picture: { $base64: b.toString('base64') } })),
      { ID: 1000, picture: { $base64: photo.toString('base64') } },
    ],
  }
  const ds = createDatastore(MODEL, { data })
  const cached = createRestHandler(ds)
  const uncached = createRestHandler(ds, { pictures: { cacheBytes: 0 } })
  const uri = (id: number) => `/rest/Photo(${id})/picture`
  const q = (format: string) => `$imageformat=${format}&$expand=picture`
  const pageIds = thumbs.map((_, i) => i + 1)

  /** ms per picture of `run` over `ids`, median of the samples (one untimed round first). */
  const time = async (ids: readonly number[], run: (id: number) => Promise<unknown>) => {
    await Promise.all(ids.slice(0, 2).map(run))
    const samples: number[] = []
    for (let r = 0; r < options.reps; r++) {
      const t0 = process.hrtime.bigint()
      for (const id of ids) await run(id)
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6 / ids.length)
    }
    return median(samples)
  }
  const bytesOf = (id: number) => (id === 1000 ? photo : thumbs[id - 1]!)

  const rows: Row[] = []
  const measure = async (label: string, ids: readonly number[], format: Format) => {
    const direct = await time(ids, (id) => sharp(bytesOf(id)).toFormat(format).toBuffer())
    const distinct = new Set(ids).size === ids.length
    // A cold page: each picture converted once and kept, on a handler of its own.
    let cold = NaN
    if (distinct) {
      const fresh = createRestHandler(ds)
      const t0 = process.hrtime.bigint()
      for (const id of ids) await ask(fresh, uri(id), q(format))
      cold = Number(process.hrtime.bigint() - t0) / 1e6 / ids.length
    }
    const none = await time(ids, (id) => ask(uncached, uri(id), q(format)))
    const hit = await time(ids, (id) => ask(cached, uri(id), q(format)))
    const best = await time(ids, (id) => ask(cached, uri(id), q('best')))
    const base = direct
    const row = (what: string, perPicture: number, note: string): Row => ({
      what: `${label}${what}`,
      perPicture,
      base,
      note,
    })
    rows.push(
      row(` → ${format}: sharp called directly`, direct, 'baseline'),
      row(` → ${format}: REST, no cache`, none, 'cacheBytes: 0: every request converts'),
      ...(distinct
        ? [row(` → ${format}: REST, first page (cold)`, cold, 'each converted once, then kept')]
        : []),
      row(` → ${format}: REST, cache hit`, hit, 'asked again'),
      row(': REST, best (as stored)', best, 'no conversion: the floor'),
    )
  }
  for (const format of FORMATS.filter((f) => f !== 'png'))
    await measure('128×128 PNG page', pageIds, format)
  await measure(
    '1024×768 JPEG photo',
    Array.from({ length: PHOTO_REPEATS }, () => 1000),
    'png',
  )
  console.log(
    table(
      ['case', 'ms / picture', '× sharp direct', 'note'],
      rows.map((r) => [r.what, ms(r.perPicture), ratio(r.perPicture / r.base), r.note]),
      ['l', 'r', 'r', 'l'] as Align[],
    ),
  )
  console.log(
    `- a page = ${PAGE} thumbnails of 128×128 (${Math.round(thumbs.reduce((n, b) => n + b.length, 0) / PAGE)} B ` +
      `each as PNG), asked one after the other through respond() (in-process, no socket); the photo ` +
      `is ${Math.round(photo.length / 1024)} KB of JPEG, asked ${PHOTO_REPEATS} times a sample; ` +
      `median of ${options.reps} samples, in ms per picture.`,
  )
  console.log(
    '- the cache holds converted bytes (64 MiB by default), keyed by the stored value and the ' +
      'format: a hit costs a Map lookup and the reply; a miss, the conversion.',
  )
}
