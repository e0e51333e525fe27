// `4D.OutgoingMessage` (docs/API/OutgoingMessageClass.md): new(), setBody and the Content-Type it
// sets for a Text, a BLOB and an Object, setHeader, setStatus, the properties, and the errors for
// what it does not take; the message is core's OutgoingMessage, which the REST interface sends.
import { OutgoingMessage } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { run4d } from '../../compile/run4d.js'
import { errorOf, run } from '../commands/run.fixture.js'

describe('4D.OutgoingMessage', () => {
  it('new(): status 200, no header, no body; an instance of 4D.OutgoingMessage and 4D.Object', () => {
    expect(
      run(
        '$m:=4D.OutgoingMessage.new()\n' +
          'return [$m.status; $m.headers; $m.body; OB Instance of($m; 4D.OutgoingMessage); ' +
          'OB Instance of($m; 4D.Object); OB Instance of(New object; 4D.OutgoingMessage); 4D.OutgoingMessage.name]',
      ),
    ).toEqual([200, {}, null, true, true, false, 'OutgoingMessage'])
  })

  it('setBody sets the Content-Type of a Text, an Object; setHeader after it wins', () => {
    expect(
      run(
        '$m:=4D.OutgoingMessage.new()\n$m.setBody("hi")\n$t:=$m.headers["Content-Type"]\n' +
          '$m.setBody({a: 1})\n$j:=$m.headers["Content-Type"]\n' +
          '$m.setHeader("Content-Type"; "text/html")\n$m.setStatus(201)\n' +
          'return [$t; $j; $m.headers; $m.body; $m.status]',
      ),
    ).toEqual(['text/plain', 'application/json', { 'Content-Type': 'text/html' }, { a: 1 }, 201])
  })

  it('is what REST sends: an object body as JSON text, a BLOB as its bytes', () => {
    const m = run4d('$m:=4D.OutgoingMessage.new()\n$m.setBody({a: [1; "x"]})\nreturn $m', [])
    expect(OutgoingMessage.is(m)).toBe(true)
    const message = m as OutgoingMessage
    expect([message.body, message.headers.get('content-type')]).toEqual([
      '{"a":[1,"x"]}',
      'application/json',
    ])
    const bytes = new Uint8Array([0, 255, 1])
    const blob = run4d('$m:=4D.OutgoingMessage.new()\n$m.setBody($1)\nreturn $m', [bytes])
    expect((blob as OutgoingMessage).body).toBe(bytes)
    expect((blob as OutgoingMessage).headers.get('content-type')).toBe('application/octet-stream')
    // A 4D.Blob (File.getContent(), IncomingMessage.getBlob()) sends its bytes too.
    const boxed = run4d('$m:=4D.OutgoingMessage.new()\n$m.setBody(4D.Blob.new($1))\nreturn $m', [
      bytes,
    ])
    expect([...((boxed as OutgoingMessage).body as Uint8Array)]).toEqual([0, 255, 1])
  })

  it('.body is read-write and sets no header; .headers and .status are read-only', () => {
    expect(run('$m:=4D.OutgoingMessage.new()\n$m.body:="x"\nreturn [$m.body; $m.headers]')).toEqual(
      ['x', {}],
    )
    expect(errorOf('$m:=4D.OutgoingMessage.new()\n$m.status:=404').errCode).toBe(9411)
    expect(errorOf('$m:=4D.OutgoingMessage.new()\n$m.headers:={}').errCode).toBe(9411)
  })

  it('refuses a body, a header or a status it does not take, with a 4D error', () => {
    const m = '$m:=4D.OutgoingMessage.new()\n'
    expect(errorOf(m + '$m.setBody(12)').errCode).toBe(9406)
    expect(errorOf(m + '$m.setBody([1])').errCode).toBe(9406)
    expect(errorOf(m + '$m.setHeader("X-A"; 1)').errCode).toBe(9406)
    expect(errorOf(m + '$m.setStatus("404")').errCode).toBe(9406)
    expect(errorOf(m + '$m.setStatus(99)').errCode).toBe(9415)
    // A line break in a name or a value would end the reply's headers; the session cookie is the server's.
    expect(errorOf(m + '$m.setHeader("X-A"+Char(13)+Char(10)+"Set-Cookie"; "x")').errCode).toBe(
      9415,
    )
    expect(errorOf(m + '$m.setHeader("X-A"; "a"+Char(10)+"Set-Cookie: x")').errCode).toBe(9415)
    expect(errorOf(m + '$m.setHeader("Set-Cookie"; "x")').errCode).toBe(9415)
  })
})
