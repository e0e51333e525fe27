/** `entistore serve --persist <dir>` in-process: what it says it found, and what it refuses. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../cli.js'
import type { RunningServer } from '../serve/serve.js'

const folder = mkdtempSync(join(tmpdir(), 'entistore-cli-persist-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
const model = join(folder, 'model.json')
const data = join(folder, 'data.json')
const store = join(folder, 'store')
writeFileSync(
  model,
  JSON.stringify({
    dataClasses: [
      {
        name: 'Item',
        attributes: [
          { name: 'ID', type: 'long', autosequence: true },
          { name: 'name', type: 'string' },
        ],
      },
    ],
  }),
)
writeFileSync(data, JSON.stringify({ Item: [{ name: 'pen' }, { name: 'ink' }] }))

/** Serves `argv` until `during` is done; its output lines and exit code. */
async function serveWhile(argv: string[], during: (url: string) => Promise<void>) {
  const out: string[] = []
  const err: string[] = []
  let stop!: () => void
  let listening!: (s: RunningServer) => void
  const started = new Promise<RunningServer>((resolve) => (listening = resolve))
  const done = main(['serve', ...argv, '--port', '0'], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stopSignal: new Promise((resolve) => (stop = resolve)),
    onListening: (s) => listening(s),
  })
  const server = await Promise.race([started, done.then(() => undefined)])
  if (server) await during(server.url)
  stop()
  return { code: await done, out, err }
}

describe('entistore serve --persist', () => {
  it('loads the data file into an empty folder, then serves the folder and does not read the file', async () => {
    const first = await serveWhile(['-m', model, '-d', data, '--persist', store], async (url) => {
      const reply = await fetch(`${url}/rest/Item?$method=update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"cap"}',
      })
      expect(reply.status).toBe(200)
    })
    expect(first.code).toBe(0)
    expect(first.out[1]).toBe(
      `Persisting to ${store} (every write on disk before its reply): an empty folder: ${data} loaded into it`,
    )
    writeFileSync(data, 'not even JSON: the folder wins, so this is never read')
    let names: string[] = []
    const second = await serveWhile(['-m', model, '-d', data, '--persist', store], async (url) => {
      const reply = await fetch(`${url}/rest/Item?$attributes=name`)
      names = ((await reply.json()) as { __ENTITIES: { name: string }[] }).__ENTITIES.map(
        (e) => e.name,
      )
    })
    expect(second.err).toEqual([])
    expect(second.out[1]).toBe(
      `Persisting to ${store} (every write on disk before its reply): 2 entities from its snapshot, 1 journal records; ${data} not read`,
    )
    expect(names).toEqual(['pen', 'ink', 'cap'])
  })

  it('refuses --watch with it: a reload would replace what the journal follows', async () => {
    const err: string[] = []
    const code = await main(['serve', '-m', model, '--persist', store, '--watch'], {
      out: () => {},
      err: (l) => err.push(l),
    })
    expect(code).toBe(2)
    expect(err[0]).toBe('entistore: --persist and --watch cannot go together')
  })
  it('refuses --postgres with it: PostgreSQL is then the durable copy', async () => {
    const err: string[] = []
    const argv = ['serve', '-m', model, '--persist', store, '--postgres', 'postgres://x/y']
    const code = await main(argv, { out: () => {}, err: (l) => err.push(l) })
    expect(code).toBe(2)
    expect(err[0]).toBe('entistore: --postgres goes with neither --persist nor --watch')
  })
})
