// The workers' queue (workers.ts): jobs after the caller's turn, in order, as their caller, with
// the worker's variables kept; a signal's wait runs them at once; KILL WORKER drops them.
import { actingNow, runActor, type Actor } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { MAX_QUEUED, Workers, type WorkerJob } from './workers.js'

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

describe('workers', () => {
  it('run each job after the caller, in order, as the caller acted, with the worker variables', async () => {
    const seen: string[] = []
    const workers = new Workers((job: WorkerJob, variables) => {
      const n = ((variables.get('n') as number | undefined) ?? 0) + 1
      variables.set('n', n)
      const actor = actingNow() as unknown as { name: string } | undefined
      seen.push(`${job.worker}:${String(job.job)}:${n}:${actor?.name ?? 'none'}`)
    })
    const ada = { name: 'ada', scope: {} } as unknown as Actor
    runActor(ada, () => workers.call('mail', 'send', []))
    workers.call('mail', 'send', [])
    workers.call('other', 'count', [])
    expect(seen).toEqual([])
    // One job a turn: the server answers others between two.
    await turn()
    expect(seen).toEqual(['mail:send:1:ada'])
    await turn()
    await turn()
    expect(seen).toEqual(['mail:send:1:ada', 'mail:send:2:none', 'other:count:1:none'])
  })

  it('run the queued jobs when a signal waits, and drop a killed worker with its variables', async () => {
    const seen: string[] = []
    let triggered = false
    const workers = new Workers((job, variables) => {
      variables.set('n', ((variables.get('n') as number | undefined) ?? 0) + 1)
      seen.push(`${String(job.job)}:${String(variables.get('n'))}`)
      if (job.job === 'trigger') triggered = true
    })
    workers.call('w', 'a', [])
    workers.call('w', 'trigger', [])
    workers.call('w', 'after', [])
    workers.runUntil(() => triggered)
    expect(seen).toEqual(['a:1', 'trigger:2'])
    workers.kill('w')
    expect(workers.pending).toBe(0)
    workers.call('w', 'again', [])
    await turn()
    expect(seen).toEqual(['a:1', 'trigger:2', 'again:1'])
  })

  it('run a New process once, as a process of its own, numbered; * answers the one not run yet', async () => {
    const seen: string[] = []
    const workers = new Workers((job, variables) => {
      variables.set('n', ((variables.get('n') as number | undefined) ?? 0) + 1)
      seen.push(`${job.name}:${String(job.job)}:${String(variables.get('n'))}`)
    })
    const first = workers.spawn('export', 'run', [], true)
    expect(workers.spawn('export', 'run', [], true)).toBe(first)
    const second = workers.spawn('export', 'run', [], false)
    expect(second).toBe(first + 1)
    await turn()
    await turn()
    // Each process's variables are its own, and end with it.
    expect(seen).toEqual(['export:run:1', 'export:run:1'])
  })

  it('take at most MAX_QUEUED waiting jobs; the next is a 4D error, the queue kept', () => {
    const workers = new Workers(() => {})
    for (let i = 0; i < MAX_QUEUED; i++) workers.call('w', 'job', [])
    let e: unknown
    try {
      workers.call('w', 'job', [])
    } catch (error) {
      e = error
    }
    expect(FourDError.is(e) && e.errCode).toBe(9434)
    expect(workers.pending).toBe(MAX_QUEUED)
    workers.kill('w')
  })
})
