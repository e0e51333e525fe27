/**
 * What every "Entistore inside a server" example must do once started (examples/express, fastify,
 * hono, fetch, node-server): serve reads and writes under /rest, a JSON body included, answer
 * errors with `__ERROR`, and leave the application's own route (`/hello`) to the application.
 */
import { expect } from 'vitest'
import { runExample, type RunOptions } from './run-example.fixture.ts'

/**
 * Starts `file` as its README says (or with `run`'s command: another runtime), checks it, and stops
 * it. `hello`: what `/hello` answers.
 */
export async function checkEmbedded(
  file: string,
  hello?: unknown,
  run: RunOptions = {},
): Promise<void> {
  const example = await runExample(file, run)
  try {
    const url = example.url
    const catalog = await fetch(`${url}/rest/$catalog`)
    expect(catalog.status).toBe(200)
    const one = (await (await fetch(`${url}/rest/Employee(1)`)).json()) as { lastName: string }
    expect(one.lastName).toBe('Silva')

    const created = await fetch(`${url}/rest/Employee?$method=update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Ada', lastName: 'Example', salary: 5000 }),
    })
    expect(created.status).toBe(200)
    const { __KEY } = (await created.json()) as { __KEY: string }
    const read = (await (await fetch(`${url}/rest/Employee(${__KEY})`)).json()) as {
      lastName: string
    }
    expect(read.lastName).toBe('Example')

    const bad = await fetch(`${url}/rest/Employee?$method=update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"lastName": ',
    })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { __ERROR: { errCode: number }[] }).__ERROR[0]!.errCode).toBe(
      9030,
    )
    expect((await fetch(`${url}/rest/Nope`)).status).toBe(404)

    if (hello !== undefined) {
      const own = await fetch(`${url}/hello`)
      expect([own.status, await own.json()]).toEqual([200, hello])
    }
  } catch (error) {
    throw new Error(`${file}: ${String(error)}\n${example.output()}`, { cause: error })
  } finally {
    await example.stop()
  }
}
