/**
 * `entistore serve` in a child process, stopped with SIGTERM: what a deployment relies on. The
 * health endpoint's fields; a write in flight (held by `--delay`) is answered and on disk while
 * new connections are refused, and the exit code is 0; past `--shutdown-timeout`, it is cut off
 * and the exit code is 1.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { shopFiles, startCli, type CliProcess } from '../persist/cli-process.fixture.js'
import type { HealthReply } from '../serve/serve.js'

const { folder, model, data } = shopFiles('cli-stop', ['pen'])

const health = async (url: string): Promise<HealthReply> =>
  (await (await fetch(`${url}/health`)).json()) as HealthReply

/** Sends a write; resolves, once the server holds it (the health endpoint is not delayed), with its reply to come. */
async function writeInFlight(cli: CliProcess, name: string) {
  const reply = fetch(`${cli.url}/rest/Item?$method=update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  })
  reply.catch(() => {}) // the forced case rejects: awaited there
  while ((await health(cli.url)).inFlight === 0) await new Promise((r) => setTimeout(r, 10))
  return { reply }
}

/** Resolves once a new connection is refused. */
async function refused(url: string): Promise<void> {
  for (;;) {
    try {
      await fetch(`${url}/health`)
    } catch {
      return
    }
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe('entistore serve, stopped with SIGTERM', () => {
  it('answers the write in flight, flushes it, refuses new connections, exits 0', async () => {
    const store = join(folder, 'store')
    const cli = await startCli(
      [
        'serve',
        '-m',
        model,
        '-d',
        data,
        '--persist',
        store,
        '--delay',
        '1500',
        '--port',
        '0',
        '--health-details',
      ],
      { ready: 'Chaos:' },
    )
    expect(await health(cli.url)).toEqual({
      status: 'ok',
      pid: cli.child.pid,
      uptime: expect.any(Number),
      globalStamp: expect.any(Number),
      sessions: 0,
      inFlight: 0,
      // The worker threads (--threads auto), started by no read yet.
      parallel: { threads: expect.any(Number), runs: 0 },
      persist: 'open',
      memory: {
        heapUsed: expect.any(Number),
        heapLimit: expect.any(Number),
        rss: expect.any(Number),
      },
    })
    const { reply: write } = await writeInFlight(cli, 'cap')
    let answered = false
    void write.then(() => (answered = true))
    cli.child.kill('SIGTERM')
    await refused(cli.url)
    expect(answered).toBe(false)
    const reply = await write
    expect(reply.status).toBe(200)
    expect(await cli.exited).toEqual({ code: 0, signal: null })
    expect(cli.stderr()).toBe('')

    const again = await startCli(['serve', '-m', model, '--persist', store, '--port', '0'], {
      ready: 'Persisting to',
    })
    const items = (await (await fetch(`${again.url}/rest/Item?$attributes=name`)).json()) as {
      __ENTITIES: { name: string }[]
    }
    expect(items.__ENTITIES.map((e) => e.name)).toEqual(['pen', 'cap'])
    again.child.kill('SIGTERM')
    expect((await again.exited).code).toBe(0)
  })

  it('past --shutdown-timeout, cuts the request off and exits 1', async () => {
    const cli = await startCli(
      ['serve', '-m', model, '--delay', '60000', '--shutdown-timeout', '200', '--port', '0'],
      { ready: 'Chaos:' },
    )
    const { reply: write } = await writeInFlight(cli, 'late')
    cli.child.kill('SIGTERM')
    await expect(write).rejects.toThrow()
    expect(await cli.exited).toEqual({ code: 1, signal: null })
    expect(cli.stderr()).toBe(
      'entistore: still stopping after 200 ms (--shutdown-timeout): 1 request(s) cut off\n',
    )
  })
})
