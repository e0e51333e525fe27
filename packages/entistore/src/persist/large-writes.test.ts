/**
 * Issue 28, item 3, as a hostile client: 16 MiB pictures POSTed to `entistore serve --persist`
 * (a child process, the demo's company model) by five clients at once, enough of them to cross the
 * journal's snapshotBytes (64 MiB) so that a snapshot follows. A fresh GET must answer within its
 * bound all along, the writes and the snapshot included: a picture's record was base64 in JSON,
 * built, checksummed, written and flushed inside the commit (1.6–1.9 s of event loop), and the
 * snapshot after four of them held it about 7 s. Then the server is killed with SIGKILL and
 * started again: every picture that got a 200 comes back byte for byte. And a picture that cannot
 * be written (the disk full) is not acknowledged.
 */
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crc32 } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import {
  FRESH_GET_BOUND_MS,
  watchResponsiveness,
} from '../../../rest/src/node/responsiveness.fixture.js'
import { startCli, startServe, stopChildren } from './cli-process.fixture.js'

const example = (name: string) =>
  fileURLToPath(new URL(`../../../../examples/company/${name}`, import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'entistore-large-writes-'))
afterAll(() => {
  stopChildren()
  rmSync(folder, { recursive: true, force: true })
})

/** Just under the server's default maxUploadBytes (16 MiB). */
const PICTURE_BYTES = 16 * 1024 * 1024 - 4096

/**
 * A valid PNG of `size` bytes: a 1×1 image and a private ancillary chunk of random bytes (which
 * neither compress nor encode short), so that its record is as large as the picture.
 */
function bigPng(size: number): Buffer {
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
type Deferred = { logo: { __deferred: { uri: string } } }

/** The bytes of Company(`key`)'s logo, as a client reads them through its deferred URI. */
async function logoOf(url: string, key: number): Promise<Buffer> {
  const entity = (await (await fetch(`${url}/rest/Company(${key})`)).json()) as Deferred
  const reply = await fetch(new URL(entity.logo.__deferred.uri, url))
  expect(reply.headers.get('content-type')).toBe('image/png')
  return Buffer.from(await reply.arrayBuffer())
}

/**
 * POSTs `picture` as Company(`key`)'s logo to the server `child` listens on; resolves with the
 * status, or 0 once the server is dead (killed, or exited). Like a client should, it sends the
 * picture again after the `Retry-After` of a 503 that has one: five pictures of 16 MiB at once are
 * past the server's bodies in flight (64 MiB), and the last ones are asked to come back a second
 * later. A client told 503 while it still sends its 16 MiB can see the connection reset instead
 * (the server closes it after the reply with bytes unread, and the reply is lost with them): it
 * sends again a second later too, for as long as the server lives. A number of tries was a bound
 * of time in disguise: five resets a second apart gave up on the fifth picture (`[200, 200, 200,
 * 200, 0]`) when the four before it took more than about six seconds to be written, as they did
 * with other work on the machine's two cores.
 */
async function postLogo(child: ChildProcess, url: string, key: number, picture: Buffer) {
  const alive = () => !child.killed && child.exitCode === null && child.signalCode === null
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

const start = (store: string) =>
  startServe(
    ['-m', example('model.json'), '-d', example('data.json'), '--persist', store],
    'Persisting to',
  )

describe('16 MiB pictures written to entistore serve --persist', () => {
  it(
    'keeps a fresh GET answering through the writes and the snapshot after them, and brings every picture back',
    { timeout: 120_000 },
    async () => {
      const store = join(folder, 'store')
      const first = await start(store)
      // Five pictures of 16 MiB make 80 MiB of journal: past snapshotBytes (64 MiB). Made before
      // the watch starts: the probes run in this process too.
      const pictures = [1, 2, 3, 4, 5].map(() => bigPng(PICTURE_BYTES))
      const sent = new Map<number, Buffer>()
      const watch = watchResponsiveness(`${first.url}/rest/Company(8)`)
      // Five clients at once: their records are written together, in the order of their commits.
      const statuses = await Promise.all(
        pictures.map((picture, i) => {
          sent.set(i + 1, picture)
          return postLogo(first.child, first.url, i + 1, picture)
        }),
      )
      expect(statuses).toEqual([200, 200, 200, 200, 200])
      // The snapshot runs on the turn after the write that crossed the line; the watch goes on
      // until it is on disk (the first one, of the data file, is snapshot 0).
      const snapshotted = () =>
        readdirSync(store).some((f) => /^snapshot-\d+\.snap$/.test(f) && !/^snapshot-0+\./.test(f))
      while (!snapshotted()) await new Promise((resolve) => setTimeout(resolve, 20))
      const seen = await watch.stop()
      expect(seen.failed).toBe(0)
      expect(seen.probes).toBeGreaterThan(0)
      expect(seen.slowestMs).toBeLessThan(FRESH_GET_BOUND_MS)

      const died = new Promise((resolve) => first.child.on('exit', resolve))
      first.child.kill('SIGKILL')
      await died
      const second = await start(store)
      for (const [company, picture] of sent)
        expect((await logoOf(second.url, company)).equals(picture), `Company(${company})`).toBe(
          true,
        )
      second.child.kill('SIGKILL')
    },
  )

  it(
    'killed with SIGKILL while pictures are being written: each is there whole if acknowledged, whole or absent if not',
    { timeout: 120_000 },
    async () => {
      const store = join(folder, 'killed')
      const first = await start(store)
      const died = new Promise((resolve) => first.child.on('exit', resolve))
      const keys = [1, 2, 3, 4, 5, 6]
      const before = await Promise.all(keys.map((key) => logoOf(first.url, key)))
      const versionOf = async (key: number) =>
        ((await (await fetch(`${first.url}/rest/Company(${key})`)).json()) as Deferred).logo
          .__deferred.uri
      const versions = await Promise.all(keys.map(versionOf))
      const pictures = keys.map(() => bigPng(PICTURE_BYTES))
      // Six clients at once. The server is killed as soon as a picture is committed (a read
      // shows its new version) but not answered yet, its record being written; or, failing
      // that, at the first 200.
      let killed = false
      const kill = () => {
        killed = true
        first.child.kill('SIGKILL')
      }
      const statuses = new Map<number, number>()
      const uploads = Promise.all(
        keys.map(async (key) => {
          const status = await postLogo(first.child, first.url, key, pictures[key - 1]!)
          statuses.set(key, status)
          if (status === 200 && !killed) kill()
        }),
      )
      while (!killed) {
        const seen = await Promise.all(keys.map((key) => versionOf(key).catch(() => undefined)))
        if (keys.some((key, i) => seen[i] !== versions[i] && !statuses.has(key))) kill()
      }
      await uploads
      await died

      const second = await start(store)
      for (const key of keys) {
        const logo = await logoOf(second.url, key)
        const kept = logo.equals(pictures[key - 1]!)
          ? 'new'
          : logo.equals(before[key - 1]!)
            ? 'old'
            : 'other'
        if (statuses.get(key) === 200) expect(kept, `Company(${key}), acknowledged`).toBe('new')
        else expect(['new', 'old'], `Company(${key}), not acknowledged`).toContain(kept)
      }
      second.child.kill('SIGKILL')
    },
  )
})

describe('a picture the journal cannot write', () => {
  it.skipIf(process.platform === 'win32')(
    'answers 503 JournalFailed, refuses the writes after it, and is not there after a restart',
    async () => {
      const store = join(folder, 'full')
      const args = ['serve', '-m', example('model.json'), '-d', example('data.json')]
      // Files of 4 or 8 MiB at most (the shell's blocks): the data's snapshot fits, a picture
      // does not. The write past the limit fails with EFBIG, off the event loop.
      const full = await startCli([...args, '--persist', store, '--port', '0'], {
        ready: 'Persisting to',
        fileSizeLimit: 8192,
      })
      const post = (path: string, body: Uint8Array | string, type: string) =>
        fetch(`${full.url}/rest/${path}`, {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as ErrorBody }))
      type ErrorBody = { __ERROR?: { errCode: number }[] }
      const picture = await post(
        'Company(1)/logo?$rawPict=image/png',
        bigPng(PICTURE_BYTES),
        'image/png',
      )
      expect([picture.status, picture.body.__ERROR?.[0]?.errCode]).toEqual([503, 9131])
      const later = await post('Company?$method=update', '{"name":"later"}', 'application/json')
      expect([later.status, later.body.__ERROR?.[0]?.errCode]).toEqual([503, 9131])
      expect((await fetch(`${full.url}/rest/Company(3)`)).status).toBe(200)
      expect((await fetch(`${full.url}/health`)).status).toBe(503)
      full.child.kill('SIGKILL')
      await full.exited

      const again = await startServe([...args.slice(1), '--persist', store], 'Persisting to')
      const company = (await (await fetch(`${again.url}/rest/Company(1)`)).json()) as {
        logo: { __deferred: { uri: string } }
      }
      const logo = await fetch(new URL(company.logo.__deferred.uri, again.url))
      expect((await logo.arrayBuffer()).byteLength).toBeLessThan(1024 * 1024) // the data file's
      again.child.kill('SIGKILL')
    },
  )
})
