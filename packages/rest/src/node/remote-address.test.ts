import { createDatastore, ManualClock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { serveOnSocket } from './serve.fixture.js'

describe('the client address over node:http', () => {
  it('is the IPAddr of a lock holder another session is shown', async () => {
    const ds = createDatastore(writeModel(), { data: writeData(), clock: new ManualClock() })
    const { base } = await serveOnSocket(ds)
    const first = await fetch(`${base}/rest/Employee(1)?$lock=true`, {
      headers: { 'user-agent': 'first-client' },
    })
    expect(((await first.json()) as { result: boolean }).result).toBe(true)
    // A second request without the first one's cookie is another session.
    const second = await fetch(`${base}/rest/Employee(1)?$lock=true`)
    const refused = (await second.json()) as {
      result: boolean
      __STATUS: { status: number; lockInfo: Record<string, unknown> }
    }
    expect(refused.result).toBe(false)
    expect(refused.__STATUS.status).toBe(3)
    expect(refused.__STATUS.lockInfo.IPAddr).toMatch(/127\.0\.0\.1$/)
    expect(refused.__STATUS.lockInfo.userAgent).toBe('first-client')
  })
})
