import { EventEmitter } from 'node:events'
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, type FSWatcher } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatastore, type Datastore } from '@entistore/core'
import {
  debounce,
  fileStamps,
  Reloader,
  watchFiles,
  type ReloadOutcome,
  type Timers,
} from './watch.js'
import { digestOf } from '../persist/save.js'

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

  it('cancel() drops the call still waiting, and a later call arms it again', () => {
    const t = manualTimers()
    let runs = 0
    const call = debounce(() => runs++, 100, t.timers)
    call()
    call.cancel()
    expect(t.pending.size).toBe(0)
    t.fire()
    expect(runs).toBe(0)
    call.cancel()
    call()
    t.fire()
    expect(runs).toBe(1)
  })
})

/** Directory watchers the test drives: `emit('change', ...)`, `emit('error', ...)`. */
function fakeWatchers() {
  const made: { dir: string; watcher: EventEmitter & { closed: boolean } }[] = []
  const watch = (dir: string, listener: (event: string, name: string | null) => void) => {
    const watcher = Object.assign(new EventEmitter(), {
      closed: false,
      close() {
        watcher.closed = true
      },
    })
    watcher.on('change', listener)
    made.push({ dir, watcher })
    return watcher as unknown as FSWatcher
  }
  return { watch, made }
}

describe('watchFiles, driven by fake watchers', () => {
  it('after stop, a change seen just before does not call onChange', () => {
    const t = manualTimers()
    const w = fakeWatchers()
    let changes = 0
    const stop = watchFiles([join(dir, 'a.json')], () => changes++, {
      timers: t.timers,
      watch: w.watch,
    })
    w.made[0]!.watcher.emit('change', 'change', 'other.json')
    expect(t.pending.size).toBe(0)
    w.made[0]!.watcher.emit('change', 'change', 'a.json')
    expect(t.pending.size).toBe(1)
    stop()
    expect(w.made[0]!.watcher.closed).toBe(true)
    t.fire()
    expect(changes).toBe(0)
  })

  it('watches a folder itself, any file in it being a change', () => {
    const t = manualTimers()
    const w = fakeWatchers()
    const folder = join(dir, 'classes')
    mkdirSync(folder)
    let changes = 0
    watchFiles([join(dir, 'a.json'), folder], () => changes++, { timers: t.timers, watch: w.watch })
    expect(w.made.map((m) => m.dir)).toEqual([dir, folder])
    w.made[1]!.watcher.emit('change', 'rename', 'New.4dm')
    t.fire()
    expect(changes).toBe(1)
    // Beside it, the folder's own parent still hears only the file named.
    w.made[0]!.watcher.emit('change', 'change', 'other.json')
    expect(t.pending.size).toBe(0)
  })

  it('a watcher error stops every watcher and is told to onError, not thrown', () => {
    const t = manualTimers()
    const w = fakeWatchers()
    const errors: Error[] = []
    let changes = 0
    watchFiles([join(dir, 'a.json'), join(dir, 'sub', 'b.json')], () => changes++, {
      timers: t.timers,
      watch: w.watch,
      onError: (e) => errors.push(e),
    })
    expect(w.made.map((m) => m.dir)).toEqual([dir, join(dir, 'sub')])
    w.made[0]!.watcher.emit('change', 'rename', 'a.json')
    const gone = Object.assign(new Error('watch failed'), { code: 'EPERM' })
    w.made[1]!.watcher.emit('error', gone)
    expect(errors).toEqual([gone])
    expect(w.made.map((m) => m.watcher.closed)).toEqual([true, true])
    t.fire()
    w.made[0]!.watcher.emit('change', 'rename', 'a.json')
    expect(t.pending.size).toBe(0)
    expect(changes).toBe(0)
  })

  it('a directory that cannot be watched closes the ones already watched', () => {
    const w = fakeWatchers()
    const watch = (d: string, listener: (event: string, name: string | null) => void) => {
      if (d !== dir) throw Object.assign(new Error('no more watches'), { code: 'ENOSPC' })
      return w.watch(d, listener)
    }
    expect(() =>
      watchFiles([join(dir, 'a.json'), join(dir, 'sub', 'b.json')], () => {}, { watch }),
    ).toThrow('no more watches')
    expect(w.made.map((m) => m.watcher.closed)).toEqual([true])
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
    reloader.noteWritten(file, digestOf(Buffer.from('four')))
    writeFileSync(file, 'four')
    await reloader.request()
    expect(outcomes[3]).toEqual({ kind: 'unchanged' })
  })

  it('takes a folder for its files: one added, changed or removed reloads, nothing else does', async () => {
    const folder = join(dir, `csv-${Math.random()}`)
    mkdirSync(folder)
    writeFileSync(join(folder, 'A.csv'), 'ID\n1\n')
    const outcomes: ReloadOutcome[] = []
    const reloader = new Reloader({
      files: [folder],
      load: async () => createDatastore(model as never),
      replace: () => {},
      onOutcome: (o) => outcomes.push(o),
    })
    const stamps = await fileStamps([folder])
    await reloader.noteServed(stamps)
    const kinds = async (): Promise<string> => {
      await reloader.request()
      return outcomes.at(-1)!.kind
    }
    expect(await kinds()).toBe('unchanged')
    writeFileSync(join(folder, 'B.csv'), 'ID\n2\n')
    expect(await kinds()).toBe('reloaded')
    expect(await fileStamps([folder])).not.toEqual(stamps)
    writeFileSync(join(folder, 'B.csv'), 'ID\n3\n')
    expect(await kinds()).toBe('reloaded')
    rmSync(join(folder, 'B.csv'))
    expect(await kinds()).toBe('reloaded')
    // A subfolder is not among the files it stands for.
    mkdirSync(join(folder, 'files'))
    writeFileSync(join(folder, 'files', 'logo.png'), 'x')
    expect(await kinds()).toBe('unchanged')
  })

  it('reports a replace that throws as a failed reload, and what onOutcome throws as one too', async () => {
    const file = join(dir, `r-${Math.random()}.json`)
    writeFileSync(file, 'one')
    const outcomes: ReloadOutcome[] = []
    let throwIn: 'replace' | 'onOutcome' = 'replace'
    const reloader = new Reloader({
      files: [file],
      load: async () => createDatastore(model as never),
      replace: () => {
        if (throwIn === 'replace') throw new Error('replace broke')
      },
      onOutcome: (o) => {
        outcomes.push(o)
        if (throwIn === 'onOutcome') throw new Error('onOutcome broke')
      },
    })
    await reloader.noteServed()
    writeFileSync(file, 'two')
    await reloader.request()
    expect(outcomes).toEqual([{ kind: 'failed', error: new Error('replace broke') }])
    throwIn = 'onOutcome'
    // Resolves (an unhandled rejection would fail the run): told once more, as a failure.
    await reloader.request()
    expect(outcomes.slice(1).map((o) => o.kind)).toEqual(['reloaded', 'failed'])
    expect(outcomes[2]).toEqual({ kind: 'failed', error: new Error('onOutcome broke') })
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
