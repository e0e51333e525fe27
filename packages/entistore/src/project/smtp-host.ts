/**
 * @module Outgoing mail for 4D code (`4D.SMTPTransporter`'s `send()` and `checkConnection()`), to
 * the mail servers the server allows and no other: `entistore serve --allow-smtp smtp.example.com`
 * (none by default, as for HTTP: code a client can reach must not make the server a relay). The
 * dialogue runs in a worker thread that the call waits for, as 4D's functions wait
 * (sync-worker.ts), over node:net and node:tls:
 * - the greeting (220), EHLO (HELO when the server refuses it), its extensions read;
 * - TLS: from the start on port 465; otherwise STARTTLS when the server offers it, then EHLO
 *   again; a server that does not offer it fails the send unless `acceptUnsecureConnection`;
 *   certificates are checked against Node's trust store (and `ca`, for a test's server);
 * - AUTH, when the transporter has a user: the mode asked, else CRAM-MD5, LOGIN or PLAIN, the first
 *   the server offers; OAUTH2 (XOAUTH2) with a token;
 * - MAIL FROM, RCPT TO for each recipient, DATA with the lines that start with a dot doubled, QUIT.
 * Each reply is read whole (its `250-` lines, then its `250 ` line) and judged by its code: the
 * first that refuses ends the dialogue, and is the status 4D code gets. The connection and its
 * greeting have `connectTimeoutMs`, the rest `sendTimeoutMs`.
 */
import type { SmtpAsk, SmtpHost, SmtpReply } from '@entistore/4d'
import { endpointRefusal } from './http-host.js'
import { SyncWorker } from './sync-worker.js'

/**
 * Whether `host` and `port` are a mail server `allowed` names (`host`, `host:port`, `*.domain`,
 * as `--allow-smtp` takes them); the reason not, otherwise.
 */
export function smtpRefusal(
  host: string,
  port: number,
  allowed: readonly string[],
): string | undefined {
  const name = host.toLowerCase()
  const bracketed = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name
  return endpointRefusal(bracketed, String(port), allowed, '--allow-smtp')
}

// The worker's handler (sync-worker.ts): one dialogue with one server, its last reply answered.
const SCRIPT = String.raw`
const net = require('node:net')
const tls = require('node:tls')
const os = require('node:os')
const { createHmac } = require('node:crypto')
const { ca } = require('node:worker_threads').workerData.data
const NAME = (os.hostname() || '').replace(/[^A-Za-z0-9.-]/g, '') || 'localhost'
const b64 = (text) => Buffer.from(text, 'utf8').toString('base64')
const sni = (host) => (net.isIP(host) ? undefined : host)
const trusted = () => (ca === undefined ? undefined : [...tls.rootCertificates, ca])

// A connection whose replies are read by code: a reply is whole at its last line ("250 ").
function open(socket) {
  const conn = { socket, buffer: '', lines: [], replies: [], wake: null, error: null }
  const onData = (chunk) => {
    conn.buffer += chunk.toString('latin1')
    let at
    while ((at = conn.buffer.indexOf('\n')) >= 0) {
      const line = conn.buffer.slice(0, at).replace(/\r$/, '')
      conn.buffer = conn.buffer.slice(at + 1)
      conn.lines.push(line)
      if (/^\d{3}-/.test(line)) continue
      const lines = conn.lines
      conn.lines = []
      conn.replies.push({
        code: /^\d{3}/.test(line) ? Number(line.slice(0, 3)) : 0,
        text: lines.map((l) => l.slice(4)).join('\n'),
        lines,
      })
      if (conn.wake) conn.wake()
    }
  }
  const onEnd = (e) => {
    conn.error = conn.error || (e && e.message) || 'the server closed the connection'
    if (conn.wake) conn.wake()
  }
  const onClose = () => onEnd()
  socket.on('data', onData)
  socket.on('error', onEnd)
  socket.on('close', onClose)
  conn.detach = () => {
    socket.off('data', onData)
    socket.off('error', onEnd)
    socket.off('close', onClose)
  }
  return conn
}

// The next reply, before the deadline.
function reply(conn, deadline) {
  return new Promise((resolve, reject) => {
    const check = () => {
      conn.wake = null
      if (conn.replies.length > 0) return resolve(conn.replies.shift())
      if (conn.error) return reject(new Error(conn.error))
      const left = deadline - Date.now()
      if (left <= 0) return reject(new Error('the server did not answer in time'))
      const timer = setTimeout(check, left)
      conn.wake = () => {
        clearTimeout(timer)
        check()
      }
    }
    check()
  })
}

async function command(conn, line, deadline) {
  conn.socket.write(line + '\r\n')
  return reply(conn, deadline)
}

// A socket once connected (and its TLS handshake done), or the error that stopped it.
function connected(socket, event, deadline, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(what + ' took too long'))
    }, Math.max(0, deadline - Date.now()))
    const fail = (e) => {
      clearTimeout(timer)
      reject(e)
    }
    socket.once('error', fail)
    socket.once(event, () => {
      clearTimeout(timer)
      socket.off('error', fail)
      resolve(open(socket))
    })
  })
}

function secure(options, host) {
  return tls.connect({ ...options, servername: sni(host), ca: trusted() })
}

// EHLO, or HELO when it is refused: the extensions the server offers, or its refusal.
async function hello(conn, deadline) {
  const ehlo = await command(conn, 'EHLO ' + NAME, deadline)
  if (ehlo.code !== 250) {
    const helo = await command(conn, 'HELO ' + NAME, deadline)
    return helo.code === 250 ? { keywords: new Set(), auth: [], reply: helo } : { refusal: helo }
  }
  const keywords = new Set()
  let auth = []
  for (const line of ehlo.lines.slice(1)) {
    const words = line.slice(4).trim().toUpperCase().split(/[\s=]+/)
    keywords.add(words[0])
    if (words[0] === 'AUTH') auth = auth.concat(words.slice(1))
  }
  return { keywords, auth, reply: ehlo }
}

async function login(conn, auth, offered, deadline) {
  let mode = auth.mode === 'OAUTH2' ? 'XOAUTH2' : auth.mode
  if (!mode && auth.token !== undefined) mode = 'XOAUTH2'
  if (!mode) mode = ['CRAM-MD5', 'LOGIN', 'PLAIN'].find((m) => offered.includes(m))
  if (!mode)
    throw new Error('the server offers no login this client makes (' + (offered.join(' ') || 'no AUTH') + ')')
  const password = auth.password || ''
  if (mode === 'PLAIN') return command(conn, 'AUTH PLAIN ' + b64('\0' + auth.user + '\0' + password), deadline)
  if (mode === 'LOGIN') {
    let r = await command(conn, 'AUTH LOGIN', deadline)
    if (r.code !== 334) return r
    r = await command(conn, b64(auth.user), deadline)
    if (r.code !== 334) return r
    return command(conn, b64(password), deadline)
  }
  if (mode === 'CRAM-MD5') {
    const r = await command(conn, 'AUTH CRAM-MD5', deadline)
    if (r.code !== 334) return r
    const challenge = Buffer.from(r.text.trim(), 'base64')
    const digest = createHmac('md5', password).update(challenge).digest('hex')
    return command(conn, b64(auth.user + ' ' + digest), deadline)
  }
  const bearer = 'user=' + auth.user + '\x01auth=Bearer ' + (auth.token || '') + '\x01\x01'
  const r = await command(conn, 'AUTH XOAUTH2 ' + b64(bearer), deadline)
  // A refused token comes as a 334 with the details: an empty line, and the server says 535.
  return r.code === 334 ? command(conn, '', deadline) : r
}

// QUIT, its reply waited for a moment: the answer is already known.
async function quit(conn, deadline) {
  try {
    await command(conn, 'QUIT', Math.min(deadline, Date.now() + 2000))
  } catch {}
}

async function ended(conn, r, deadline) {
  await quit(conn, deadline)
  return { status: r.code, statusText: r.text }
}

async function dialogue(state, ask) {
  const connectBy = Date.now() + ask.connectTimeoutMs
  const target = { host: ask.host, port: ask.port }
  const socket = ask.tls === 'implicit' ? secure(target, ask.host) : net.connect(target)
  state.socket = socket
  let conn = await connected(socket, ask.tls === 'implicit' ? 'secureConnect' : 'connect', connectBy, 'the connection')
  const greeting = await reply(conn, connectBy)
  const deadline = Date.now() + ask.sendTimeoutMs
  if (greeting.code !== 220) return ended(conn, greeting, deadline)
  let ext = await hello(conn, deadline)
  if (ext.refusal) return ended(conn, ext.refusal, deadline)
  if (ask.tls === 'starttls' && ext.keywords.has('STARTTLS')) {
    const r = await command(conn, 'STARTTLS', deadline)
    if (r.code !== 220) return ended(conn, r, deadline)
    conn.detach()
    state.socket = secure({ socket }, ask.host)
    conn = await connected(state.socket, 'secureConnect', deadline, 'the TLS handshake')
    ext = await hello(conn, deadline)
    if (ext.refusal) return ended(conn, ext.refusal, deadline)
  } else if (ask.tls === 'starttls' && !ask.acceptUnsecure) {
    await quit(conn, deadline)
    return { failed: 'the server offers no STARTTLS, and acceptUnsecureConnection is False' }
  }
  // Without a message, the last reply is the answer: the login's, else EHLO's.
  let last = ext.reply
  if (ask.auth) {
    last = await login(conn, ask.auth, ext.auth, deadline)
    if (last.code !== 235) return ended(conn, last, deadline)
  }
  const m = ask.message
  if (!m) return ended(conn, last, deadline)
  let r = await command(conn, 'MAIL FROM:<' + m.from + '>', deadline)
  if (r.code !== 250) return ended(conn, r, deadline)
  for (const to of m.recipients) {
    r = await command(conn, 'RCPT TO:<' + to + '>', deadline)
    if (r.code !== 250 && r.code !== 251) return ended(conn, r, deadline)
  }
  r = await command(conn, 'DATA', deadline)
  if (r.code !== 354) return ended(conn, r, deadline)
  let text = Buffer.from(m.mime).toString('latin1')
  if (!text.endsWith('\r\n')) text += '\r\n'
  // Dot-stuffing (RFC 5321 4.5.2): a line that starts with a dot gets one more.
  conn.socket.write(text.replace(/(^|\r\n)\./g, '$1..') + '.\r\n', 'latin1')
  return ended(conn, await reply(conn, deadline), deadline)
}

async function handle(ask) {
  const state = {}
  try {
    return await dialogue(state, ask)
  } catch (e) {
    return { failed: String((e && e.message) || e) }
  } finally {
    if (state.socket) state.socket.destroy()
  }
}
`

class SocketHost implements SmtpHost {
  readonly #worker: SyncWorker<SmtpAsk, SmtpReply | { failed: string }>

  constructor(
    readonly allowed: readonly string[],
    ca: string | undefined,
  ) {
    // The call's own timeouts end the dialogue; this one only guards against a worker gone.
    this.#worker = new SyncWorker(SCRIPT, { ca }, 24 * 60 * 60 * 1000)
  }

  send(ask: SmtpAsk): SmtpReply | { refused: string } | { failed: string } {
    // Refused here: a server not allowed costs no worker.
    const refused = smtpRefusal(ask.host, ask.port, this.allowed)
    if (refused !== undefined) return { refused }
    try {
      return this.#worker.call(ask, ask.connectTimeoutMs + ask.sendTimeoutMs + 5000)
    } catch (e) {
      return { failed: (e as Error).message }
    }
  }
}

/**
 * The mail host for 4D code that may reach the servers `allowed` names (host, host:port,
 * *.domain), no other; `ca`, a certificate to trust besides Node's (a test's own server).
 */
export const smtpHost = (
  allowed: readonly string[] = [],
  options: { ca?: string } = {},
): SmtpHost => new SocketHost(allowed, options.ca)
