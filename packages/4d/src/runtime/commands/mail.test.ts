// The Mail theme in 4D code (mail.ts, runtime/mail/): SMTP New transporter's properties, send()
// and checkConnection() through a fake host that records what it is asked, MAIL New attachment
// and MAIL Convert to MIME, read back with a MIME reader of the tests'.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectFiles } from '../../project/project-files.js'
import type { SmtpAsk, SmtpHost, SmtpReply } from '../context/command-context.js'
import { decodeWords, parseMime, textOf } from '../mail/mime-parse.fixture.js'
import { errorOf, run } from './run.fixture.js'

/** A host that answers `reply` and keeps each ask. */
function fakeHost(reply: SmtpHost['send'] = () => ({ status: 250, statusText: '2.0.0 Ok' })): {
  host: SmtpHost
  asks: SmtpAsk[]
} {
  const asks: SmtpAsk[] = []
  return {
    asks,
    host: {
      send: (ask) => {
        asks.push(ask)
        return reply(ask)
      },
    },
  }
}

const withHost = (host: SmtpHost) => ({ runtime: { smtp: host } })
const mimeOf = (ask: SmtpAsk | undefined): string => new TextDecoder().decode(ask!.message!.mime)

const TRANSPORTER = `var $t : 4D.SMTPTransporter
$t:=SMTP New transporter({host: "smtp.example.com"; user: "ada@example.com"; password: "secret"})
`

describe('SMTP New transporter', () => {
  it("gives the server's settings as read-only properties, with the documented defaults", () => {
    expect(
      run(`${TRANSPORTER}
return [$t.host; $t.port; $t.acceptUnsecureConnection; $t.authenticationMode; $t.bodyCharset; \\
  $t.headerCharset; $t.connectionTimeOut; $t.sendTimeOut; $t.keepAlive; $t.user; $t.password; \\
  OB Instance of($t; 4D.SMTPTransporter); JSON Stringify($t)]`),
    ).toEqual([
      'smtp.example.com',
      587,
      false,
      // Undefined properties, as a collection holds them.
      null,
      'US-ASCII_UTF8_QP',
      'US-ASCII_UTF8_QP',
      30,
      100,
      true,
      'ada@example.com',
      null,
      true,
      '{"acceptUnsecureConnection":false,"bodyCharset":"US-ASCII_UTF8_QP","connectionTimeOut":30,' +
        '"headerCharset":"US-ASCII_UTF8_QP","host":"smtp.example.com","keepAlive":true,"port":587,' +
        '"sendTimeOut":100,"user":"ada@example.com"}',
    ])
    expect(
      run(`var $t : 4D.SMTPTransporter
$t:=4D.SMTPTransporter.new({host: "h"; port: 465; authenticationMode: SMTP authentication login; \\
  bodyCharset: mail mode UTF8 in base64; keepAlive: False; connectionTimeOut: 5})
return [$t.port; $t.authenticationMode; $t.bodyCharset; $t.keepAlive; $t.connectionTimeOut]`),
    ).toEqual([465, 'LOGIN', 'US-ASCII_UTF8_B64', false, 5])
    expect(errorOf(`${TRANSPORTER}\n$t.host:="other"`)).toMatchObject({ errCode: 9411 })
  })

  it('refuses a server object it cannot use: no host, a mode or charset not 4D’s, S/MIME', () => {
    for (const server of [
      '{port: 25}',
      '{host: "h"; authenticationMode: "NTLM"}',
      '{host: "h"; headerCharset: "UTF-16"}',
      '{host: "h"; port: 0}',
      '{host: "h"; certificateName: "me"}',
    ])
      expect(errorOf(`$t:=SMTP New transporter(${server})`)).toMatchObject({ errCode: 9415 })
  })
})

describe('send()', () => {
  it('sends the envelope and the MIME text to the host, and answers its status', () => {
    const { host, asks } = fakeHost()
    const status = run(
      `${TRANSPORTER}
$m:={from: "Ada <ada@example.com>"; to: "bob@example.org; Carl <carl@example.org>"; \\
  cc: {name: "Dee"; email: "dee@example.org"}; bcc: [{email: "BOB@example.org"}; {email: "eve@example.org"}]; \\
  subject: "Réunion"; textBody: "Bonjour"+Char(Carriage return)+"à demain"}
return $t.send($m)`,
      withHost(host),
    )
    expect(status).toEqual({ success: true, status: 250, statusText: '2.0.0 Ok' })
    const ask = asks[0]!
    expect({ ...ask, message: { ...ask.message, mime: undefined } }).toEqual({
      host: 'smtp.example.com',
      port: 587,
      tls: 'starttls',
      acceptUnsecure: false,
      auth: { user: 'ada@example.com', password: 'secret' },
      connectTimeoutMs: 30000,
      sendTimeoutMs: 100000,
      message: {
        from: 'ada@example.com',
        // The bcc too, each address once.
        recipients: ['bob@example.org', 'carl@example.org', 'dee@example.org', 'eve@example.org'],
        mime: undefined,
      },
    })
    const mime = parseMime(mimeOf(ask))
    expect(mime.headers.get('from')).toBe('Ada <ada@example.com>')
    expect(mime.headers.get('to')).toBe('bob@example.org, Carl <carl@example.org>')
    expect(mime.headers.get('cc')).toBe('Dee <dee@example.org>')
    expect(mime.headers.has('bcc')).toBe(false)
    expect(decodeWords(mime.headers.get('subject')!)).toBe('Réunion')
    expect(textOf(mime)).toBe('Bonjour\r\nà demain')
  })

  it('answers a refusal of the server as its status, success False', () => {
    const { host } = fakeHost(() => ({
      status: 550,
      statusText: '5.1.1 <nobody@example.org>: no such user',
    }))
    expect(
      run(
        `${TRANSPORTER}\nreturn $t.send({from: "ada@example.com"; to: "nobody@example.org"})`,
        withHost(host),
      ),
    ).toEqual({
      success: false,
      status: 550,
      statusText: '5.1.1 <nobody@example.org>: no such user',
    })
  })

  it('raises for a mail without from or recipient, or an address that is none, sending nothing', () => {
    const { host, asks } = fakeHost()
    for (const mail of [
      '{to: "bob@example.org"}',
      '{from: "ada@example.com"}',
      '{from: "ada@example.com"; to: "not an address"}',
      '{from: "ada@example.com"; to: "b@x.org"; attachments: [{name: "x"}]}',
    ])
      expect(errorOf(`${TRANSPORTER}\n$t.send(${mail})`, withHost(host))).toMatchObject({
        errCode: 9415,
      })
    expect(asks).toEqual([])
  })

  it('raises 9435 for a server the host does not allow, 9436 for one that does not answer', () => {
    const refused = fakeHost(() => ({ refused: 'the server allows no mail server' })).host
    const code = `${TRANSPORTER}
var $s : Object
$s:=Try($t.send({from: "ada@example.com"; to: "bob@example.org"}))
return [$s; Last errors[0].errCode; Last errors[0].message]`
    expect(run(code, withHost(refused))).toEqual([
      null,
      9435,
      'Mail to smtp.example.com:587 is not allowed here: the server allows no mail server',
    ])
    const failed = fakeHost(() => ({ failed: 'connect ECONNREFUSED' })).host
    expect(run(code, withHost(failed))).toEqual([
      null,
      9436,
      'The mail to smtp.example.com:587 failed: connect ECONNREFUSED',
    ])
    expect(errorOf(`${TRANSPORTER}\n$t.send({from: "a@b.c"; to: "d@e.f"})`)).toMatchObject({
      errCode: 9409,
    })
  })

  it('asks TLS from the start on port 465, the mode and the OAuth2 token given', () => {
    const { host, asks } = fakeHost()
    run(
      `$t:=SMTP New transporter({host: "h"; port: 465; user: "u"; accessTokenOAuth2: "tok"; acceptUnsecureConnection: True})
$t.send({from: "a@b.c"; to: "d@e.f"})`,
      withHost(host),
    )
    expect(asks[0]).toMatchObject({
      tls: 'implicit',
      acceptUnsecure: true,
      auth: { user: 'u', token: 'tok', mode: 'OAUTH2' },
    })
  })

  it('sends the attachments MAIL New attachment makes', () => {
    const { host, asks } = fakeHost()
    const made = run(
      `${TRANSPORTER}
var $a; $b : 4D.MailAttachment
var $blob : Blob
TEXT TO BLOB("a,b"; $blob; UTF8 text without length)
$a:=MAIL New attachment($blob; "data.csv"; ""; "text/csv")
$b:=MAIL New attachment(4D.Blob.new($blob); "logo.png"; "logo")
$t.send({from: "ada@example.com"; to: "bob@example.org"; htmlBody: "<img src='cid:logo'>"; attachments: [$a; $b]})
return [$a.name; $a.type; $a.disposition; $a.cid; $b.type; $b.disposition; $b.cid; $a.getContent().size; \\
  OB Instance of($b; 4D.MailAttachment)]`,
      withHost(host),
    )
    expect(made).toEqual([
      'data.csv',
      'text/csv',
      'attachment',
      null,
      'image/png',
      'inline',
      'logo',
      3,
      true,
    ])
    const root = parseMime(mimeOf(asks[0]))
    expect(root.headers.get('content-type')).toMatch(/^multipart\/mixed/)
    const [related, csv] = root.parts
    expect(related!.parts[1]!.headers.get('content-id')).toBe('<logo>')
    expect(new TextDecoder().decode(csv!.bytes)).toBe('a,b')
  })
})

describe('checkConnection()', () => {
  it('asks the host to connect and log in, no message, and answers its status', () => {
    const { host, asks } = fakeHost(() => ({
      status: 235,
      statusText: '2.7.0 Authentication successful',
    }))
    expect(run(`${TRANSPORTER}\nreturn $t.checkConnection()`, withHost(host))).toEqual({
      success: true,
      status: 235,
      statusText: '2.7.0 Authentication successful',
    })
    expect(asks[0]!.message).toBeUndefined()
  })

  it('answers status 0 and the error in errors when no reply came, without raising', () => {
    const { host } = fakeHost(() => ({ failed: 'timed out' }))
    expect(run(`${TRANSPORTER}\nreturn $t.checkConnection()`, withHost(host))).toEqual({
      success: false,
      status: 0,
      statusText: 'The mail to smtp.example.com:587 failed: timed out',
      errors: [
        {
          errCode: 9436,
          message: 'The mail to smtp.example.com:587 failed: timed out',
          componentSignature: 'enti',
        },
      ],
    })
  })
})

describe('MAIL Convert to MIME', () => {
  it('writes the mail as send() does, in the charsets of its options', () => {
    const mime =
      run(`$m:={from: "ada@example.com"; to: [{email: "b@x.org"}]; subject: "Été"; textBody: "Été"}
return MAIL Convert to MIME($m; {headerCharset: mail mode UTF8 in base64; bodyCharset: mail mode ISO88591})`) as string
    const read = parseMime(mime)
    expect(read.headers.get('subject')).toBe('=?UTF-8?B?w4l0w6k=?=')
    expect(read.headers.get('content-type')).toBe('text/plain; charset="ISO-8859-1"')
    expect(textOf(read)).toBe('Été')
    expect(run('return MAIL Convert to MIME({textBody: "x"})')).toMatch(/^MIME-Version: 1\.0\r\n/)
    expect(errorOf('MAIL Convert to MIME({}; {bodyCharset: "EBCDIC"})')).toMatchObject({
      errCode: 9415,
    })
  })

  it("writes the mail's keywords, references and headers, one the mail sets itself ignored", () => {
    const h = parseMime(
      run(`$m:={from: "a@b.org"; subject: "S"; inReplyTo: "<x@b.org>"; references: ["<w@b.org>"; "x@b.org"]; \
  comments: "internal"; keywords: {}; headers: [{name: "X-Campaign"; value: "spring"}; {name: "Subject"; value: "no"}; {value: "nameless"}]}
$m.keywords["$flagged"]:=True
$m.keywords["4d"]:=True
$m.keywords["draft"]:=False
return MAIL Convert to MIME($m)`) as string,
    ).headers
    expect(Object.fromEntries(h)).toMatchObject({
      subject: 'S',
      'in-reply-to': '<x@b.org>',
      references: '<w@b.org> <x@b.org>',
      comments: 'internal',
      keywords: '$flagged, 4d',
      'x-campaign': 'spring',
    })
    expect(
      errorOf('MAIL Convert to MIME({headers: [{name: "Bad: name"; value: "x"}]})'),
    ).toMatchObject({
      errCode: 9415,
    })
  })
})

describe('MAIL New attachment from a file', () => {
  const root = mkdtempSync(join(tmpdir(), 'entistore-4d-mail-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'Project'))
  mkdirSync(join(root, 'Resources'))
  writeFileSync(join(root, 'Resources', 'report.pdf'), '%PDF')
  writeFileSync(join(root, 'Project', 'notes.txt'), 'beside the project file')
  const options = { runtime: { files: projectFiles(root) } }

  it('reads a 4D.File, a system path, or a name beside the project file', () => {
    expect(
      run(
        `var $a; $b; $c : 4D.MailAttachment
$a:=MAIL New attachment(File("/RESOURCES/report.pdf"))
$b:=MAIL New attachment(File("/RESOURCES/report.pdf").platformPath; "Q3.pdf")
$c:=MAIL New attachment("notes.txt")
return [$a.name; $a.type; $a.path; $b.name; $c.name; $c.type; $c.getContent().size]`,
        options,
      ),
    ).toEqual([
      'report.pdf',
      'application/pdf',
      '/RESOURCES/report.pdf',
      'Q3.pdf',
      'notes.txt',
      'application/octet-stream',
      23,
    ])
    expect(errorOf('MAIL New attachment(File("/RESOURCES/none.pdf"))', options)).toMatchObject({
      errCode: 9431,
    })
  })

  it('reads a 4D.ZipFile through its getContent()', () => {
    expect(
      run(
        `ZIP Create archive(File("/RESOURCES/report.pdf"); File("/RESOURCES/r.zip"))
var $zip : 4D.ZipFile:=ZIP Read archive(File("/RESOURCES/r.zip")).root.files()[0]
var $a : 4D.MailAttachment:=MAIL New attachment($zip)
return [$a.name; $a.type; $a.getContent().size]`,
        options,
      ),
    ).toEqual(['report.pdf', 'application/pdf', 4])
    expect(errorOf('MAIL New attachment(New object)', options)).toMatchObject({ errCode: 9406 })
  })
})
