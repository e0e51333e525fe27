/**
 * The bytes written to Redis, to the letter: processes of an older entistore read the same keys,
 * and the Lua scripts edit the JSON of sessions and locks as text. A change here is a change of
 * the wire format.
 */
import type { Session, StoredSet } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import {
  decodeMessage,
  decodeSet,
  encodeLock,
  encodeSession,
  encodeSet,
  RedisKeys,
  setReleasedMessage,
  sharedLock,
  toldStart,
  versionOf,
} from './wire.js'

const session = {
  id: 'S1',
  createdAt: 1000,
  timeout: 60_000,
  established: true,
  data: new Map<string, unknown>([
    ['cart', 3],
    ['__user', { name: 'ada' }],
  ]),
} as unknown as Session

describe('what the processes write to Redis', () => {
  it('a session: created, timeout, established and data, its version left to the script', () => {
    expect(encodeSession(session)).toBe(
      '{"c":1000,"t":60000,"e":1,"d":[["cart",3],["__user",{"name":"ada"}]]}',
    )
    expect(encodeSession(session, ['__user'])).toBe(
      '{"c":1000,"t":60000,"e":1,"d":[["__user",{"name":"ada"}]]}',
    )
    const bare = { ...session, established: false, data: new Map() } as unknown as Session
    expect(encodeSession(bare)).toBe('{"c":1000,"t":60000,"e":0}')
    // Written before sessions had versions: older than any written since, newer than none.
    expect(versionOf({ c: 1, t: 1, e: 0 } as never)).toBe(0.5)
    expect(versionOf(null)).toBe(0)
  })

  it('a lock: its session, dataclass, key and the owner’s client info when there is one', () => {
    expect(encodeLock(sharedLock('S1', 'Employee', 7, undefined))).toBe(
      '{"i":"S1","d":"Employee","k":7}',
    )
    const info = { host: 'h', IPAddr: '1.2.3.4' } as never
    expect(encodeLock(sharedLock('S1', 'Tag', '7', info))).toBe(
      '{"i":"S1","d":"Tag","k":"7","n":{"host":"h","IPAddr":"1.2.3.4"}}',
    )
  })

  it('a set: dataclass, keys, sorted, timeout, saved filter and order, owner, view', () => {
    const set = {
      id: 'E1',
      dataClass: 'Employee',
      sorted: true,
      timeout: 7_200_000,
      savedFilter: 'salary>1',
      savedOrderBy: undefined,
      owner: { kind: 'session', id: 'S1', user: 'ada' },
    } as unknown as StoredSet
    const json = encodeSet(set, [3, null, 1])
    expect(json).toBe(
      '{"dc":"Employee","k":[3,null,1],"s":true,"t":7200000,"f":"salary>1","w":{"k":"session","i":"S1","u":"ada"}}',
    )
    expect(decodeSet(json)).toEqual({
      dataClass: 'Employee',
      keys: [3, null, 1],
      sorted: true,
      timeout: 7_200_000,
      owner: { kind: 'session', id: 'S1', user: 'ada' },
      savedFilter: 'salary>1',
      // Written without a view by a session: code's, of a view nobody has.
      view: '',
    })
    // Written before sets had owners: the process's, with no view.
    const old = decodeSet('{"dc":"Employee","k":[],"s":false,"t":1000}')
    expect([old.owner, old.view]).toEqual([{ kind: 'process', id: 'process' }, null])
    // The view that made it and what that needed travel with it.
    const made = {
      ...set,
      view: 'user:"ada"\u0000reader',
      access: [['read', 'Employee', 'salary']],
    }
    const again = decodeSet(encodeSet(made as unknown as StoredSet, []))
    expect([again.view, again.access]).toEqual([made.view, made.access])
  })

  it('the messages, and the keys under their prefix', () => {
    expect(toldStart('P', 4, 'closed', 'S1')).toBe('{"o":"P","n":4,"t":"closed","id":"S1"')
    expect(setReleasedMessage('P', 'E1')).toBe('{"o":"P","t":"set-released","id":"E1"}')
    expect(decodeMessage('not json')).toBeUndefined()
    const keys = new RedisKeys('app:')
    expect([keys.session('S1'), keys.set('E1'), keys.lock('Employee', '7')]).toEqual([
      'app:s:S1',
      'app:e:E1',
      'app:l:Employee:"7"',
    ])
    expect([keys.channel, keys.locks, keys.setIdKey]).toEqual([
      'app:events',
      'app:locks',
      'app:set-id-key',
    ])
    expect(keys.owners({ kind: 'session', id: 'S1', user: 'ada' })).toEqual([
      'app:os:S1',
      'app:ou:ada',
    ])
    expect(keys.owners({ kind: 'process', id: 'process' })).toEqual([])
  })
})
