// `4D.IncomingMessage` (docs/API/IncomingMessageClass.md): what an HTTP request handler's 4D code
// reads of core's IncomingMessage — url, urlPath, urlQuery, verb, headers, getHeader in any case,
// getText, getJSON (an error for a body that is not JSON), getBlob, getPicture — and that nothing
// of it can be assigned.
import { IncomingMessage } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { run4d } from '../../compile/run4d.js'
import { plain } from '../commands/run.fixture.js'
import type { BlobObject } from '../values/blob-object.js'
import { FourDIncomingMessage } from './incoming-message.js'

const request = (body?: string, type = 'application/json'): FourDIncomingMessage =>
  new FourDIncomingMessage(
    new IncomingMessage({
      verb: 'POST',
      path: '/start/example',
      query: 'param=demo&name=4D',
      headers: { 'content-type': type, 'x-two': ['a', 'b'] },
      body,
    }),
  )

const run = (code: string, message: FourDIncomingMessage): unknown =>
  plain(run4d(`var $r : 4D.IncomingMessage\n$r:=$1\n${code}`, [message]))

const errorCode = (code: string, message: FourDIncomingMessage): unknown => {
  try {
    run(code, message)
  } catch (e) {
    return (e as { errCode?: number }).errCode
  }
  return undefined
}

describe('4D.IncomingMessage', () => {
  it('gives the URL, its parts, its query, the verb and the headers as 4D’s page shows them', () => {
    expect(
      run(
        'return [$r.url; $r.urlPath; $r.urlQuery; $r.verb; $r.headers["x-two"]; ' +
          'OB Instance of($r; 4D.IncomingMessage); $r.urlPath.join(" - ")]',
        request(),
      ),
    ).toEqual([
      '/start/example?param=demo&name=4D',
      ['start', 'example'],
      { param: 'demo', name: '4D' },
      'POST',
      'a, b',
      true,
      'start - example',
    ])
  })

  it('reads the body as text and JSON, a header in any case', () => {
    expect(
      run(
        'return [$r.getText(); $r.getJSON().a; $r.getHeader("Content-TYPE"); $r.getHeader("none")]',
        request('{"a":[1,2]}'),
      ),
    ).toEqual(['{"a":[1,2]}', [1, 2], 'application/json', ''])
  })

  it('gives the bytes as a 4D.Blob, and a picture only for an image', () => {
    const blob = run4d('return $1.getBlob()', [request('hi')]) as BlobObject
    expect([...blob.bytes]).toEqual([104, 105])
    const code =
      '$b:=$1.getBlob()\nreturn [OB Instance of($b; 4D.Blob); $b.size; Convert to text($b; "UTF-8")]'
    expect(plain(run4d(code, [request('hi')]))).toEqual([true, 2, 'hi'])
    expect(run4d('return $1.getPicture()', [request('hi')])).toBeNull()
    expect(run4d('return $1.getPicture()', [request('hi', 'image/png')])).toBeInstanceOf(Uint8Array)
  })

  it('raises an error for a body that is not JSON, and for an assignment', () => {
    expect(errorCode('return $r.getJSON()', request('{'))).toBeDefined()
    expect(errorCode('$r.url:="x"', request())).toBe(9411)
    expect(errorCode('$r.verb:="GET"', request())).toBe(9411)
  })
})
