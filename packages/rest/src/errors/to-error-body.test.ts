import { datastoreError, ERRORS, type ErrorName } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { STATUS_BY_CATEGORY, toErrorReply } from './to-error-body.js'

describe('toErrorReply', () => {
  it('writes message, componentSignature and errCode in that order', () => {
    const reply = toErrorReply(datastoreError('EntityNotFound', ['7', 'Employee']))
    expect(reply.status).toBe(404)
    expect(JSON.stringify(reply.body)).toBe(
      JSON.stringify({
        __ERROR: [
          {
            message: 'Cannot find entity with "7" key in the "Employee" dataclass',
            componentSignature: 'dbmg',
            errCode: 1542,
          },
        ],
      }),
    )
  })

  it('lists a chain of errors outermost first, with the status of the outermost', () => {
    const inner = datastoreError('InvalidKey', ['x', 'Employee', 'not a number'])
    const outer = datastoreError('InvalidData', ['Employee[0].ID', 'bad key'], { cause: inner })
    const reply = toErrorReply(outer)
    expect(reply.status).toBe(400)
    expect((reply.body.__ERROR as { errCode: number }[]).map((e) => e.errCode)).toEqual([
      9021, 1541,
    ])
  })

  it('asks for the headers the error names: allow, and retry-after in whole seconds (at least 1)', () => {
    const busy = (retryAfter: number) =>
      toErrorReply(datastoreError('InjectedFailure', ['10%'], { details: { retryAfter } }))
    expect(busy(2.3).headers).toEqual({ 'retry-after': '3' })
    expect(busy(0).headers).toEqual({ 'retry-after': '1' })
    const post = datastoreError('MethodNotAllowed', ['GET', '/x'], { details: { allow: 'POST' } })
    expect(toErrorReply(post).headers).toEqual({ allow: 'POST' })
    expect(toErrorReply(datastoreError('EntityNotFound', ['7', 'E'])).headers).toBeUndefined()
  })

  it('stops the chain at the first cause that is not a DatastoreError', () => {
    const reply = toErrorReply(
      datastoreError('UrlMalformed', ['/x', 'why'], { cause: new Error('hidden detail') }),
    )
    expect(reply.body.__ERROR).toHaveLength(1)
    expect(JSON.stringify(reply.body)).not.toContain('hidden detail')
  })

  it.each<unknown>([
    new Error('boom'),
    new TypeError('x is undefined'),
    new RangeError('Maximum call stack size exceeded'),
    'a string',
    undefined,
    null,
    datastoreError('Internal', ['a detail from inside the engine']),
  ])('turns anything else (%j) into a 500 9099 with a fixed message', (thrown) => {
    expect(toErrorReply(thrown)).toEqual({
      status: 500,
      body: {
        __ERROR: [
          {
            message: 'Internal error: the server could not answer this request',
            componentSignature: 'enti',
            errCode: 9099,
          },
        ],
      },
    })
  })

  it('answers the size limits with 413 and 431', () => {
    expect(toErrorReply(datastoreError('BodyTooLarge', [1024])).status).toBe(413)
    expect(toErrorReply(datastoreError('HeadersTooLarge', [16384])).status).toBe(431)
  })
})

// The server could not do it now: a failure injected on purpose, a journal it cannot write, a
// shared log it cannot commit to or follow.
const UNAVAILABLE: ReadonlySet<string> = new Set([
  'QuerySuspended',
  'DatastoreLocked',
  'RequestAbandoned',
  'InjectedFailure',
  'JournalFailed',
  'ClusterWriteFailed',
  'ClusterBehind',
  'ClusterNotCurrent',
  'ClusterWriteUnconfirmed',
  'ClusterNoWriter',
  'SharedStateUnavailable',
  'BodiesInFlightFull',
  'PictureConversionsBusy',
  'IndexBuilding',
])

describe('STATUS_BY_CATEGORY', () => {
  it('gives every error of the table a 4xx, except the four not-implemented ones (501), the unavailable ones (503), a function past its time limit (504) and Internal (500)', () => {
    for (const [name, spec] of Object.entries(ERRORS) as [
      ErrorName,
      (typeof ERRORS)[ErrorName],
    ][]) {
      const status = STATUS_BY_CATEGORY[spec.category]
      if (
        name === 'NotImplemented' ||
        name === 'FunctionNotImplemented' ||
        name === 'ProjectFunctionNotImplemented' ||
        name === 'PictureConversionUnavailable'
      )
        expect(status).toBe(501)
      else if (name === 'Internal') expect(status).toBe(500)
      else if (UNAVAILABLE.has(name)) expect(status).toBe(503)
      else if (name === 'FunctionTimedOut') expect(status).toBe(504)
      else expect({ name, status: status >= 400 && status < 500 }).toEqual({ name, status: true })
    }
  })
})
