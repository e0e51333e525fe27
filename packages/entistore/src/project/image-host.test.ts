import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { imageHost } from './image-host.js'

/** A PNG of `width` × `height`, all red. */
const red = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .png()
    .toBuffer()

describe('the image host over sharp', () => {
  it('converts synchronously, in a worker, as 4D commands wait for their result', async () => {
    const host = imageHost()!
    const png = await red(40, 20)
    // Scaled to fit prop centered: 20 × 20 with white bands above and below the red.
    const thumb = host.convert(png, { type: 'image/png', width: 20, height: 20, fit: 'contain' })
    const { width, height } = await sharp(thumb).metadata()
    expect([width, height]).toEqual([20, 20])
    const raw = await sharp(thumb).removeAlpha().raw().toBuffer()
    const pixel = (x: number, y: number): number[] => [
      ...raw.subarray((y * 20 + x) * 3, (y * 20 + x) * 3 + 3),
    ]
    expect(pixel(10, 0)).toEqual([255, 255, 255])
    expect(pixel(10, 10)).toEqual([255, 0, 0])
    // Scaled to fit: stretched, no band.
    const filled = host.convert(png, { type: 'image/png', width: 20, height: 20, fit: 'fill' })
    const rawFilled = await sharp(filled).removeAlpha().raw().toBuffer()
    expect([...rawFilled.subarray(30, 33)]).toEqual([255, 0, 0])
    // Another codec, the size kept.
    const jpeg = host.convert(png, { type: 'image/jpeg' })
    expect((await sharp(jpeg).metadata()).format).toBe('jpeg')
    // CONVERT PICTURE's compression: a lower quality, fewer bytes.
    const noisy = await sharp(
      Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 7919) % 251)),
      {
        raw: { width: 64, height: 64, channels: 3 },
      },
    )
      .png()
      .toBuffer()
    const low = host.convert(noisy, { type: 'image/jpeg', quality: 10 })
    const high = host.convert(noisy, { type: 'image/jpeg', quality: 95 })
    expect(low.length).toBeLessThan(high.length)
  })

  it('refuses a picture of more than 40 million pixels, as REST does, before decoding it', async () => {
    const huge = await sharp({
      create: { width: 8000, height: 6000, channels: 3, background: { r: 0, g: 0, b: 0 } },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toBuffer()
    expect(() => imageHost()!.convert(huge, { type: 'image/png', width: 10, height: 10 })).toThrow(
      /pixel limit/i,
    )
  })

  it('throws what sharp says of bytes that are no image', () => {
    expect(() => imageHost()!.convert(new Uint8Array([1, 2, 3]), { type: 'image/png' })).toThrow(
      /unsupported image format|Input buffer/i,
    )
  })
})
