/**
 * 4D code's outgoing mail (smtp-host.ts) against a real SMTP server of the tests'
 * (smtp-server.fixture.ts): the allow-list, the dialogue (EHLO, STARTTLS, each login, MAIL, RCPT,
 * DATA with its dots doubled, QUIT), a refused recipient as the status 4D code gets, and the
 * failures that have no reply to tell.
 */
import type { SmtpAsk } from '@entistore/4d'
import { afterEach, describe, expect, it } from 'vitest'
import { smtpHost, smtpRefusal } from './smtp-host.js'
import { selfSigned, smtpServer, type SmtpServer } from './smtp-server.fixture.js'

const MIME = 'Subject: Hi\r\n\r\nA line\r\n.starts with a dot\r\n..and two\r\n'

let servers: SmtpServer[] = []
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

async function started(config: Parameters<typeof smtpServer>[0] = {}): Promise<SmtpServer> {
  const s = await smtpServer(config)
  servers.push(s)
  return s
}

const ask = (port: number, more: Partial<SmtpAsk> = {}): SmtpAsk => ({
  host: '127.0.0.1',
  port,
  tls: 'starttls',
  acceptUnsecure: true,
  auth: { user: 'ada', password: 'secret' },
  connectTimeoutMs: 5000,
  sendTimeoutMs: 5000,
  message: {
    from: 'ada@example.com',
    recipients: ['bob@example.org', 'carl@example.org'],
    mime: new TextEncoder().encode(MIME),
  },
  ...more,
})

const host = smtpHost(['127.0.0.1'])

describe('the mail servers 4D code may reach', () => {
  it('are those --allow-smtp names: a host, a host and port, the subdomains of *.domain', () => {
    const allowed = ['smtp.example.com', 'mail.local:2525', '*.example.org', '[::1]']
    expect(smtpRefusal('SMTP.example.com', 587, allowed)).toBeUndefined()
    expect(smtpRefusal('mail.local', 2525, allowed)).toBeUndefined()
    expect(smtpRefusal('mail.local', 25, allowed)).toMatch(
      /allows smtp\.example\.com.*--allow-smtp/,
    )
    expect(smtpRefusal('out.example.org', 465, allowed)).toBeUndefined()
    expect(smtpRefusal('example.org', 465, allowed)).toBeDefined()
    expect(smtpRefusal('::1', 25, allowed)).toBeUndefined()
    expect(smtpRefusal('127.0.0.1', 25, [])).toMatch(/allows no host .*--allow-smtp <host>/)
  })

  it('refuse any other before connecting', async () => {
    const s = await started()
    expect(smtpHost().send(ask(s.port))).toEqual({
      refused: 'the server allows no host (entistore serve --allow-smtp <host>)',
    })
    expect(smtpHost(['localhost']).send(ask(s.port))).toMatchObject({ refused: expect.any(String) })
    expect(await s.sessions()).toEqual([])
  })
})

describe('a mail sent', () => {
  it('goes through EHLO, AUTH, MAIL, RCPT each, DATA with its dots doubled, and QUIT', async () => {
    const s = await started()
    expect(host.send(ask(s.port))).toEqual({ status: 250, statusText: '2.0.0 Ok: queued as 42' })
    const [dialogue] = await s.sessions()
    const said = dialogue!.filter((l) => l.startsWith('C: '))
    expect(said[0]).toMatch(/^C: EHLO [A-Za-z0-9.-]+$/)
    // CRAM-MD5 first of the three the server offers: the password is never sent.
    expect(said.slice(1)).toEqual([
      'C: AUTH CRAM-MD5',
      expect.stringMatching(/^C: [A-Za-z0-9+/=]+$/),
      'C: MAIL FROM:<ada@example.com>',
      'C: RCPT TO:<bob@example.org>',
      'C: RCPT TO:<carl@example.org>',
      'C: DATA',
      'C: QUIT',
    ])
    expect(dialogue).toContain('S: 235 2.7.0 Authentication successful')
    expect(dialogue).toContain(
      'DATA: Subject: Hi\r\n\r\nA line\r\n..starts with a dot\r\n...and two\r\n',
    )
  })

  it('logs in with the mode asked: PLAIN, LOGIN; a wrong password is the status 535', async () => {
    const s = await started()
    for (const mode of ['PLAIN', 'LOGIN'])
      expect(host.send(ask(s.port, { auth: { user: 'ada', password: 'secret', mode } }))).toEqual({
        status: 250,
        statusText: '2.0.0 Ok: queued as 42',
      })
    const [plain, login] = await s.sessions()
    expect(plain).toContain(`C: AUTH PLAIN ${Buffer.from('\0ada\0secret').toString('base64')}`)
    expect(login).toEqual(
      expect.arrayContaining(['C: AUTH LOGIN', 'C: YWRh', 'C: c2VjcmV0', 'S: 334 UGFzc3dvcmQ6']),
    )
    expect(host.send(ask(s.port, { auth: { user: 'ada', password: 'nope' } }))).toEqual({
      status: 535,
      statusText: '5.7.8 Authentication credentials invalid',
    })
  })

  it('stops at a refused recipient: its status, no DATA, and QUIT', async () => {
    const s = await started({ refuse: ['carl@example.org'] })
    expect(host.send(ask(s.port))).toEqual({
      status: 550,
      statusText: '5.1.1 <carl@example.org>: Recipient address rejected',
    })
    const [dialogue] = await s.sessions()
    expect(dialogue).not.toContain('C: DATA')
    expect(dialogue!.at(-2)).toBe('C: QUIT')
  })

  it('without a message, connects, logs in and quits: the login is the answer', async () => {
    const s = await started()
    expect(host.send(ask(s.port, { message: undefined }))).toEqual({
      status: 235,
      statusText: '2.7.0 Authentication successful',
    })
    const noUser = host.send(ask(s.port, { message: undefined, auth: undefined }))
    expect(noUser).toMatchObject({ status: 250, statusText: expect.stringContaining('test.local') })
  })

  it('fails, with nothing to tell but why, where no reply can come', async () => {
    const s = await started({ silent: true })
    const quick = { connectTimeoutMs: 300, sendTimeoutMs: 300 }
    expect(host.send(ask(s.port, quick))).toEqual({ failed: 'the server did not answer in time' })
    const closed = s.port
    await s.close()
    servers = []
    expect(host.send(ask(closed, quick))).toMatchObject({
      failed: expect.stringMatching(/ECONNREFUSED/),
    })
  })

  it('is not sent unencrypted to a server without STARTTLS unless acceptUnsecureConnection', async () => {
    const s = await started()
    expect(host.send(ask(s.port, { acceptUnsecure: false }))).toEqual({
      failed: 'the server offers no STARTTLS, and acceptUnsecureConnection is False',
    })
    expect((await s.sessions())[0]).not.toContain('C: MAIL FROM:<ada@example.com>')
  })
})

const pair = selfSigned()

describe.skipIf(pair === undefined)('TLS', () => {
  it('upgrades with STARTTLS when offered, says EHLO again, and checks the certificate', async () => {
    const s = await started({ tls: pair! })
    const trusting = smtpHost(['127.0.0.1'], { ca: pair!.cert })
    expect(trusting.send(ask(s.port, { acceptUnsecure: false }))).toEqual({
      status: 250,
      statusText: '2.0.0 Ok: queued as 42',
    })
    const [dialogue] = await s.sessions()
    const start = dialogue!.indexOf('TLS')
    expect(dialogue!.slice(start - 2, start)).toEqual([
      'C: STARTTLS',
      'S: 220 2.0.0 Ready to start TLS',
    ])
    expect(dialogue![start + 1]).toMatch(/^C: EHLO /)
    expect(dialogue!.slice(start + 1)).toContain('C: AUTH CRAM-MD5')
    // Not a certificate Node trusts: no mail, whatever acceptUnsecureConnection says.
    expect(host.send(ask(s.port))).toMatchObject({ failed: expect.stringMatching(/certificate/) })
  })

  it('speaks TLS from the start when asked (port 465)', async () => {
    const s = await started({ tls: { ...pair!, implicit: true } })
    const trusting = smtpHost(['127.0.0.1'], { ca: pair!.cert })
    expect(trusting.send(ask(s.port, { tls: 'implicit', acceptUnsecure: false }))).toEqual({
      status: 250,
      statusText: '2.0.0 Ok: queued as 42',
    })
  })
})
