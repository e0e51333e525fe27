/**
 * @module For the tests of 16 MiB pictures written to a persisted store (large-writes.test.ts, a
 * server in a child process that is killed; large-writes-turns.test.ts, one in the test's process
 * whose turns are counted): the demo's company model, pictures as large as an upload may be, and a
 * client that posts and reads them as a REST client does.
 */
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { crc32 } from 'node:zlib'
import { expect } from 'vitest'

/** A file of the demo's company example (its model, its data). */
export const example = (name: string): string =>
  fileURLToPath(new URL(`../../../../examples/company/${name}`, import.meta.url))

/** Just under the server's default maxUploadBytes (16 MiB). */
export const PICTURE_BYTES = 16 * 1024 * 1024 - 4096

/**
 * A valid PNG of `size` bytes: a 1×1 image and a private ancillary chunk of random bytes (which
 * neither compress nor encode short), so that its record is as large as the picture.
 */
export function bigPng(size: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const out = Buffer.alloc(12 + data.length)
    out.writeUInt32BE(data.length, 0)
    out.write(type, 4, 'latin1')
    data.copy(out, 8)
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(1, 0)
  header.writeUInt32BE(1, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  const pixel = Buffer.from('789c636060f80f00010401', 'hex') // zlib of [0, 0, 0, 255]
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    undefined,
    chunk('IDAT', pixel),
    chunk('IEND', Buffer.alloc(0)),
  ]
  const used = parts.reduce((n, p) => n + (p?.length ?? 0), 0)
  parts[2] = chunk('prVt', randomBytes(size - used - 12))
  return Buffer.concat(parts as Buffer[])
}

/** A company as the REST interface gives it: its logo a URI, which carries its `$version`. */
export type Deferred = { logo: { __deferred: { uri: string } } }

/** The bytes of Company(`key`)'s logo, as a client reads them through its deferred URI. */
export async function logoOf(url: string, key: number): Promise<Buffer> {
  const entity = (await (await fetch(`${url}/rest/Company(${key})`)).json()) as Deferred
  const reply = await fetch(new URL(entity.logo.__deferred.uri, url))
  expect(reply.headers.get('content-type')).toBe('image/png')
  return Buffer.from(await reply.arrayBuffer())
}

/**
 * POSTs `picture` as Company(`key`)'s logo to the server at `url`; resolves with the status, or 0
 * once the server is dead (`alive()` false: killed, or exited). Like a client should, it sends the
 * picture again after the `Retry-After` of a 503 that has one: five pictures of 16 MiB at once are
 * past the server's bodies in flight (64 MiB), and the last ones are asked to come back a second
 * later. A client told 503 while it still sends its 16 MiB can see the connection reset instead
 * (the server closes it after the reply with bytes unread, and the reply is lost with them): it
 * sends again a second later too, for as long as the server lives. A number of tries was a bound
 * of time in disguise: five resets a second apart gave up on the fifth picture (`[200, 200, 200,
 * 200, 0]`) when the four before it took more than about six seconds to be written, as they did
 * with other work on the machine's two cores.
 */
export async function postLogo(
  url: string,
  key: number,
  picture: Buffer,
  alive: () => boolean = () => true,
): Promise<number> {
  for (;;) {
    let reply: Response
    try {
      reply = await fetch(`${url}/rest/Company(${key})/logo?$rawPict=image/png`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: picture,
      })
      await reply.arrayBuffer()
    } catch {
      if (!alive()) return 0
      await new Promise((resolve) => setTimeout(resolve, 1000))
      continue
    }
    const wait = reply.headers.get('retry-after')
    if (reply.status !== 503 || wait === null) return reply.status
    await new Promise((resolve) => setTimeout(resolve, Number(wait) * 1000))
  }
}

/** Whether `dir` holds a snapshot taken after the first one (of the data file, snapshot 0). */
export const snapshotted = (files: readonly string[]): boolean =>
  files.some((f) => /^snapshot-\d+\.snap$/.test(f) && !/^snapshot-0+\./.test(f))
