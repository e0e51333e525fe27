import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatastore, type Datastore } from '@entistore/core'
import { debounce, Reloader, watchFiles, type ReloadOutcome, type Timers } from './watch.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-watch-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Timers that fire only when the test says so. */
function manualTimers() {
  let next = 0
  const pending = new Map<number, () => void>()
  const timers: Timers = {
    set: (fn) => {
      pending.set(++next, fn)
      return next
    },
    clear: (handle) => void pending.delete(handle as number),
  }
  const fire = () => {
    const fns = [...pending.values()]
    pending.clear()
    for (const fn of fns) fn()
  }
  return { timers, pending, fire }
}

describe('debounce', () => {
  it('runs once for a burst of calls, after the last one', () => {
    const t = manualTimers()
    let runs = 0
    const call = debounce(() => runs++, 100, t.timers)
    call()
    call()
    call()
    expect(t.pending.size).toBe(1)
    expect(runs).toBe(0)
    t.fire()
    expect(runs).toBe(1)
    call()
    t.fire()
    expect(runs).toBe(2)
  })
})

describe('watchFiles', () => {
  it('sees a file written in place and a file replaced by a rename', async () => {
    const file = join(dir, 'watched.json')
    writeFileSync(file, '1')
    let changed!: () => void
    let next = new Promise<void>((resolve) => (changed = resolve))
    const stop = watchFiles([file], () => changed(), { debounceMs: 10 })
    try {
      writeFileSync(file, '2')
      await next
      next = new Promise<void>((resolve) => (changed = resolve))
      // An atomic save: a new file renamed over the watched one.
      writeFileSync(join(dir, 'watched.json.tmp'), '3')
      renameSync(join(dir, 'watched.json.tmp'), file)
      await next
    } finally {
      stop()
    }
  })
})

describe('Reloader', () => {
  const model = { dataClasses: [{ name: 'A', attributes: [{ name: 'ID', type: 'long' }] }] }

  function setup(load: () => Promise<Datastore>) {
    const file = join(dir, `r-${Math.random()}.json`)
    writeFileSync(file, 'one')
    const outcomes: ReloadOutcome[] = []
    const served: Datastore[] = []
    const reloader = new Reloader({
      files: [file],
      load,
      replace: (ds) => served.push(ds),
      onOutcome: (o) => outcomes.push(o),
    })
    return { file, outcomes, served, reloader }
  }

  it('reloads when the bytes changed, does nothing when they did not, keeps serving on a failure', async () => {
    let fail = false
    const { file, outcomes, served, reloader } = setup(async () => {
      if (fail) throw new Error('bad file')
      return createDatastore(model as never)
    })
    await reloader.noteServed()
    await reloader.request()
    expect(outcomes.map((o) => o.kind)).toEqual(['unchanged'])
    writeFileSync(file, 'two')
    await reloader.request()
    expect(outcomes.map((o) => o.kind)).toEqual(['unchanged', 'reloaded'])
    expect(served).toHaveLength(1)
    fail = true
    writeFileSync(file, 'three')
    await reloader.request()
    expect(outcomes[2]).toEqual({ kind: 'failed', error: new Error('bad file') })
    expect(served).toHaveLength(1)
    // Our own save: noted as served, so the change it makes is not a reload.
    reloader.noteWritten(file, 'four')
    writeFileSync(file, 'four')
    await reloader.request()
    expect(outcomes[3]).toEqual({ kind: 'unchanged' })
  })

  it('runs one reload at a time, and once more for requests made during it', async () => {
    let release!: () => void
    let loads = 0
    const { file, outcomes, reloader } = setup(() => {
      loads++
      return new Promise((resolve) => {
        release = () => resolve(createDatastore(model as never))
      })
    })
    await reloader.noteServed()
    writeFileSync(file, 'changed')
    const first = reloader.request()
    void reloader.request()
    void reloader.request()
    // Wait until the first load started.
    while (loads === 0) await new Promise((r) => setImmediate(r))
    writeFileSync(file, 'changed again')
    release()
    await first
    while (loads < 2) await new Promise((r) => setImmediate(r))
    release()
    while (outcomes.length < 2) await new Promise((r) => setImmediate(r))
    expect(loads).toBe(2)
    expect(outcomes.map((o) => o.kind)).toEqual(['reloaded', 'reloaded'])
  })
})
