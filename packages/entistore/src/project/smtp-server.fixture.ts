/**
 * A small SMTP server for the tests of 4D code's outgoing mail (smtp-host.ts), written with
 * node:net and node:tls from RFC 5321: EHLO with its extensions (STARTTLS, AUTH), STARTTLS, AUTH
 * PLAIN, LOGIN and CRAM-MD5, MAIL FROM, RCPT TO (refusing the addresses it is told to), DATA,
 * QUIT. It records each session's dialogue, the client's lines as `C: …` and its own as `S: …`,
 * the message as received (dot-stuffing kept) as `DATA: …`. It runs in a worker thread of its
 * own: a send waits for its reply with the calling thread blocked, as 4D's functions wait, so a
 * server on that thread could never answer.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'

export interface SmtpServerConfig {
  /** The mechanisms EHLO offers. @default PLAIN LOGIN CRAM-MD5 */
  readonly auth?: readonly string[]
  /** The one user and password it accepts. @default ada / secret */
  readonly user?: string
  readonly password?: string
  /** The recipients it refuses with 550. */
  readonly refuse?: readonly string[]
  /** A key and certificate: STARTTLS offered with them, or (`implicit`) TLS from the start. */
  readonly tls?: { readonly key: string; readonly cert: string; readonly implicit?: boolean }
  /** Sends no greeting: the client's timeout ends the wait. */
  readonly silent?: boolean
}

export interface SmtpServer {
  readonly port: number
  /** Each session's dialogue so far. */
  sessions(): Promise<string[][]>
  close(): Promise<number>
}

const SERVER = String.raw`
const net = require('node:net')
const tls = require('node:tls')
const { createHmac } = require('node:crypto')
const { parentPort, workerData } = require('node:worker_threads')
const config = workerData
const user = config.user || 'ada'
const password = config.password || 'secret'
const mechanisms = config.auth || ['PLAIN', 'LOGIN', 'CRAM-MD5']
const sessions = []
const decode = (b64) => Buffer.from(b64, 'base64').toString('utf8')

function session(socket) {
  const log = []
  sessions.push(log)
  let sock = socket
  let buffer = ''
  let data = null
  let next = null
  const say = (line) => {
    log.push('S: ' + line)
    sock.write(line + '\r\n')
  }
  const granted = (ok) => say(ok ? '235 2.7.0 Authentication successful' : '535 5.7.8 Authentication credentials invalid')
  const onData = (chunk) => {
    buffer += chunk.toString('latin1')
    let at
    while ((at = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, at)
      buffer = buffer.slice(at + 2)
      onLine(line)
    }
  }
  function onLine(line) {
    if (data !== null) {
      if (line !== '.') return void (data += line + '\r\n')
      log.push('DATA: ' + data)
      data = null
      return say('250 2.0.0 Ok: queued as 42')
    }
    log.push('C: ' + line)
    if (next) {
      const step = next
      next = null
      return step(line)
    }
    const [verb, ...rest] = line.split(' ')
    switch (verb.toUpperCase()) {
      case 'EHLO':
        say('250-test.local greets you')
        if (config.tls && !config.tls.implicit && !sock.encrypted) say('250-STARTTLS')
        if (mechanisms.length > 0) say('250-AUTH ' + mechanisms.join(' '))
        return say('250 8BITMIME')
      case 'STARTTLS':
        say('220 2.0.0 Ready to start TLS')
        sock.off('data', onData)
        sock = new tls.TLSSocket(sock, { isServer: true, secureContext: tls.createSecureContext(config.tls) })
        sock.on('data', onData)
        sock.on('error', () => {})
        return log.push('TLS')
      case 'AUTH': {
        const mechanism = (rest[0] || '').toUpperCase()
        if (mechanism === 'PLAIN') {
          const [, u, p] = decode(rest[1] || '').split('\0')
          return granted(u === user && p === password)
        }
        if (mechanism === 'LOGIN') {
          say('334 VXNlcm5hbWU6')
          next = (u) => {
            say('334 UGFzc3dvcmQ6')
            next = (p) => granted(decode(u) === user && decode(p) === password)
          }
          return
        }
        if (mechanism === 'CRAM-MD5') {
          const challenge = '<42.1700000000@test.local>'
          say('334 ' + Buffer.from(challenge).toString('base64'))
          next = (answer) => {
            const digest = createHmac('md5', password).update(challenge).digest('hex')
            granted(decode(answer) === user + ' ' + digest)
          }
          return
        }
        return say('504 5.5.4 Unrecognized authentication type')
      }
      case 'MAIL':
        return say('250 2.1.0 Ok')
      case 'RCPT': {
        const to = /<([^>]*)>/.exec(line)[1]
        if ((config.refuse || []).includes(to)) return say('550 5.1.1 <' + to + '>: Recipient address rejected')
        return say('250 2.1.5 Ok')
      }
      case 'DATA':
        data = ''
        return say('354 End data with <CR><LF>.<CR><LF>')
      case 'QUIT':
        say('221 2.0.0 Bye')
        return sock.end()
      default:
        return say('502 5.5.2 Error: command not recognized')
    }
  }
  sock.on('data', onData)
  sock.on('error', () => {})
  if (!config.silent) say('220 test.local ESMTP')
}

const server = config.tls && config.tls.implicit
  ? tls.createServer({ key: config.tls.key, cert: config.tls.cert }, session)
  : net.createServer(session)
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port))
parentPort.on('message', () => parentPort.postMessage(sessions))
`

/** A server of its own, in a worker thread, listening on a free port of 127.0.0.1. */
export async function smtpServer(config: SmtpServerConfig = {}): Promise<SmtpServer> {
  const worker = new Worker(SERVER, { eval: true, workerData: config })
  const port = await new Promise<number>((resolve) => worker.once('message', resolve))
  return {
    port,
    sessions: () =>
      new Promise((resolve) => {
        worker.once('message', resolve)
        worker.postMessage('sessions')
      }),
    close: () => worker.terminate(),
  }
}

/** A key and a self-signed certificate for 127.0.0.1 (openssl's); undefined without openssl. */
export function selfSigned(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'entistore-smtp-'))
  try {
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ])
    if (made.status !== 0) return undefined
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    }
  } catch {
    return undefined
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
