/**
 * The durability promise, end to end: `entistore serve --persist` in a child process takes a
 * load of writes (single inserts and `$atomic` batches from several clients at once), is killed
 * with SIGKILL in the middle of it, and is started again on the same folder. Every write that got
 * a 200 must be there; a batch must be there whole or not at all; nothing else may appear.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const CHILD = fileURLToPath(new URL('./cli-child.fixture.ts', import.meta.url))
// tsx's loader, found from this package, so that the child runs TypeScript sources.
const TSX = createRequire(import.meta.url).resolve('tsx')

const MODEL = {
  __NAME: 'crash',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', unique: true },
      ],
    },
  ],
}

const folder = mkdtempSync(join(tmpdir(), 'entistore-crash-'))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(folder, { recursive: true, force: true })
})

/** Starts `entistore serve --persist`; resolves with its URL once it listens. */
function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', TSX, '--conditions=source', CHILD, 'serve', ...args, '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  children.push(child)
  let out = ''
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0]
      if (url && out.includes('Persisting to')) resolve({ child, url })
    })
    child.on('exit', (code) => reject(new Error(`the server exited (${code}): ${out}${err}`)))
  })
}

const JSON_BODY = { 'content-type': 'application/json' }

describe('entistore serve --persist, killed with SIGKILL mid-load', () => {
  it('keeps every acknowledged write, and no batch in part', { timeout: 60_000 }, async () => {
    const model = join(folder, 'model.json')
    const data = join(folder, 'data.json')
    const store = join(folder, 'store')
    writeFileSync(model, JSON.stringify(MODEL))
    writeFileSync(data, JSON.stringify({ Item: [{ name: 'seed' }] }))
    const args = ['-m', model, '-d', data, '--persist', store]

    const first = await start(args)
    const acknowledged = new Set<string>()
    const batches = new Map<string, string[]>() // every batch sent, acknowledged or not
    const sent = new Set<string>(['seed'])
    let killed = false
    const died = new Promise((resolve) => first.child.on('exit', resolve))
    // Four clients write as fast as the server answers, until the kill cuts them off.
    const client = async (c: number): Promise<void> => {
      for (let i = 0; !killed; i++) {
        const names = i % 3 === 2 ? [0, 1, 2].map((j) => `b${c}-${i}-${j}`) : [`w${c}-${i}`]
        names.forEach((n) => sent.add(n))
        if (names.length > 1) batches.set(names[0]!, names)
        const atomic = names.length > 1 ? '&$atomic=true' : ''
        const body = names.length > 1 ? names.map((name) => ({ name })) : { name: names[0] }
        try {
          const reply = await fetch(`${first.url}/rest/Item?$method=update${atomic}`, {
            method: 'POST',
            headers: JSON_BODY,
            body: JSON.stringify(body),
          })
          await reply.arrayBuffer()
          if (reply.status === 200) names.forEach((n) => acknowledged.add(n))
        } catch {
          return // the connection died with the server
        }
        if (acknowledged.size >= 300 && !killed) {
          killed = true
          first.child.kill('SIGKILL')
        }
      }
    }
    await Promise.all([0, 1, 2, 3].map(client))
    await died

    const second = await start(args)
    const reply = await fetch(`${second.url}/rest/Item?$top=100000&$attributes=name`)
    const names = new Set(
      ((await reply.json()) as { __ENTITIES: { name: string }[] }).__ENTITIES.map((e) => e.name),
    )
    second.child.kill('SIGTERM')

    expect(acknowledged.size).toBeGreaterThanOrEqual(300)
    expect([...acknowledged].filter((n) => !names.has(n))).toEqual([])
    expect([...names].filter((n) => !sent.has(n))).toEqual([])
    for (const batch of batches.values()) {
      const there = batch.filter((n) => names.has(n)).length
      expect([0, batch.length], `batch ${batch[0]}`).toContain(there)
    }
    expect(names.has('seed')).toBe(true)
  })
})
